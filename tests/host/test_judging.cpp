// The judge's side of a run, against a scripted fake worker: every way a worker can end (accepted, a verdict, a
// crash, a hang, exit() inside solve, a flood of output, garbage on the message pipe) becomes the right verdict,
// and the judge itself carries on. Runs without a GPU: the real worker is replaced, the build is real (nvcc).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "judge/core/build/build.hpp"
#include "judge/core/run/judging.hpp"
#include "support/test_support.hpp"

namespace {

using judge::Verdict;
using judge::testing::TempDir;
using judge::testing::write_file;

const char* kSpec = R"({
  "id": "vadd", "title": "t", "difficulty": "easy", "summary": "s",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["N"]},
    {"name": "N", "role": "scalar", "dtype": "int32"}
  ],
  "tolerance": {"atol": 1e-6, "rtol": 1e-6},
  "flops": "N",
  "tests": [{"name": "t1", "scalars": {"N": 7}}, {"name": "t2", "scalars": {"N": 9}}],
  "benchmarks": [{"name": "b1", "scalars": {"N": 1000}}]
})";

// A stand-in for judge-worker: `probe` names a fake GPU, `run` plays the scenario in $FAKE_SCENARIO.
const char* kFakeWorker = R"(#!/bin/bash
if [ "$1" = probe ]; then
  [ -n "${FAKE_PROBELOG:-}" ] && echo probe >> "$FAKE_PROBELOG"
  echo '{"devices":[{"name":"Fake GPU","compute_capability":"7.5","sm_count":2}]}'
  exit 0
fi
send() { printf '%s\n' "$1" >&3; }
ok() { send '{"event":"case_end","result":{"name":"'$1'","kind":"test","verdict":"accepted"}}'; }
send '{"event":"device","device":{"name":"Fake GPU","compute_capability":"7.5"},"timer":"fake"}'
send '{"event":"stage","stage":"load"}'
case "$FAKE_SCENARIO" in
  accept) for c in t1 t2; do send '{"event":"case_begin","case":"'$c'"}'; send '{"event":"call","case":"'$c'","index":0}'; ok $c; done; send '{"event":"done"}' ;;
  wrong) send '{"event":"case_begin","case":"t1"}'; send '{"event":"case_end","result":{"name":"t1","kind":"test","verdict":"wrong_answer","message":"C: 3 of 7 elements wrong"}}'; send '{"event":"done"}' ;;
  segv) send '{"event":"case_begin","case":"t1"}'; ok t1; send '{"event":"case_begin","case":"t2"}'; send '{"event":"call","case":"t2","index":0}'; kill -SEGV $$ ;;
  abort) send '{"event":"case_begin","case":"t1"}'; send '{"event":"call","case":"t1","index":0}'; kill -ABRT $$ ;;
  exit0) send '{"event":"case_begin","case":"t1"}'; send '{"event":"call","case":"t1","index":0}'; exit 0 ;;
  hang) send '{"event":"case_begin","case":"t1"}'; send '{"event":"call","case":"t1","index":0}'; sleep 1000 & echo $! > "$FAKE_PIDFILE"; wait ;;
  garbage) echo 'not json' >&3; send '[1,2]'; send '{"no":"event"}'; for c in t1 t2; do send '{"event":"case_begin","case":"'$c'"}'; ok $c; done; send '{"event":"done"}' ;;
  flood) head -c 5000000 /dev/zero | tr '\0' 'x'; for c in t1 t2; do ok $c; done; send '{"event":"done"}' ;;
  nodevice) send '{"event":"fatal","verdict":"no_device","message":"no CUDA device is present"}'; exit 2 ;;
  keepjob) cp "$3" "$FAKE_JOBCOPY"; for c in t1 t2; do send '{"event":"case_begin","case":"'$c'"}'; ok $c; done; send '{"event":"done"}' ;;
  segv_at_exit) for c in t1 t2; do send '{"event":"case_begin","case":"'$c'"}'; ok $c; done; kill -SEGV $$ ;;
  short) send '{"event":"case_begin","case":"t1"}'; ok t1; send '{"event":"done"}' ;;
  bycase)
    # Plays the job's own case lists: each case as $FAKE_CASE_<name> says (ok, wrong or segv), the stress cases
    # ("stress_tests") only when every graded one passed, and logs the lists ("t1 t2 then s1 s2 s3").
    job=$3
    list() { tr -d ' \n' < "$job" | sed -n 's/.*"'$1'":\[\([^]]*\)\].*/\1/p' | tr -d '"' | tr ',' ' '; }
    tests=$(list tests); stress=$(list stress_tests)
    echo "${tests:-none}${stress:+ then $stress}" >> "$FAKE_JOBLOG"
    # With $FAKE_LOCKLOG: the graded cases and the stress cases each hold the GPU lock, at made-up times 1-2, 3-4,
    # ..., the second after waiting for another judge.
    hold() {
      [ -n "${FAKE_LOCKLOG:-}" ] || return 0
      t=$(cat "$FAKE_LOCKLOG" 2>/dev/null || echo 0)
      [ "$t" -gt 0 ] && send '{"event":"gpu_wait","holder":"judge submit by someone, pid 1"}'
      send '{"event":"gpu_lock","at":'$((t + 1))',"waited_s":0.5}'
    }
    release() {
      [ -n "${FAKE_LOCKLOG:-}" ] || return 0
      send '{"event":"gpu_release","at":'$((t + 2))'}'; echo $((t + 2)) > "$FAKE_LOCKLOG"
    }
    failed=0
    play() {
      for c in "$@"; do
        send '{"event":"case_begin","case":"'$c'"}'; send '{"event":"call","case":"'$c'","index":0}'
        how=$(printenv "FAKE_CASE_$c" || echo ok)
        case "$how" in
          ok) ok $c ;;
          wrong) failed=1; send '{"event":"case_end","result":{"name":"'$c'","kind":"test","verdict":"wrong_answer","message":"C: 1 of 9 elements wrong"}}' ;;
          segv) kill -SEGV $$ ;;
          diebetween) ok $c; kill -SEGV $$ ;;
        esac
      done
    }
    hold; play $tests; release
    [ -n "${FAKE_IGNORE_FAILURE:-}" ] && failed=0
    if [ "$failed" = 0 ] && [ -n "$stress" ]; then hold; play $stress; release; fi
    send '{"event":"done"}' ;;
