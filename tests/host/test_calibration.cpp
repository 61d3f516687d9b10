// Calibration from the judge's side, without a GPU: the JSON form, plausibility, the per-GPU store (atomic writes,
// corrupt files named), the speed-of-light arithmetic, following a scripted fake `judge-worker calibrate` through
// success, failure, crash and hang, auto-calibration, the reports, and `judge calibrate` end to end.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/core/measure/calibration.hpp"
#include "judge/core/present/report.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::Calibration;
using judge::CalibrationStore;
using judge::testing::read_file;
using judge::testing::TempDir;
using judge::testing::write_file;
using nlohmann::json;

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << "missing \"" << (needle) << "\" in:\n" << (haystack)

Calibration sample(const std::string& gpu = "Fake GPU", double copy = 4272) {
  Calibration c;
  c.gpu_name = gpu;
  c.compute_capability = "9.0";
  c.sm_count = 132;
  c.measured_at = "2026-11-21T10:00:00Z";
  c.judge_version = "0.1.0";
  c.copy_gbps = copy;
  c.fp32_fma_gflops = 60000;
  c.sgemm_gflops = 51300;
  c.tf32_gflops = 372000;
  c.fp16_gflops = 700000;
  c.bf16_gflops = 690000;
  c.int8_gops = 1300000;
  return c;
}

void expect_same(const Calibration& a, const Calibration& b) {
  EXPECT_EQ(a.gpu_name, b.gpu_name);
  EXPECT_EQ(a.compute_capability, b.compute_capability);
  EXPECT_EQ(a.sm_count, b.sm_count);
  EXPECT_EQ(a.measured_at, b.measured_at);
  EXPECT_EQ(a.judge_version, b.judge_version);
  EXPECT_DOUBLE_EQ(a.copy_gbps, b.copy_gbps);
  EXPECT_DOUBLE_EQ(a.fp32_fma_gflops, b.fp32_fma_gflops);
  EXPECT_DOUBLE_EQ(a.sgemm_gflops, b.sgemm_gflops);
  EXPECT_DOUBLE_EQ(a.tf32_gflops, b.tf32_gflops);
  EXPECT_DOUBLE_EQ(a.fp16_gflops, b.fp16_gflops);
  EXPECT_DOUBLE_EQ(a.bf16_gflops, b.bf16_gflops);
  EXPECT_DOUBLE_EQ(a.int8_gops, b.int8_gops);
}

// Sets an environment variable for one scope, restoring what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value->c_str(), 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// ---- JSON and plausibility ----

TEST(CalibrationJson, RoundTripKeepsEveryField) {
  Calibration c = sample();
  json j = c;
  for (const char* key : {"gpu_name", "compute_capability", "sm_count", "measured_at", "judge_version", "copy_gbps",
                          "fp32_fma_gflops", "sgemm_gflops", "tf32_gflops", "fp16_gflops", "bf16_gflops",
                          "int8_gops"})
    EXPECT_TRUE(j.contains(key)) << key;
  expect_same(json::parse(j.dump()).get<Calibration>(), c);
}

TEST(CalibrationJson, FiguresAreRequiredDescriptionsAreNot) {
  json j = sample();
  j.erase("measured_at");
  j.erase("sm_count");
  Calibration c = j.get<Calibration>();
  EXPECT_EQ(c.measured_at, "");
  EXPECT_EQ(c.sm_count, 0);
  j.erase("bf16_gflops");
  EXPECT_THROW(j.get<Calibration>(), json::exception);
  // A calibration stored before the INT8 rate was measured still reads, but is measured again when next needed.
  json older = sample();
  older.erase("int8_gops");
  Calibration c_older = older.get<Calibration>();
  EXPECT_EQ(c_older.int8_gops, 0);
  EXPECT_FALSE(c_older.plausible());
  json wrong_type = sample();
  wrong_type["copy_gbps"] = "fast";
  EXPECT_THROW(wrong_type.get<Calibration>(), json::exception);
}

