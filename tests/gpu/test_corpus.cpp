// Every file of tests/corpus gets the verdict its header names, through the real CLI and worker on the GPU. The
// header is the file's leading `//` lines:
//
//   // expect: VERDICT              required; `a|b` accepts either (for races that may surface one of two ways)
//   // expect-message: fragment     optional; must occur in the report's message
//   // judge-args: --timeout 2      optional; extra arguments for the judge
//   // judge-command: submit        optional; `run` (default: tests only) or `submit` (tests + timed benchmarks,
//                                   then the leaderboard is checked: a row for an accepted run, none otherwise)
//   // expect-timer: cupti-concurrent  optional, submit only; every benchmark must have been timed with this timer
//                                   (when the run used CUPTI at all)
//
// Each entry prints one line, `corpus: <entry> expected=<..> got=<..> <seconds>s`, from which the corpus table is
// built, and records its wall time as the test property "seconds".
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "judge/core/result.hpp"
#include "judge/core/spec.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::testing::TempDir;
using nlohmann::json;

// Slack on top of the per-call timeout for everything else a judge call does: compiling, creating the context,
// generating inputs, the reference, timing the benchmarks.
constexpr double kSlackSeconds = 60;

struct Entry {
  fs::path file;
  std::string challenge;
  std::string expect_text;          // as written, e.g. "output_not_written|suspicious_timing"
  std::vector<std::string> expect;  // the alternatives
  std::string message;
  std::vector<std::string> args;
  std::string command = "run";
  bool has_command = false;
  std::string timer;

  std::string id() const { return challenge + "/" + file.filename().string(); }
  bool accepts(const std::string& verdict) const {
    return std::find(expect.begin(), expect.end(), verdict) != expect.end();
  }
};

void PrintTo(const Entry& e, std::ostream* os) { *os << e.file.string(); }

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split_alternatives(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, '|');) out.push_back(trim(part));
  return out;
}

Entry parse_entry(const fs::path& file, const std::string& challenge) {
  Entry e;
  e.file = file;
  e.challenge = challenge;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line) && line.rfind("//", 0) == 0) {
    auto value = [&](const std::string& key) { return trim(line.substr(key.size())); };
    if (line.rfind("// expect: ", 0) == 0) {
      e.expect_text = value("// expect: ");
      e.expect = split_alternatives(e.expect_text);
    }
    if (line.rfind("// expect-message: ", 0) == 0) e.message = value("// expect-message: ");
    if (line.rfind("// judge-args: ", 0) == 0) {
      std::istringstream ss(value("// judge-args: "));
      for (std::string a; ss >> a;) e.args.push_back(a);
    }
    if (line.rfind("// expect-timer: ", 0) == 0) e.timer = value("// expect-timer: ");
    if (line.rfind("// judge-command: ", 0) == 0) {
      e.command = value("// judge-command: ");
      e.has_command = true;
    }
  }
  return e;
}

std::vector<Entry> corpus() {
  std::vector<Entry> out;
  fs::path root = judge::testing::source_dir() / "tests" / "corpus";
  for (const auto& dir : fs::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path())) {
      if (f.path().extension() != ".cu") continue;
      out.push_back(parse_entry(f.path(), dir.path().filename().string()));
    }
  }
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.file < b.file; });
  return out;
}

// The limit of one solve() call for this entry: `--timeout S` among its arguments, else the challenge's.
double call_timeout_s(const Entry& e) {
  for (std::size_t i = 0; i < e.args.size(); ++i) {
    if (e.args[i] == "--timeout" && i + 1 < e.args.size()) return std::stod(e.args[i + 1]);
    if (e.args[i].rfind("--timeout=", 0) == 0) return std::stod(e.args[i].substr(10));
  }
  return judge::load_challenge(judge::testing::challenges_dir() / e.challenge).timeout_s;
}

// Rows of every leaderboard of the challenge in the database of `env`.
std::vector<json> leaderboard_rows(const std::string& challenge, const std::map<std::string, std::string>& env,
                                   std::string& raw) {
  auto lb = judge::testing::run_command({judge::testing::cli_path().string(), "--json", "leaderboard", challenge},
                                        env, 60);
  raw = lb.output;
  std::vector<json> rows;
  json board = json::parse(lb.output, nullptr, false);
  if (board.is_discarded() || !board.contains("leaderboards")) return {json{{"unreadable", lb.output}}};
  for (const auto& view : board["leaderboards"])
    for (const auto& row : view.value("ranking", json::array())) rows.push_back(row);
  return rows;
}

// Runs on every machine: a corpus file without a well-formed header would otherwise only be noticed on a GPU.
TEST(CorpusHeaders, EveryFileNamesKnownVerdicts) {
  auto entries = corpus();
  ASSERT_FALSE(entries.empty());
  for (const Entry& e : entries) {
    SCOPED_TRACE(e.file.string());
    if (e.expect.empty()) {
      ADD_FAILURE() << e.file << " has no `// expect:` line in its leading comment";
      continue;
    }
    for (const auto& v : e.expect) {
      EXPECT_TRUE(judge::parse_verdict(v).has_value()) << e.file << ": `" << v << "` is not a verdict";
      EXPECT_NE(v, "not_run") << e.file;
    }
    EXPECT_TRUE(e.command == "run" || e.command == "submit")
        << e.file << ": judge-command must be run or submit, not `" << e.command << "`";
    if (!e.timer.empty()) {
      EXPECT_EQ(e.command, "submit") << e.file << ": expect-timer needs timed benchmarks (judge-command: submit)";
      EXPECT_TRUE(e.timer == "cupti" || e.timer == "cupti-concurrent" || e.timer == "events") << e.file;
    }
    // The must-accept files are named accept_*: such a file may not hedge.
    if (e.file.filename().string().rfind("accept_", 0) == 0)
      EXPECT_EQ(e.expect_text, "accepted") << e.file << " is named accept_* but expects " << e.expect_text;
    EXPECT_TRUE(fs::is_directory(judge::testing::challenges_dir() / e.challenge))
        << e.file << ": the folder must be a challenge id";
  }
}