esac
)";

const char* kSource = R"(#include <cuda_runtime.h>
extern "C" void solve(const float* A, float* C, int N) {}
)";

class Judging : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      judge::find_nvcc();
    } catch (const judge::Error& e) {
      GTEST_SKIP() << "nvcc is not installed here: " << e.what();
    }
    challenge_ = judge::parse_challenge(kSpec, (dir_ / "vadd" / "spec.json").string());
    challenge_.dir = dir_.path() / "vadd";
    write_file(dir_ / "fake-worker", kFakeWorker);
    std::filesystem::permissions(dir_ / "fake-worker", std::filesystem::perms::owner_all);
    write_file(dir_ / "solve.cu", kSource);
  }

  judge::JudgeReport run(const std::string& scenario, double timeout_s = 5) {
    setenv("FAKE_SCENARIO", scenario.c_str(), 1);
    setenv("FAKE_PIDFILE", (dir_ / "pid").c_str(), 1);
    judge::JudgeOptions o;
    o.timeout_s = timeout_s;
    o.cache_dir = dir_.path() / "cache";
    o.worker = dir_.path() / "fake-worker";
    return judge::judge_submission(challenge_, dir_ / "solve.cu", o);
  }

  TempDir dir_;
  judge::Challenge challenge_;
};

// A probe is a worker start: a judge asks once per process (calibration, then the submission; every submission of a
// batch), unless it asks for a fresh look.
TEST_F(Judging, ThePlainProbeIsRememberedAndTheFreshOneIsNot) {
  const auto log = dir_ / "probes.log";
  setenv("FAKE_PROBELOG", log.c_str(), 1);
  const auto worker = dir_.path() / "fake-worker";
  auto count = [&] {
    std::string text = judge::testing::read_file(log);
    return std::count(text.begin(), text.end(), '\n');
  };
  EXPECT_EQ(judge::probe_devices(worker).devices.size(), 1u);
  EXPECT_EQ(judge::probe_devices(worker).devices.size(), 1u);
  EXPECT_EQ(count(), 1) << "the second probe was answered from memory";
  EXPECT_EQ(judge::probe_devices_now(worker).devices.at(0).name, "Fake GPU");
  EXPECT_EQ(count(), 2);
  run("accept");
  EXPECT_EQ(count(), 2) << "judging probes no more once the GPUs are known";
  unsetenv("FAKE_PROBELOG");
}