TEST(CalibrationPlausible, EveryFigurePositiveAndFinite) {
  EXPECT_TRUE(sample().plausible());
  EXPECT_FALSE(Calibration{}.plausible());
  double Calibration::*figures[] = {&Calibration::copy_gbps,   &Calibration::fp32_fma_gflops,
                                    &Calibration::sgemm_gflops, &Calibration::tf32_gflops,
                                    &Calibration::fp16_gflops,  &Calibration::bf16_gflops,
                                    &Calibration::int8_gops};
  for (auto figure : figures) {
    for (double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
      Calibration c = sample();
      c.*figure = bad;
      EXPECT_FALSE(c.plausible()) << bad;
    }
  }
}

// ---- the store ----

TEST(CalibrationStore, MissingFileIsEmptyAndNotCreated) {
  TempDir dir;
  CalibrationStore store(dir / "sub" / "calibration.json");
  EXPECT_FALSE(store.find("Fake GPU"));
  EXPECT_FALSE(fs::exists(dir / "sub"));
}

TEST(CalibrationStore, SaveFindOverwriteAndTwoGpus) {
  TempDir dir;
  fs::path file = dir / "a" / "b" / "calibration.json";
  CalibrationStore store(file);
  store.save(sample("GPU one", 1000));
  ASSERT_TRUE(fs::exists(file)) << "the parent directories are created";
  auto found = store.find("GPU one");
  ASSERT_TRUE(found);
  expect_same(*found, sample("GPU one", 1000));
  EXPECT_FALSE(store.find("GPU two"));

  store.save(sample("GPU two", 2000));
  store.save(sample("GPU one", 1500));  // overwrite
  CalibrationStore again(file);         // a fresh reader sees the file, not a cache
  ASSERT_TRUE(again.find("GPU one"));
  EXPECT_DOUBLE_EQ(again.find("GPU one")->copy_gbps, 1500);
  ASSERT_TRUE(again.find("GPU two"));
  EXPECT_DOUBLE_EQ(again.find("GPU two")->copy_gbps, 2000);

  json all = json::parse(read_file(file));
  ASSERT_TRUE(all.is_object());
  EXPECT_EQ(all.size(), 2u);
  EXPECT_TRUE(all.contains("GPU one"));
  EXPECT_TRUE(all.contains("GPU two"));

  int files = 0;
  for (const auto& e : fs::directory_iterator(file.parent_path())) {
    ++files;
    EXPECT_EQ(e.path().filename(), "calibration.json") << "a temporary file was left behind";
  }
  EXPECT_EQ(files, 1);
}

TEST(CalibrationStore, ReadersAlwaysSeeAWholeFile) {
  TempDir dir;
  fs::path file = dir / "calibration.json";
  CalibrationStore store(file);
  store.save(sample("GPU 0"));
  std::atomic<bool> stop{false};
  std::atomic<int> reads{0}, bad{0};
  std::thread reader([&] {
    while (!stop) {
      std::string text;
      try {
        text = read_file(file);
      } catch (const std::exception&) {
        ++bad;  // the file must never be missing either: rename replaces it in one step
        continue;
      }
      json j = json::parse(text, nullptr, false);
      if (j.is_discarded() || !j.is_object() || j.empty()) ++bad;
      ++reads;
    }
  });
  for (int i = 1; i <= 200; ++i) store.save(sample("GPU " + std::to_string(i % 7), 1000 + i));
  stop = true;
  reader.join();
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(bad.load(), 0) << "a reader saw a partial or missing file";
  EXPECT_EQ(json::parse(read_file(file)).size(), 7u);
}

TEST(CalibrationStore, CorruptFileIsAnErrorNamingItAndIsLeftAlone) {
  TempDir dir;
  fs::path file = dir / "calibration.json";
  for (const std::string text : {"{ not json", "", "[1, 2]", R"({"Fake GPU": {"gpu_name": "Fake GPU"}})",
                                 R"({"Fake GPU": 42})"}) {
    write_file(file, text);
    CalibrationStore store(file);
    try {
      store.find("Fake GPU");
      ADD_FAILURE() << "no error for " << text;
    } catch (const judge::Error& e) {
      EXPECT_CONTAINS(e.what(), file.string());
      EXPECT_CONTAINS(e.what(), "delete it");
    }
    EXPECT_THROW(store.save(sample()), judge::Error) << text;
    EXPECT_EQ(read_file(file), text) << "a corrupt file is the user's to fix, not ours to overwrite";
  }
}