// The physical-floor check of `judge submit` needs this GPU's calibration, which the judge would otherwise measure
// in every submit entry (it stores it beside JUDGE_DB, a fresh temporary directory per entry). One file in the build
// tree serves every entry and every run instead ($JUDGE_CALIBRATION if set): ctest runs each entry in a process of
// its own, so it must outlive the process. It is keyed by GPU name, so another GPU is simply measured and added.
std::string calibration_file() { return judge::testing::shared_calibration_file(); }

class Corpus : public ::testing::TestWithParam<Entry> {
 public:
  static void SetUpTestSuite() {
    // A stored file that lacks this GPU is fine too: the first submit entry then measures it and adds it.
    if (!judge::testing::gpu_present() || fs::exists(calibration_file())) return;
    auto start = std::chrono::steady_clock::now();
    auto r = judge::testing::run_command({judge::testing::cli_path().string(), "--json", "calibrate"},
                                         {{"JUDGE_CALIBRATION", calibration_file()}}, 600);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "corpus: calibration (" << calibration_file() << ") exit " << r.exit_code << " in " << std::fixed
              << std::setprecision(1) << took << "s" << std::endl;
    if (r.exit_code != 0) std::cout << r.output.substr(0, 4000) << std::endl;
  }
};

TEST_P(Corpus, GetsItsVerdict) {
  JUDGE_REQUIRE_GPU();
  const Entry& e = GetParam();
  ASSERT_FALSE(e.expect.empty()) << e.file << " has no `// expect:` line";
  TempDir tmp;
  std::map<std::string, std::string> env = {{"JUDGE_CACHE_DIR", (tmp / "cache").string()},
                                            {"JUDGE_DB", (tmp / "db.sqlite").string()},
                                            {"JUDGE_CALIBRATION", calibration_file()}};
  std::vector<std::string> argv = {judge::testing::cli_path().string(), "--json", e.command, e.challenge,
                                   e.file.string()};
  if (e.command == "submit")
    argv.insert(argv.end(), {"--name", "corpus", "--budget", "0.5", "--min-samples", "5"});
  argv.insert(argv.end(), e.args.begin(), e.args.end());

  const double limit = call_timeout_s(e) + kSlackSeconds;
  auto start = std::chrono::steady_clock::now();
  auto r = judge::testing::run_command(argv, env, limit + 10);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  auto j = json::parse(r.output, nullptr, false);
  std::string got = j.is_discarded() ? "(no JSON)" : j.value("verdict", "(none)");
  std::ostringstream summary;
  summary << "corpus: " << e.id() << " expected=" << e.expect_text << " got=" << got << " " << std::fixed
          << std::setprecision(1) << took << "s";
  std::cout << summary.str() << std::endl;
  RecordProperty("seconds", std::to_string(took));
  RecordProperty("verdict", got);

  EXPECT_LE(took, limit) << e.id() << ": the judge call took " << took << " s, more than the call timeout + "
                         << kSlackSeconds << " s";
  ASSERT_FALSE(j.is_discarded()) << r.output;
  EXPECT_TRUE(e.accepts(got)) << "expected " << e.expect_text << ", got " << got << "\n"
                              << j.dump(2, ' ', false, json::error_handler_t::replace).substr(0, 8000);
  EXPECT_EQ(r.exit_code, got == "accepted" ? 0 : 1);
  if (!e.message.empty())
    EXPECT_NE(j.value("message", "").find(e.message), std::string::npos)
        << "message lacks `" << e.message << "`: " << j.value("message", "");

  if (!e.timer.empty() && j.value("timer", "") == "cupti") {
    int benchmarks = 0;
    for (const auto& c : j.value("cases", json::array())) {
      if (c.value("kind", "") != "benchmark" || !c.contains("timing")) continue;
      ++benchmarks;
      EXPECT_EQ(c["timing"].value("timer", ""), e.timer) << "benchmark " << c.value("name", "");
    }
    EXPECT_GT(benchmarks, 0) << "no timed benchmark in the report";
  }

  if (e.command == "submit") {
    // The leaderboard keeps accepted runs and nothing else.
    std::string raw;
    auto rows = leaderboard_rows(e.challenge, env, raw);
    if (got == "accepted") {
      EXPECT_TRUE(j.contains("record") && j["record"].value("recorded", false))
          << (j.contains("record") ? j["record"].dump() : "no record in the report");
      ASSERT_EQ(rows.size(), 1u) << "an accepted submission must leave exactly one row: " << raw;
      EXPECT_EQ(rows[0].value("user", ""), "corpus") << raw;
    } else {
      EXPECT_EQ(rows.size(), 0u) << "a rejected submission (" << got << ") left a leaderboard row: " << raw;
    }
  }
}

std::string name_of(const ::testing::TestParamInfo<Entry>& info) {
  std::string n = info.param.challenge + "_" + info.param.file.stem().string();
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Files, Corpus, ::testing::ValuesIn(corpus()), name_of);

}  // namespace