// `--under-tool`: a tool that runs the judge must be let into the solver, as a tool that runs the worker is.
TEST_F(Judging, UnderAToolTheJobAsksForAToolFriendlySolver) {
  setenv("FAKE_JOBCOPY", (dir_ / "job.json").c_str(), 1);
  for (bool under : {false, true}) {
    setenv("FAKE_SCENARIO", "keepjob", 1);
    judge::JudgeOptions o;
    o.timeout_s = 5;
    o.under_tool = under;
    o.cache_dir = dir_.path() / "cache";
    o.worker = dir_.path() / "fake-worker";
    auto r = judge::judge_submission(challenge_, dir_ / "solve.cu", o);
    EXPECT_EQ(r.verdict, Verdict::accepted) << r.message;
    auto job = nlohmann::json::parse(judge::testing::read_file(dir_ / "job.json"));
    EXPECT_EQ(job.value("tool", false), under) << job.dump();
  }
  unsetenv("FAKE_JOBCOPY");
}

// judge-probe beside the worker answers the probe (without the worker's libraries); without it the worker does.
TEST_F(Judging, TheLightProbeBesideTheWorkerAnswersFirst) {
  const auto worker = dir_.path() / "fake-worker";
  EXPECT_EQ(judge::probe_devices_now(worker).devices.at(0).name, "Fake GPU");
  write_file(dir_ / "judge-probe", "#!/bin/sh\necho '{\"devices\":[{\"name\":\"Light GPU\",\"compute_capability\":\"9.0\",\"sm_count\":2}]}'\n");
  std::filesystem::permissions(dir_ / "judge-probe", std::filesystem::perms::owner_all);
  EXPECT_EQ(judge::probe_devices_now(worker).devices.at(0).name, "Light GPU");
}

TEST_F(Judging, AllCasesAcceptedIsAccepted) {
  auto r = run("accept");
  EXPECT_EQ(r.verdict, Verdict::accepted) << r.message;
  ASSERT_EQ(r.cases.size(), 2u);
  ASSERT_TRUE(r.device);
  EXPECT_EQ(r.device->name, "Fake GPU");
  EXPECT_TRUE(r.build.ok);
}

TEST_F(Judging, FirstFailingCaseGivesTheVerdict) {
  auto r = run("wrong");
  EXPECT_EQ(r.verdict, Verdict::wrong_answer);
  EXPECT_EQ(r.failed_case, "t1");
  EXPECT_EQ(r.message, "C: 3 of 7 elements wrong");
}

TEST_F(Judging, CrashNamesTheSignalAndTheCase) {
  auto r = run("segv");
  EXPECT_EQ(r.verdict, Verdict::crashed);
  EXPECT_EQ(r.failed_case, "t2");
  EXPECT_NE(r.message.find("SIGSEGV"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("t2"), std::string::npos) << r.message;
}

TEST_F(Judging, AbortIsACrash) {
  auto r = run("abort");
  EXPECT_EQ(r.verdict, Verdict::crashed);
  EXPECT_NE(r.message.find("SIGABRT"), std::string::npos) << r.message;
}

TEST_F(Judging, ExitInsideSolveIsACrashNotASuccess) {
  auto r = run("exit0");
  EXPECT_EQ(r.verdict, Verdict::crashed);
  EXPECT_NE(r.message.find("exit()"), std::string::npos) << r.message;
}

TEST_F(Judging, HangIsATimeoutAndTheWholeGroupIsKilled) {
  auto t0 = std::chrono::steady_clock::now();
  auto r = run("hang", 1.0);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.verdict, Verdict::timeout);
  EXPECT_EQ(r.failed_case, "t1");
  EXPECT_LT(took, 15.0) << "the timeout was 1 s";
  // The grandchild (sleep) was in the worker's process group: it must be gone too.
  pid_t pid = std::stoi(judge::testing::read_file(dir_ / "pid"));
  for (int i = 0; i < 50 && kill(pid, 0) == 0; ++i) usleep(100000);
  EXPECT_NE(kill(pid, 0), 0) << "the worker's child survived";
}