TEST(CalibrationStore, UnwritableLocationIsAnErrorNamingTheFile) {
  TempDir dir;
  write_file(dir / "not-a-dir", "x");
  fs::path file = dir / "not-a-dir" / "calibration.json";
  CalibrationStore store(file);
  EXPECT_FALSE(store.find("Fake GPU"));
  try {
    store.save(sample());
    ADD_FAILURE() << "saved under a regular file";
  } catch (const judge::Error& e) {
    EXPECT_CONTAINS(e.what(), file.string());
  }
}

TEST(CalibrationStore, DefaultPathFromTheEnvironment) {
  ScopedEnv cal("JUDGE_CALIBRATION", std::string("/somewhere/cal.json"));
  EXPECT_EQ(CalibrationStore::default_path(), fs::path("/somewhere/cal.json"));
  ScopedEnv none("JUDGE_CALIBRATION", std::nullopt);
  ScopedEnv db("JUDGE_DB", std::string("/data/judge/leaderboard.sqlite"));
  EXPECT_EQ(CalibrationStore::default_path(), fs::path("/data/judge/calibration.json"));
}

// ---- speed of light ----

TEST(SpeedOfLight, MemoryBound) {
  Calibration c = sample();
  c.copy_gbps = 4000;
  c.fp32_fma_gflops = 60000;
  auto s = judge::speed_of_light(/*flops=*/1e9, /*bytes=*/4e9, /*measured_ms=*/2.0, c);
  EXPECT_DOUBLE_EQ(s.memory_ms, 1.0);
  EXPECT_NEAR(s.compute_ms, 1e9 / 60e12 * 1e3, 1e-12);
  EXPECT_DOUBLE_EQ(s.floor_ms, 1.0);
  EXPECT_EQ(s.bound, "memory");
  EXPECT_DOUBLE_EQ(s.percent, 50.0);
}

TEST(SpeedOfLight, ComputeBound) {
  Calibration c = sample();
  c.copy_gbps = 4000;
  c.fp32_fma_gflops = 50000;
  // 4096^3 matmul: 2 * 4096^3 flops, three 64 MiB matrices.
  double flops = 2.0 * 4096 * 4096 * 4096, bytes = 3.0 * 4096 * 4096 * 4;
  auto s = judge::speed_of_light(flops, bytes, 5.0, c);
  EXPECT_NEAR(s.compute_ms, flops / 50e12 * 1e3, 1e-9);
  EXPECT_NEAR(s.memory_ms, bytes / 4e12 * 1e3, 1e-9);
  EXPECT_DOUBLE_EQ(s.floor_ms, s.compute_ms);
  EXPECT_EQ(s.bound, "compute");
  EXPECT_NEAR(s.percent, s.compute_ms / 5.0 * 100, 1e-9);
}

TEST(SpeedOfLight, ZeroRatesAndTimesAreSafe) {
  auto none = judge::speed_of_light(1e9, 1e9, 1.0, Calibration{});
  EXPECT_EQ(none.floor_ms, 0);
  EXPECT_EQ(none.percent, 0);
  EXPECT_EQ(none.bound, "");
  EXPECT_TRUE(std::isfinite(none.memory_ms) && std::isfinite(none.compute_ms));

  auto unmeasured = judge::speed_of_light(1e9, 1e9, 0.0, sample());
  EXPECT_GT(unmeasured.floor_ms, 0);
  EXPECT_EQ(unmeasured.percent, 0);

  Calibration only_copy;
  only_copy.copy_gbps = 1000;
  auto s = judge::speed_of_light(1e12, 1e9, 2.0, only_copy);
  EXPECT_DOUBLE_EQ(s.floor_ms, 1.0);
  EXPECT_EQ(s.compute_ms, 0);
  EXPECT_EQ(s.bound, "memory");
}

// ---- the progress line ----