TEST_F(Judging, GarbageOnTheMessagePipeIsIgnored) {
  auto r = run("garbage");
  EXPECT_EQ(r.verdict, Verdict::accepted) << r.message;
}

TEST_F(Judging, OutputFloodIsBoundedAndCounted) {
  auto r = run("flood");
  EXPECT_EQ(r.verdict, Verdict::accepted) << r.message;
  EXPECT_LE(r.output.size(), 64u * 1024u);
  EXPECT_GT(r.output_dropped, 4000000u);
}

TEST_F(Judging, NoDeviceIsReported) {
  auto r = run("nodevice");
  EXPECT_EQ(r.verdict, Verdict::no_device);
  EXPECT_FALSE(r.accepted());
}

TEST_F(Judging, AWorkerThatSkipsCasesIsNotAccepted) {
  auto r = run("short");
  EXPECT_EQ(r.verdict, Verdict::internal_error);
  EXPECT_NE(r.message.find("1 of 2"), std::string::npos) << r.message;
}

TEST_F(Judging, CompileErrorStopsBeforeTheWorker) {
  write_file(dir_ / "solve.cu", "int x = ;\n");
  auto r = run("accept");
  EXPECT_EQ(r.verdict, Verdict::compile_error);
  EXPECT_TRUE(r.cases.empty());
  EXPECT_NE(r.build.diagnostics.find("solve.cu(1)"), std::string::npos) << r.build.diagnostics;
}