TEST(ProgressLine, RedrawsInPlaceAndErasesItself) {
  std::ostringstream out;
  {
    judge::ProgressLine line(out);
    line.update("a long step label", 0.5);
    EXPECT_EQ(out.str(), "\r[##########..........]  50% a long step label");
    out.str("");
    line.update("short", 1.0);
    std::string redrawn = out.str();
    EXPECT_EQ(redrawn.rfind("\r[####################] 100% short", 0), 0u) << redrawn;
    EXPECT_EQ(redrawn.size(), 1 + std::string("[##########..........]  50% a long step label").size())
        << "padded to erase the longer label: " << redrawn;
    out.str("");
  }
  std::string erased = out.str();
  EXPECT_EQ(erased.front(), '\r');
  EXPECT_EQ(erased.back(), '\r');
  EXPECT_EQ(erased.find_first_not_of(" \r"), std::string::npos) << erased;
}

// ---- following the worker ----

// A stand-in for judge-worker: `probe` names a fake GPU (none when $FAKE_NO_DEVICE is set); `calibrate` counts its
// runs in <dir>/count, appends its arguments to <dir>/args and plays $FAKE_SCENARIO.
const char* kFakeWorker = R"SH(#!/bin/bash
dir="$(dirname "$0")"
if [ "$1" = probe ]; then
  if [ -n "$FAKE_NO_DEVICE" ]; then echo '{"devices":[],"error":"cudaGetDeviceCount found none"}'; exit 1; fi
  echo '{"devices":[{"name":"Fake GPU","compute_capability":"9.0","sm_count":132}]}'
  exit 0
fi
[ "$1" = calibrate ] || exit 64
echo "$@" >> "$dir/args"
n=$(cat "$dir/count" 2>/dev/null || echo 0)
echo $((n + 1)) > "$dir/count"
send() { printf '%s\n' "$1" >&3; }
cal() { echo '{"gpu_name":"Fake GPU","compute_capability":"9.0","sm_count":132,"measured_at":"2026-11-21T10:00:00Z","judge_version":"0.1.0","copy_gbps":'$1',"fp32_fma_gflops":60000,"sgemm_gflops":51300,"tf32_gflops":372000,"fp16_gflops":700000,"bf16_gflops":690000,"int8_gops":1300000}'; }
send '{"event":"progress","step":"copy bandwidth","fraction":0}'
case "${FAKE_SCENARIO:-ok}" in
  ok) echo 'not json' >&3; send '[1]'; send '{"event":"progress","step":"SGEMM FP32","fraction":0.5}'
      send '{"event":"calibration","calibration":'"$(cal 4272)"'}'; send '{"event":"done"}' ;;
  fatal) send '{"event":"fatal","message":"calibration: cublasCreate failed: CUBLAS_STATUS_NOT_INITIALIZED"}'; exit 1 ;;
  segv) echo 'cuda says boom' >&2; kill -SEGV $$ ;;
  hang) sleep 1000 & echo $! > "$dir/pid"; wait ;;
  zero) send '{"event":"calibration","calibration":'"$(cal 0)"'}'; send '{"event":"done"}' ;;
  silent) exit 0 ;;
esac
)SH";

class CalibrationWorker : public ::testing::Test {
 protected:
  void SetUp() override {
    // Each test its own cache, so its own GPU lock: test processes running at once would otherwise wait for one
    // another on the fake GPU's lock, and a wait is printed ("waiting for GPU 0: ...").
    cache_.emplace("JUDGE_CACHE_DIR", (dir_ / "cache").string());
    worker_ = dir_ / "fake-worker";
    write_file(worker_, kFakeWorker);
    fs::permissions(worker_, fs::perms::owner_all);
  }

  int runs() const {
    return fs::exists(dir_ / "count") ? std::stoi(read_file(dir_ / "count")) : 0;
  }

  judge::Calibration run(const std::string& scenario, double limit_s = 30) {
    ScopedEnv env("FAKE_SCENARIO", scenario);
    return judge::run_calibration(worker_, 2, [&](const std::string& s, double f) { steps_.push_back({s, f}); },
                                  limit_s);
  }

  std::string error_of(const std::string& scenario, double limit_s = 30) {
    try {
      run(scenario, limit_s);
    } catch (const judge::Error& e) {
      return e.what();
    }
    ADD_FAILURE() << scenario << ": no error";
    return "";
  }

  TempDir dir_;
  std::optional<ScopedEnv> cache_;
  fs::path worker_;
  std::vector<std::pair<std::string, double>> steps_;
};

TEST_F(CalibrationWorker, ReturnsWhatTheWorkerMeasuredAndReportsProgress) {
  Calibration c = run("ok");
  expect_same(c, sample("Fake GPU", 4272));
  EXPECT_EQ(read_file(dir_ / "args"), "calibrate --device 2 --message-fd 3\n");
  ASSERT_EQ(steps_.size(), 2u) << "lines that are not progress messages are ignored";
  EXPECT_EQ(steps_[0].first, "copy bandwidth");
  EXPECT_EQ(steps_[0].second, 0.0);
  EXPECT_EQ(steps_[1].first, "SGEMM FP32");
  EXPECT_EQ(steps_[1].second, 0.5);
}

TEST_F(CalibrationWorker, EmptyProgressCallbackIsAllowed) {
  ScopedEnv env("FAKE_SCENARIO", std::string("ok"));
  EXPECT_TRUE(judge::run_calibration(worker_, 0, nullptr).plausible());
}

TEST_F(CalibrationWorker, FatalMessageBecomesTheError) {
  EXPECT_CONTAINS(error_of("fatal"), "cublasCreate failed: CUBLAS_STATUS_NOT_INITIALIZED");
}

TEST_F(CalibrationWorker, CrashNamesTheSignalTheStepAndTheOutput) {
  std::string e = error_of("segv");
  EXPECT_CONTAINS(e, "SIGSEGV");
  EXPECT_CONTAINS(e, "copy bandwidth");
  EXPECT_CONTAINS(e, "cuda says boom");
  EXPECT_CONTAINS(e, worker_.string());
}

TEST_F(CalibrationWorker, ExitWithoutACalibrationIsAnError) {
  EXPECT_CONTAINS(error_of("silent"), "without reporting a calibration");
}

TEST_F(CalibrationWorker, ImplausibleFiguresAreRejected) { EXPECT_CONTAINS(error_of("zero"), "implausible"); }

TEST_F(CalibrationWorker, HangIsKilledWithItsProcessGroup) {
  auto t0 = std::chrono::steady_clock::now();
  std::string e = error_of("hang", 1.0);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_CONTAINS(e, "killed");
  EXPECT_LT(took, 15.0);
  pid_t pid = std::stoi(read_file(dir_ / "pid"));
  for (int i = 0; i < 50 && kill(pid, 0) == 0; ++i) usleep(100000);
  EXPECT_NE(kill(pid, 0), 0) << "the worker's child survived";
}

TEST_F(CalibrationWorker, MissingWorkerIsAnErrorNamingIt) {
  try {
    judge::run_calibration(dir_ / "no-such-worker", 0, nullptr);
    ADD_FAILURE() << "no error";
  } catch (const judge::Error& e) {
    EXPECT_CONTAINS(e.what(), "no-such-worker");
  }
}

// ---- auto-calibration ----

judge::DeviceInfo fake_device(int ordinal = 0) {
  judge::DeviceInfo d;
  d.name = "Fake GPU";
  d.ordinal = ordinal;
  return d;
}

TEST_F(CalibrationWorker, EnsureMeasuresOnceThenUsesTheStore) {
  fs::path file = dir_ / "store" / "calibration.json";
  ScopedEnv cal("JUDGE_CALIBRATION", file.string());
  ScopedEnv scenario("FAKE_SCENARIO", std::string("ok"));
  judge::DeviceInfo device = fake_device(1);

  std::ostringstream progress;
  Calibration first = judge::ensure_calibration(worker_, device, true, progress);
  EXPECT_TRUE(first.plausible());
  EXPECT_EQ(runs(), 1);
  EXPECT_EQ(read_file(dir_ / "args"), "calibrate --device 1 --message-fd 3\n");
  EXPECT_CONTAINS(progress.str(), "calibrating Fake GPU");
  EXPECT_CONTAINS(progress.str(), "\r[");
  EXPECT_CONTAINS(progress.str(), "SGEMM FP32");
  ASSERT_TRUE(CalibrationStore(file).find("Fake GPU"));

  std::ostringstream quiet;
  Calibration second = judge::ensure_calibration(worker_, device, true, quiet);
  EXPECT_EQ(runs(), 1) << "a stored calibration is not measured again";
  EXPECT_EQ(quiet.str(), "");
  expect_same(second, first);
}