// Stress cases, against the same fake worker playing each job's case list: t1 and t2 graded, s1..s3 past the
// statement's N <= 1000 (run mode: tests only).
class StressJudging : public Judging {
 protected:
  void SetUp() override {
    Judging::SetUp();
    if (IsSkipped()) return;
    auto spec = nlohmann::json::parse(kSpec);
    spec["constraints"] = {"N <= 1000"};
    for (const char* name : {"s1", "s2", "s3"})
      spec["tests"].push_back({{"name", name}, {"stress", true}, {"scalars", {{"N", 5000}}}});
    challenge_ = judge::parse_challenge(spec.dump(), (dir_ / "vadd" / "spec.json").string());
    challenge_.dir = dir_.path() / "vadd";
    setenv("FAKE_JOBLOG", (dir_ / "jobs.log").c_str(), 1);
  }
  void TearDown() override {
    for (const char* name : {"t1", "t2", "s1", "s2", "s3"}) unsetenv((std::string("FAKE_CASE_") + name).c_str());
  }
  judge::JudgeReport run_with(std::map<std::string, std::string> behaviour, bool strict = false,
                              std::vector<std::string> cases = {}) {
    for (const auto& [name, how] : behaviour) setenv(("FAKE_CASE_" + name).c_str(), how.c_str(), 1);
    setenv("FAKE_SCENARIO", "bycase", 1);
    judge::JudgeOptions o;
    o.timeout_s = 5;
    o.strict = strict;
    o.cases = std::move(cases);
    o.cache_dir = dir_.path() / "cache";
    o.worker = dir_.path() / "fake-worker";
    return judge::judge_submission(challenge_, dir_ / "solve.cu", o);
  }
  std::vector<std::string> jobs() const {
    std::vector<std::string> lines;
    std::istringstream in(judge::testing::read_file(dir_ / "jobs.log"));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  const judge::CaseResult* result(const judge::JudgeReport& r, const std::string& name) const {
    for (const auto& c : r.cases)
      if (c.name == name) return &c;
    return nullptr;
  }
};

TEST_F(StressJudging, StressCasesRunAfterTheGradedOnesAndDecideNothing) {
  auto r = run_with({{"s2", "wrong"}});
  EXPECT_EQ(r.verdict, Verdict::accepted) << r.message;
  EXPECT_EQ(jobs(), (std::vector<std::string>{"t1 t2 then s1 s2 s3"})) << "one worker goes on to the stress cases";
  ASSERT_EQ(r.cases.size(), 5u);
  EXPECT_FALSE(r.cases[0].stress);
  const auto* s2 = result(r, "s2");
  ASSERT_NE(s2, nullptr);
  EXPECT_TRUE(s2->stress);
  EXPECT_EQ(s2->verdict, Verdict::wrong_answer);
  EXPECT_EQ(s2->beyond, "N = 5000 is past the statement's N <= 1000");
  ASSERT_NE(result(r, "s3"), nullptr);
  EXPECT_EQ(result(r, "s3")->verdict, Verdict::accepted) << "a stress failure does not stop the others";
  EXPECT_TRUE(r.failed_case.empty());
}

// The graded cases' benchmarks and the stress cases' each hold the GPU lock (the worker lets it go while the stress
// cases' functional tests run); another judge may time in between. The report keeps both holds (tests compare them
// across judges: none may overlap another judge's), and a wait at the second hold still counts as a wait, naming
// whom it waited for.
TEST_F(StressJudging, EachWorkersHoldOfTheGpuIsReportedAndAWaitAtAnyOfThemCounts) {
  setenv("FAKE_LOCKLOG", (dir_ / "lock.log").c_str(), 1);
  auto r = run_with({});
  unsetenv("FAKE_LOCKLOG");
  EXPECT_EQ(r.verdict, Verdict::accepted) << r.message;
  ASSERT_TRUE(r.gpu_lock);
  EXPECT_EQ(r.gpu_lock->holds, (std::vector<std::pair<double, double>>{{1, 2}, {3, 4}}));
  EXPECT_EQ(r.gpu_lock->start_s, 1);
  EXPECT_EQ(r.gpu_lock->end_s, 4);
  EXPECT_TRUE(r.gpu_lock->waited);
  EXPECT_EQ(r.gpu_lock->waited_for, "judge submit by someone, pid 1");
  EXPECT_DOUBLE_EQ(r.gpu_lock->waited_s, 1.0);
  const auto j = judge::to_json(r);
  EXPECT_EQ(j["gpu_lock"]["holds_s"].dump(), "[[1.0,2.0],[3.0,4.0]]");
}

TEST_F(StressJudging, AStressCaseThatKillsItsWorkerGetsItsVerdictAndAFreshWorkerGoesOn) {
  auto r = run_with({{"s1", "segv"}, {"s3", "wrong"}});
  EXPECT_EQ(r.verdict, Verdict::accepted) << r.message;
  EXPECT_EQ(jobs(), (std::vector<std::string>{"t1 t2 then s1 s2 s3", "s2 s3"}));
  ASSERT_NE(result(r, "s1"), nullptr);
  EXPECT_EQ(result(r, "s1")->verdict, Verdict::crashed);
  EXPECT_NE(result(r, "s1")->message.find("SIGSEGV"), std::string::npos) << result(r, "s1")->message;
  ASSERT_NE(result(r, "s2"), nullptr);
  EXPECT_EQ(result(r, "s2")->verdict, Verdict::accepted);
  ASSERT_NE(result(r, "s3"), nullptr);
  EXPECT_EQ(result(r, "s3")->verdict, Verdict::wrong_answer);
  EXPECT_EQ(r.cases.size(), 5u);
}

// The worker dies after a stress case it reported and before the next: that next case takes the verdict, a fresh worker
// goes on, and the graded verdict stays accepted.
TEST_F(StressJudging, AWorkerThatDiesBetweenTwoStressCasesChargesTheNextOne) {
  auto r = run_with({{"s1", "diebetween"}});
  EXPECT_EQ(r.verdict, Verdict::accepted) << r.message;
  EXPECT_EQ(jobs(), (std::vector<std::string>{"t1 t2 then s1 s2 s3", "s3"}));
  ASSERT_EQ(r.cases.size(), 5u);
  EXPECT_EQ(result(r, "s1")->verdict, Verdict::accepted);
  ASSERT_NE(result(r, "s2"), nullptr);
  EXPECT_EQ(result(r, "s2")->verdict, Verdict::crashed);
  EXPECT_NE(result(r, "s2")->message.find("SIGSEGV"), std::string::npos) << result(r, "s2")->message;
  EXPECT_EQ(result(r, "s3")->verdict, Verdict::accepted);
  EXPECT_TRUE(r.failed_case.empty());
}

// Without stress cases, a worker that dies after the last graded case it reported is still the graded verdict.
TEST_F(Judging, AWorkerThatDiesAfterItsLastCaseIsCrashed) {
  auto r = run("segv_at_exit");
  EXPECT_EQ(r.verdict, Verdict::crashed) << r.message;
  EXPECT_EQ(r.cases.size(), 2u);
}

TEST_F(StressJudging, AGradedFailureLeavesTheStressCasesUnrun) {
  auto r = run_with({{"t2", "wrong"}});
  EXPECT_EQ(r.verdict, Verdict::wrong_answer);
  EXPECT_EQ(r.failed_case, "t2");
  EXPECT_EQ(jobs(), (std::vector<std::string>{"t1 t2 then s1 s2 s3"})) << "one worker, told to stop at a failure";
  ASSERT_EQ(r.cases.size(), 2u) << "the worker went on to a stress case after a graded failure";
  for (const auto& c : r.cases) EXPECT_FALSE(c.stress) << c.name;
}

// A worker that plays the stress cases although a graded case failed (a bug, or not our worker): what it reported of
// them is dropped, and the verdict is the graded failure's.
TEST_F(StressJudging, StressResultsAfterAGradedFailureAreDropped) {
  setenv("FAKE_IGNORE_FAILURE", "1", 1);
  auto r = run_with({{"t1", "wrong"}, {"s1", "segv"}});
  unsetenv("FAKE_IGNORE_FAILURE");
  EXPECT_EQ(r.verdict, Verdict::wrong_answer) << r.message;
  EXPECT_EQ(r.failed_case, "t1");
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[0].name, "t1");
  EXPECT_EQ(r.cases[1].name, "t2");
}