TEST_F(CalibrationWorker, EnsureWithoutProgressPrintsNothing) {
  ScopedEnv cal("JUDGE_CALIBRATION", (dir_ / "calibration.json").string());
  ScopedEnv scenario("FAKE_SCENARIO", std::string("ok"));
  judge::DeviceInfo device = fake_device();
  std::ostringstream out;
  EXPECT_TRUE(judge::ensure_calibration(worker_, device, false, out).plausible());
  EXPECT_EQ(out.str(), "");
}

TEST_F(CalibrationWorker, EnsureMeasuresAgainOverAnImplausibleEntry) {
  fs::path file = dir_ / "calibration.json";
  Calibration broken = sample("Fake GPU");
  broken.bf16_gflops = 0;
  CalibrationStore(file).save(broken);
  ScopedEnv cal("JUDGE_CALIBRATION", file.string());
  ScopedEnv scenario("FAKE_SCENARIO", std::string("ok"));
  judge::DeviceInfo device = fake_device();
  std::ostringstream out;
  EXPECT_TRUE(judge::ensure_calibration(worker_, device, false, out).plausible());
  EXPECT_EQ(runs(), 1);
  EXPECT_TRUE(CalibrationStore(file).find("Fake GPU")->plausible());
}

TEST_F(CalibrationWorker, EnsureReturnsTheMeasurementWhenItCannotBeStored) {
  write_file(dir_ / "not-a-dir", "x");
  ScopedEnv cal("JUDGE_CALIBRATION", (dir_ / "not-a-dir" / "calibration.json").string());
  ScopedEnv scenario("FAKE_SCENARIO", std::string("ok"));
  judge::DeviceInfo device = fake_device();
  std::ostringstream out;
  Calibration c = judge::ensure_calibration(worker_, device, true, out);
  EXPECT_TRUE(c.plausible());
  EXPECT_CONTAINS(out.str(), "not stored");
}

TEST_F(CalibrationWorker, EnsurePassesTheWorkersErrorOn) {
  ScopedEnv cal("JUDGE_CALIBRATION", (dir_ / "calibration.json").string());
  ScopedEnv scenario("FAKE_SCENARIO", std::string("fatal"));
  judge::DeviceInfo device = fake_device();
  std::ostringstream out;
  EXPECT_THROW(judge::ensure_calibration(worker_, device, false, out), judge::Error);
  EXPECT_FALSE(fs::exists(dir_ / "calibration.json"));
}

// ---- reports ----

TEST(CalibrationReport, ConsoleTable) {
  std::ostringstream out;
  judge::make_console_reporter(false)->calibration(sample("NVIDIA H200"), false, "/data/calibration.json", out);
  std::string s = out.str();
  EXPECT_CONTAINS(s, "NVIDIA H200");
  EXPECT_CONTAINS(s, "132 SMs");
  EXPECT_CONTAINS(s, "4272 GB/s");
  EXPECT_CONTAINS(s, "60000 GFLOP/s");
  EXPECT_CONTAINS(s, "51.3 TFLOP/s");
  EXPECT_CONTAINS(s, "372.0 TFLOP/s");
  EXPECT_CONTAINS(s, "700.0 TFLOP/s");
  EXPECT_CONTAINS(s, "690.0 TFLOP/s");
  EXPECT_CONTAINS(s, "2026-11-21T10:00:00Z");
  EXPECT_CONTAINS(s, "/data/calibration.json");
  EXPECT_CONTAINS(s, "--force");
  EXPECT_EQ(s.find("\x1b["), std::string::npos);

  std::ostringstream now;
  judge::make_console_reporter(false)->calibration(sample(), true, "/data/calibration.json", now);
  EXPECT_CONTAINS(now.str(), "just now");
}

TEST(CalibrationReport, JsonDocument) {
  std::ostringstream out;
  judge::make_json_reporter()->calibration(sample(), true, "/data/calibration.json", out);
  json j = json::parse(out.str());
  EXPECT_EQ(j.at("measured_now"), true);
  EXPECT_EQ(j.at("stored_in"), "/data/calibration.json");
  expect_same(j.at("calibration").get<Calibration>(), sample());
}

// ---- `judge calibrate` ----

class CalibrateCli : public CalibrationWorker {
 protected:
  judge::testing::CommandResult judge(std::vector<std::string> args) {
    args.insert(args.begin(), judge::testing::cli_path().string());
    return judge::testing::run_command(args, env_, 120);
  }
  json parse(const judge::testing::CommandResult& r) {
    json j = json::parse(r.output, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << "not one JSON document:\n" << r.output;
    return j;
  }

  fs::path store_ = dir_ / "data" / "calibration.json";
  std::map<std::string, std::string> env_{{"JUDGE_WORKER", (dir_ / "fake-worker").string()},
                                          {"JUDGE_CALIBRATION", store_.string()},
                                          {"JUDGE_DB", (dir_ / "data" / "leaderboard.sqlite").string()},
                                          {"FAKE_SCENARIO", "ok"}};
};

TEST_F(CalibrateCli, MeasuresOnceStoresAndThenPrintsTheStoredFigures) {
  auto r = judge({"calibrate", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  json j = parse(r);
  EXPECT_EQ(j.at("measured_now"), true);
  EXPECT_EQ(j.at("stored_in"), store_.string());
  EXPECT_DOUBLE_EQ(j.at("calibration").at("copy_gbps").get<double>(), 4272);
  EXPECT_EQ(runs(), 1);
  ASSERT_TRUE(CalibrationStore(store_).find("Fake GPU"));

  r = judge({"calibrate", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(parse(r).at("measured_now"), false);
  EXPECT_EQ(runs(), 1) << "the stored calibration was measured again";

  r = judge({"calibrate"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_CONTAINS(r.output, "Fake GPU");
  EXPECT_CONTAINS(r.output, "4272 GB/s");
  EXPECT_CONTAINS(r.output, store_.string());
  EXPECT_EQ(r.output.find('\r'), std::string::npos) << "no progress line when stderr is not a terminal";
  EXPECT_EQ(runs(), 1);

  r = judge({"calibrate", "--force", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(parse(r).at("measured_now"), true);
  EXPECT_EQ(runs(), 2);
}

TEST_F(CalibrateCli, DeviceFlagReachesTheWorker) {
  auto r = judge({"calibrate", "--device", "0", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_file(dir_ / "args"), "calibrate --device 0 --message-fd 3\n");
  r = judge({"calibrate", "--device", "3", "--json"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_CONTAINS(parse(r).value("error", ""), "no CUDA device 3");
}

TEST_F(CalibrateCli, NoDeviceIsAnError) {
  env_["FAKE_NO_DEVICE"] = "1";
  auto r = judge({"calibrate", "--json"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_CONTAINS(parse(r).value("error", ""), "no CUDA device");
  EXPECT_EQ(runs(), 0);
}

TEST_F(CalibrateCli, WorkerFailureIsAnErrorAndNothingIsStored) {
  env_["FAKE_SCENARIO"] = "segv";
  auto r = judge({"calibrate"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_CONTAINS(r.output, "SIGSEGV");
  EXPECT_FALSE(fs::exists(store_));
}

TEST_F(CalibrateCli, CorruptStoreIsNamed) {
  write_file(store_, "{ not json");
  auto r = judge({"calibrate", "--json"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_CONTAINS(parse(r).value("error", ""), store_.string());
  r = judge({"calibrate", "--force", "--json"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(runs(), 0) << "the store is checked before minutes of measuring, not after";
  EXPECT_EQ(read_file(store_), "{ not json");
}

}  // namespace