TEST_F(StressJudging, StrictMakesStressCasesDecideTheVerdict) {
  auto r = run_with({{"s2", "wrong"}}, true);
  EXPECT_TRUE(r.strict);
  EXPECT_EQ(r.verdict, Verdict::wrong_answer);
  EXPECT_EQ(r.failed_case, "s2");
  EXPECT_EQ(jobs(), (std::vector<std::string>{"t1 t2 s1 s2 s3"}));
}

TEST_F(StressJudging, AStressCaseNamedWithCaseDecides) {
  auto r = run_with({{"s2", "wrong"}}, false, {"s2"});
  EXPECT_EQ(r.verdict, Verdict::wrong_answer) << "the replay of a stress failure fails as the case did";
  EXPECT_EQ(jobs(), (std::vector<std::string>{"s2"}));
}

TEST(Score, GeometricMeanOfBenchmarkMedians) {
  std::vector<judge::CaseResult> cases(3);
  cases[0].kind = "test";
  cases[1].kind = cases[2].kind = "benchmark";
  cases[1].timing = judge::Timing{};
  cases[1].timing->median_ms = 2;
  cases[2].timing = judge::Timing{};
  cases[2].timing->median_ms = 8;
  EXPECT_DOUBLE_EQ(judge::score_of(cases), 4.0);
  // A stress benchmark never counts, however slow (or missing) its time.
  judge::CaseResult stress = cases[2];
  stress.stress = true;
  stress.timing->median_ms = 1000;
  cases.push_back(stress);
  EXPECT_DOUBLE_EQ(judge::score_of(cases), 4.0);
  cases.back().timing.reset();
  EXPECT_DOUBLE_EQ(judge::score_of(cases), 4.0);
  cases[2].timing.reset();
  EXPECT_DOUBLE_EQ(judge::score_of(cases), 0.0);
}

}  // namespace

namespace {

judge::CaseResult timed_case(double flops, double bytes, double median_ms) {
  judge::CaseResult c;
  c.name = "b";
  c.kind = "benchmark";
  c.verdict = judge::Verdict::accepted;
  c.flops = flops;
  c.bytes = bytes;
  c.timing = judge::Timing{};
  c.timing->median_ms = median_ms;
  return c;
}

judge::Calibration h200_like() {
  judge::Calibration cal;
  cal.copy_gbps = 4000;         // 4 GB per ms
  cal.fp32_fma_gflops = 60000;  // 60 GFLOP per ms
  cal.sgemm_gflops = 50000;
  cal.tf32_gflops = 400000;
  cal.fp16_gflops = 780000;
  cal.bf16_gflops = 780000;
  cal.int8_gops = 1560000;
  return cal;
}

TEST(SpeedOfLight, MemoryBoundCaseGetsItsShare) {
  std::vector<judge::CaseResult> cases = {timed_case(1e6, 4e9, 2.0)};  // floor 1 ms
  judge::apply_speed_of_light(cases, h200_like());
  EXPECT_EQ(cases[0].verdict, judge::Verdict::accepted);
  EXPECT_NEAR(cases[0].sol_floor_ms, 1.0, 1e-9);
  EXPECT_NEAR(cases[0].sol_percent, 50.0, 1e-9);
  EXPECT_EQ(cases[0].sol_bound, "memory");
}

TEST(SpeedOfLight, FasterThanTheMemoryCanMoveTheBytesIsSuspicious) {
  std::vector<judge::CaseResult> cases = {timed_case(0, 4e9, 0.5)};  // floor 1 ms
  judge::apply_speed_of_light(cases, h200_like());
  EXPECT_EQ(cases[0].verdict, judge::Verdict::suspicious_timing);
  EXPECT_NE(cases[0].message.find("faster than physically possible"), std::string::npos) << cases[0].message;
}

TEST(SpeedOfLight, TensorCoreSpeedIsNotSuspiciousButExceedsFp32Sol) {
  // 120 GFLOP in 1 ms: twice the FP32 FMA rate, well within the tensor cores'.
  std::vector<judge::CaseResult> cases = {timed_case(120e9, 1e6, 1.0)};
  judge::apply_speed_of_light(cases, h200_like());
  EXPECT_EQ(cases[0].verdict, judge::Verdict::accepted);
  EXPECT_EQ(cases[0].sol_bound, "compute");
  EXPECT_NEAR(cases[0].sol_percent, 200.0, 1e-6);
  // 2000 GFLOP in 1 ms is beyond every unit of the chip (INT8 tensor cores included).
  cases = {timed_case(2000e9, 1e6, 1.0)};
  judge::apply_speed_of_light(cases, h200_like());
  EXPECT_EQ(cases[0].verdict, judge::Verdict::suspicious_timing);
}

TEST(SpeedOfLight, HalfPrecisionWorkIsMeasuredAgainstTheTensorCores) {
  // A half-precision GEMM at 585 GFLOP per ms: 975% of the FP32 FMA rate, 75% of the FP16 tensor-core rate.
  const judge::Calibration cal = h200_like();
  double roof = judge::compute_roof_gflops(cal, {judge::DType::float16, judge::DType::float16});
  EXPECT_DOUBLE_EQ(roof, cal.fp16_gflops);
  EXPECT_DOUBLE_EQ(judge::compute_roof_gflops(cal, {judge::DType::bfloat16}), cal.bf16_gflops);
  EXPECT_DOUBLE_EQ(judge::compute_roof_gflops(cal, {judge::DType::int8, judge::DType::int8}), cal.int8_gops);
  EXPECT_DOUBLE_EQ(judge::compute_roof_gflops(cal, {judge::DType::float32, judge::DType::int32}), cal.fp32_fma_gflops);
  std::vector<judge::CaseResult> cases = {timed_case(585e9, 1e6, 1.0)};
  judge::apply_speed_of_light(cases, cal, roof);
  EXPECT_EQ(cases[0].verdict, judge::Verdict::accepted);
  EXPECT_NEAR(cases[0].sol_percent, 75.0, 1e-6);
  // Without a tensor-core rate measured, the FP32 roof stays.
  judge::Calibration no_fp16 = cal;
  no_fp16.fp16_gflops = 0;
  EXPECT_DOUBLE_EQ(judge::compute_roof_gflops(no_fp16, {judge::DType::float16}), cal.fp32_fma_gflops);
}

}  // namespace
