// The `judge` executable as a user meets it: subcommands, exit codes (0 ok/accepted, 1 rejected, 2 error), human
// and --json output, and errors that name the file or id involved. Every run gets its own database, cache and home
// directory, and a challenge written here (not the repository's), so nothing outside the test is read or written.
// End to end with a scripted fake worker (no GPU needed; the build uses the real nvcc), and with the real worker on
// a machine without a GPU.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/core/build/build.hpp"
#include "judge/core/store/leaderboard.hpp"
#include "support/test_support.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using judge::testing::read_file;
using judge::testing::TempDir;
using judge::testing::write_file;
using nlohmann::json;

const char* kSpec = R"({
  "id": "vadd", "title": "Vector Add One", "difficulty": "easy", "summary": "C = A + 1",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["N"]},
    {"name": "N", "role": "scalar", "dtype": "int32"}
  ],
  "tolerance": {"atol": 1e-6, "rtol": 1e-6},
  "flops": "N",
  "tests": [{"name": "t1", "scalars": {"N": 7}, "note": "odd size"}, {"name": "t2", "scalars": {"N": 9}}],
  "benchmarks": [{"name": "b1", "scalars": {"N": 1000}}, {"name": "b2", "scalars": {"N": 4000}}]
})";

const char* kStarter = R"(#include <cuda_runtime.h>
// starter for vadd
extern "C" void solve(const float* A, float* C, int N) {}
)";

// A stand-in for judge-worker. `probe` names a fake GPU; `run --job FILE --message-fd 3` reads the cases from the
// job file and plays $FAKE_SCENARIO: accept (every test accepted, every benchmark timed at 2 ms), wrong (the first
// test is a wrong answer) or late (the tests pass, the first benchmark's 4th call is a wrong answer). $FAKE_JOB_COPY,
// when set, receives a copy of the job file; $FAKE_TIMER_WARNING, when set, is sent as the timer's warning;
// $FAKE_NOTICE, when set, as a notice (the worker's word for "the leak watch reads device-wide memory").
const char* kFakeWorker = R"(#!/bin/bash
if [ "$1" = probe ]; then
  echo '{"devices":[{"name":"Fake GPU","compute_capability":"9.0","sm_count":2}]}'
  exit 0
fi
job="$3"
[ -n "$FAKE_JOB_COPY" ] && cp "$job" "$FAKE_JOB_COPY"
names() { python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))[sys.argv[2]]))' "$job" "$1"; }
tests=$(names tests) || exit 3
benchmarks=$(names benchmarks) || exit 3
send() { printf '%s\n' "$1" >&3; }
send '{"event":"device","device":{"name":"Fake GPU","compute_capability":"9.0"},"timer":"fake"}'
send '{"event":"protections","protections":[{"name":"uid drop","on":true,"why":"as 65534"},{"name":"seccomp","on":false,"why":"fake: no filter here"}]}'
[ -n "$FAKE_TIMER_WARNING" ] && send '{"event":"timer","timer":"events","warning":"'"$FAKE_TIMER_WARNING"'"}'
[ -n "$FAKE_NOTICE" ] && send '{"event":"notice","notice":"'"$FAKE_NOTICE"'"}'
if [ "$FAKE_SCENARIO" = wrong ]; then
  c=${tests%% *}
  send '{"event":"case_begin","case":"'$c'"}'
  send '{"event":"case_end","result":{"name":"'$c'","kind":"test","verdict":"wrong_answer","message":"C: 3 of 7 elements wrong"}}'
  send '{"event":"done"}'
  exit 0
fi
for c in $tests; do
  send '{"event":"case_begin","case":"'$c'"}'
  send '{"event":"call","case":"'$c'","index":0}'
  send '{"event":"case_end","result":{"name":"'$c'","kind":"test","verdict":"accepted"}}'
done
if [ "$FAKE_SCENARIO" = late ]; then
  c=${benchmarks%% *}
  send '{"event":"case_begin","case":"'$c'","kind":"benchmark"}'
  for i in 0 1 2 3; do send '{"event":"call","case":"'$c'","index":'$i'}'; done
  send '{"event":"case_end","result":{"name":"'$c'","kind":"benchmark","verdict":"wrong_answer","failed_call":4,"message":"call 4: C: 1 of 1000 elements wrong"}}'
  send '{"event":"done"}'
  exit 0
fi
for c in $benchmarks; do
  send '{"event":"case_begin","case":"'$c'"}'
  send '{"event":"case_end","result":{"name":"'$c'","kind":"benchmark","verdict":"accepted","flops":1000,"bytes":8000,"timing":{"timer":"fake","samples":10,"median_ms":2.0,"min_ms":1.9,"max_ms":2.2,"mean_ms":2.0,"noise_pct":0.5,"converged":true}}}'
done
send '{"event":"done"}'
)";

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
  std::string all() const { return out + err; }
};

std::ostream& operator<<(std::ostream& os, const CliResult& r) {
  return os << "exit " << r.code << "\n--- stdout ---\n" << r.out << "--- stderr ---\n" << r.err;
}

#define EXPECT_CONTAINS(haystack, needle, result) \
  EXPECT_NE((haystack).find(needle), std::string::npos) << "missing \"" << (needle) << "\"\n" << (result)

// Environment variables the judge reads; the tests set them, never inherit them.
bool judge_owned(const std::string& name) {
  for (const char* prefix : {"JUDGE_", "XDG_"})
    if (name.rfind(prefix, 0) == 0) return true;
  return name == "HOME" || name == "NO_COLOR" || name == "USER";
}

class Cli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { shared_cache_ = new TempDir; }  // builds are cached by content across tests
  static void TearDownTestSuite() {
    delete shared_cache_;
    shared_cache_ = nullptr;
  }

  void SetUp() override {
    root_ = dir_.path() / "challenges";
    write_file(root_ / "vadd" / "spec.json", kSpec);
    write_file(root_ / "vadd" / "statement.md", "Add one to every element of A.\n");
    write_file(root_ / "vadd" / "starter.cu", kStarter);
    write_file(dir_ / "fake-worker", kFakeWorker);
    fs::permissions(dir_ / "fake-worker", fs::perms::owner_all);
    write_file(dir_ / "solve.cu", kStarter);
    db_ = dir_.path() / "data" / "leaderboard.sqlite";
    env_ = {{"JUDGE_DB", db_.string()},
            {"JUDGE_CACHE_DIR", (shared_cache_->path() / "cache").string()},
            {"HOME", (dir_ / "home").string()},
            {"XDG_DATA_HOME", (dir_ / "xdg-data").string()},
            {"XDG_CACHE_HOME", (dir_ / "xdg-cache").string()},
            {"XDG_CONFIG_HOME", (dir_ / "xdg-config").string()},
            {"JUDGE_USER", "tester"},
            {"JUDGE_WORKER", (dir_ / "fake-worker").string()},
            {"FAKE_SCENARIO", "accept"}};
  }

  void require_nvcc() {
    try {
      judge::find_nvcc();
    } catch (const judge::Error& e) {
      GTEST_SKIP() << "nvcc is not installed here: " << e.what();
    }
  }

  // Runs `judge --challenges <root> args...` (or exactly args when with_root is false) with env_, stdout and stderr
  // captured separately. A run that takes more than 5 minutes is killed and fails the test.
  CliResult judge(const std::vector<std::string>& args, bool with_root = true) {
    std::vector<std::string> argv{judge::testing::cli_path().string()};
    if (with_root) argv.insert(argv.end(), {"--challenges", root_.string()});
    argv.insert(argv.end(), args.begin(), args.end());

    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
      std::string kv = *e;
      if (!judge_owned(kv.substr(0, kv.find('=')))) env.push_back(kv);
    }
    for (const auto& [k, v] : env_) env.push_back(k + "=" + v);

    fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    auto cstrs = [](std::vector<std::string>& v) {
      std::vector<char*> p;
      for (auto& s : v) p.push_back(s.data());
      p.push_back(nullptr);
      return p;
    };
    std::vector<char*> cargv = cstrs(argv), cenv = cstrs(env);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), cenv.data());
    posix_spawn_file_actions_destroy(&actions);
    CliResult r;
    if (rc != 0) {
      ADD_FAILURE() << "cannot start " << argv[0] << ": " << std::strerror(rc);
      return r;
    }
    int status = 0;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        ADD_FAILURE() << "judge did not finish within 5 minutes";
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
  }

  // stdout parsed as exactly one JSON document.
  static json parse(const CliResult& r) {
    json j = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(j.is_discarded()) << "stdout is not one JSON document\n" << r;
    return j;
  }

  static inline TempDir* shared_cache_ = nullptr;
  TempDir dir_;
  fs::path root_;
  fs::path db_;
  std::map<std::string, std::string> env_;
};

const std::string kEsc = "\x1b[";

// ---- list ----

TEST_F(Cli, ListHuman) {
  auto r = judge({"list"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "vadd", r);
  EXPECT_CONTAINS(r.out, "easy", r);
  EXPECT_CONTAINS(r.out, "C = A + 1", r);
  EXPECT_EQ(r.out.find(kEsc), std::string::npos) << "stdout is not a terminal: no colour by default\n" << r;
}

TEST_F(Cli, ListJson) {
  auto r = judge({"list", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  json j = parse(r);
  ASSERT_EQ(j.at("challenges").size(), 1u) << r;
  EXPECT_EQ(j["challenges"][0].at("id"), "vadd");
  EXPECT_EQ(j["challenges"][0].at("difficulty"), "easy");
  EXPECT_EQ(j["challenges"][0].at("signature"), "extern \"C\" void solve(const float* A, float* C, int N)");
}

TEST_F(Cli, GlobalFlagsWorkBeforeTheSubcommandToo) {
  auto r = judge({"--json", "list"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(parse(r).at("challenges").size(), 1u);
}

TEST_F(Cli, ListWithABrokenSpecListsItAndExits2) {
  write_file(root_ / "broken" / "spec.json", "{ not json");
  auto r = judge({"list", "--json"});
  EXPECT_EQ(r.code, 2) << r;
  json j = parse(r);
  ASSERT_EQ(j.at("challenges").size(), 2u) << r;
  EXPECT_EQ(j["challenges"][0].at("id"), "broken");
  EXPECT_CONTAINS(j["challenges"][0].at("error").get<std::string>(), "broken/spec.json", r);
  EXPECT_FALSE(j["challenges"][1].contains("error"));

  r = judge({"list"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.out, "broken spec", r);
  EXPECT_CONTAINS(r.out, "vadd", r);
}

TEST_F(Cli, ColorAlwaysAndNever) {
  auto always = judge({"list", "--color=always"});
  EXPECT_EQ(always.code, 0) << always;
  EXPECT_CONTAINS(always.out, kEsc, always);

  env_["NO_COLOR"] = "1";  // --color=always wins over NO_COLOR
  always = judge({"--color", "always", "list"});
  EXPECT_CONTAINS(always.out, kEsc, always);

  auto never = judge({"list", "--color=never"});
  EXPECT_EQ(never.code, 0) << never;
  EXPECT_EQ(never.out.find(kEsc), std::string::npos) << never;
  EXPECT_CONTAINS(never.out, "vadd", never);
}

TEST_F(Cli, BadColorValueIsAUsageError) {
  auto r = judge({"list", "--color=sometimes"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.all(), "--color", r);
}

TEST_F(Cli, ChallengesFromTheEnvironment) {
  env_["JUDGE_CHALLENGES"] = root_.string();
  auto r = judge({"list", "--json"}, /*with_root=*/false);
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(parse(r).at("challenges").size(), 1u) << r;
}

TEST_F(Cli, MissingChallengesDirectory) {
  auto missing = (dir_ / "nowhere").string();
  auto r = judge({"--challenges", missing, "list"}, /*with_root=*/false);
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, missing, r);
  EXPECT_CONTAINS(r.err, "--challenges", r);
}

// The repository's challenges are required content: each must load.
TEST_F(Cli, RepositoryChallengesAllLoad) {
  fs::path dir = judge::testing::challenges_dir();
  auto r = judge({"--challenges", dir.string(), "list", "--json"}, /*with_root=*/false);
  json j = parse(r);
  ASSERT_TRUE(j.contains("challenges")) << r;
  ASSERT_FALSE(j["challenges"].empty()) << dir << " has no challenge folders (a folder with a spec.json): the "
                                        << "challenges are required content of this repository";
  for (const auto& c : j["challenges"])
    EXPECT_FALSE(c.contains("error")) << c.value("id", "?") << ": " << c.value("error", "");
  EXPECT_EQ(r.code, 0) << r;
}

// ---- show ----

TEST_F(Cli, ShowHuman) {
  auto r = judge({"show", "vadd"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "Vector Add One (easy)", r);
  EXPECT_CONTAINS(r.out, "signature\n  extern \"C\" void solve(const float* A, float* C, int N)\n", r);
  EXPECT_CONTAINS(r.out, "Add one to every element of A.", r);
  EXPECT_CONTAINS(r.out, "t1", r);
  EXPECT_CONTAINS(r.out, "odd size", r);
  EXPECT_CONTAINS(r.out, "b2", r);
}

TEST_F(Cli, ShowJson) {
  auto r = judge({"show", "vadd", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  json j = parse(r);
  EXPECT_EQ(j.at("id"), "vadd");
  ASSERT_EQ(j.at("params").size(), 3u);
  EXPECT_EQ(j["params"][0].at("name"), "A");
  EXPECT_EQ(j["params"][2].at("role"), "scalar");
  ASSERT_EQ(j.at("tests").size(), 2u);
  EXPECT_EQ(j["tests"][0].at("name"), "t1");
  ASSERT_EQ(j.at("benchmarks").size(), 2u);
  EXPECT_EQ(j["benchmarks"][1].at("scalars").at("N"), 4000);
  EXPECT_DOUBLE_EQ(j.at("tolerance").at("atol").get<double>(), 1e-6);
  EXPECT_EQ(j.at("statement"), "Add one to every element of A.\n");
}

TEST_F(Cli, ShowWithoutStatementSaysSo) {
  fs::remove(root_ / "vadd" / "statement.md");
  auto r = judge({"show", "vadd"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "no statement.md", r);
}

TEST_F(Cli, UnknownChallengeSuggests) {
  auto r = judge({"show", "vad"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "there is no challenge 'vad'", r);
  EXPECT_CONTAINS(r.err, "did you mean vadd", r);
  EXPECT_TRUE(r.out.empty()) << "human errors go to stderr\n" << r;
}

TEST_F(Cli, JsonErrorsAreAJsonObjectOnStdout) {
  auto r = judge({"--json", "show", "vad"});
  EXPECT_EQ(r.code, 2) << r;
  json j = parse(r);
  ASSERT_TRUE(j.is_object()) << r;
  EXPECT_CONTAINS(j.at("error").get<std::string>(), "did you mean vadd", r);

  r = judge({"--json", "list", "--no-such-flag"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_TRUE(parse(r).contains("error")) << r;
}

// ---- usage errors ----

TEST_F(Cli, UnknownFlagIsAUsageError) {
  auto r = judge({"list", "--no-such-flag"});
  // Regression: CLI11's own codes (109 here) leaked out; the README promises 2 for bad input.
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "--no-such-flag", r);
  EXPECT_CONTAINS(r.err, "--help", r);
}

TEST_F(Cli, NoSubcommandIsAUsageError) {
  auto r = judge({});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.all(), "subcommand", r);
}

TEST_F(Cli, HelpExitsZero) {
  auto r = judge({"--help"});
  EXPECT_EQ(r.code, 0) << r;
  for (const char* sub : {"list", "show", "init", "run", "submit", "leaderboard", "report"}) EXPECT_CONTAINS(r.out, sub, r);
}

TEST_F(Cli, RunOnAMissingFileNamesIt) {
  auto missing = (dir_ / "missing.cu").string();
  auto r = judge({"run", "vadd", missing});
  EXPECT_EQ(r.code, 2) << "bad input, not a rejected submission (1)\n" << r;
  EXPECT_CONTAINS(r.err, missing, r);
}

// ---- init ----

TEST_F(Cli, InitWritesTheStarterAndRefusesToOverwrite) {
  auto target = dir_ / "work" / "mine.cu";
  auto r = judge({"init", "vadd", target.string()});
  EXPECT_EQ(r.code, 0) << r;
  ASSERT_TRUE(fs::exists(target)) << r;
  EXPECT_EQ(read_file(target), kStarter);
  EXPECT_CONTAINS(r.out, target.string(), r);
  EXPECT_CONTAINS(r.out, "judge run vadd", r);

  write_file(target, "my work\n");
  r = judge({"init", "vadd", target.string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, target.string(), r);
  EXPECT_CONTAINS(r.err, "--force", r);
  EXPECT_EQ(read_file(target), "my work\n") << "the user's work was overwritten";

  r = judge({"init", "vadd", target.string(), "--force"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(read_file(target), kStarter);
}

TEST_F(Cli, InitJson) {
  auto target = dir_ / "mine.cu";
  auto r = judge({"--json", "init", "vadd", target.string()});
  EXPECT_EQ(r.code, 0) << r;
  json j = parse(r);
  EXPECT_EQ(j.at("challenge"), "vadd");
  EXPECT_EQ(j.at("written"), target.string());
}

TEST_F(Cli, InitWithoutStarterNamesTheMissingFile) {
  fs::remove(root_ / "vadd" / "starter.cu");
  auto r = judge({"init", "vadd", (dir_ / "x.cu").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "starter.cu", r);
  EXPECT_FALSE(fs::exists(dir_ / "x.cu"));
}

// ---- leaderboard ----

TEST_F(Cli, LeaderboardOnAnEmptyDatabase) {
  auto r = judge({"leaderboard", "vadd", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(parse(r).at("leaderboards"), json::array()) << r;

  r = judge({"leaderboard", "vadd"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "no accepted submissions yet", r);
}

TEST_F(Cli, LeaderboardWithoutAChallengeOnAnEmptyDatabaseSaysSo) {
  auto r = judge({"leaderboard"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "no accepted submissions yet in " + db_.string(), r);
  EXPECT_EQ(r.all().find("challenge is required"), std::string::npos) << r;

  r = judge({"leaderboard", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  json j = parse(r);
  EXPECT_EQ(j.at("overview"), json::array()) << r;
  EXPECT_EQ(j.at("database"), db_.string());
}

TEST_F(Cli, LeaderboardWithoutAChallengeShowsEachLeader) {
  {
    judge::Leaderboard board(db_);
    judge::SubmissionRecord s;
    s.compute_capability = "9.0";
    s.source = "x";
    for (auto [challenge, gpu, user, score] :
         {std::tuple{"vadd", "GPU One", "alice", 2.0}, std::tuple{"vadd", "GPU One", "bob", 1.5},
          std::tuple{"vadd", "GPU One", "bob", 3.0}, std::tuple{"vadd", "GPU Two", "carol", 9.0},
          std::tuple{"matmul", "GPU One", "dave", 0.25}}) {
      s.challenge = challenge;
      s.gpu_name = gpu;
      s.user = user;
      s.score_ms = score;
      board.record(s);
    }
  }
  auto r = judge({"leaderboard"});
  EXPECT_EQ(r.code, 0) << r;
  // One line per challenge and GPU: the leader, the leader's score, how many users.
  auto line_with = [&](const std::string& a, const std::string& b) {
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);)
      if (line.find(a) != std::string::npos && line.find(b) != std::string::npos) return line;
    return std::string();
  };
  std::string vadd_one = line_with("vadd", "GPU One");
  EXPECT_CONTAINS(vadd_one, "bob", r);
  EXPECT_CONTAINS(vadd_one, "1.5 ms", r);
  EXPECT_CONTAINS(line_with("vadd", "GPU Two"), "carol", r);
  EXPECT_CONTAINS(line_with("matmul", "GPU One"), "dave", r);

  r = judge({"leaderboard", "--json"});
  json rows = parse(r).at("overview");
  ASSERT_EQ(rows.size(), 3u) << r;
  EXPECT_EQ(rows[1].at("challenge"), "vadd");
  EXPECT_EQ(rows[1].at("gpu"), "GPU One");
  EXPECT_EQ(rows[1].at("leader"), "bob");
  EXPECT_EQ(rows[1].at("users"), 2);
  EXPECT_EQ(rows[1].at("submissions"), 3);

  r = judge({"leaderboard", "--gpu", "GPU Two", "--json"});
  rows = parse(r).at("overview");
  ASSERT_EQ(rows.size(), 1u) << r;
  EXPECT_EQ(rows[0].at("leader"), "carol");
}

TEST_F(Cli, LeaderboardOfAnUnknownChallengeSuggests) {
  auto r = judge({"leaderboard", "vaddd"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "did you mean vadd", r);
}

TEST_F(Cli, CorruptDatabaseNamesItsPath) {
  write_file(db_, std::string(4096, 'x') + "this is not an SQLite database\n");
  auto r = judge({"leaderboard", "vadd"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, db_.string(), r);

  r = judge({"leaderboard", "vadd", "--json"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(parse(r).value("error", ""), db_.string(), r);
}

TEST_F(Cli, DbFlagWinsOverTheEnvironment) {
  write_file(db_, "garbage garbage garbage");  // JUDGE_DB points at garbage; --db at a fresh file
  auto other = dir_ / "other.sqlite";
  auto r = judge({"leaderboard", "vadd", "--db", other.string(), "--json"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(parse(r).at("leaderboards"), json::array());
}

// ---- report ----

TEST_F(Cli, ReportWithoutADatabaseNamesItAndCreatesNothing) {
  auto r = judge({"report", "-o", (dir_ / "r.html").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "there is no leaderboard at " + db_.string(), r);
  EXPECT_FALSE(fs::exists(db_)) << "a report must not create the database";
  EXPECT_FALSE(fs::exists(dir_ / "r.html"));
}

TEST_F(Cli, ReportOfAnEmptyDatabaseSaysSo) {
  { judge::Leaderboard board(db_); }
  auto r = judge({"report", "-o", (dir_ / "r.html").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, db_.string() + " has no accepted submissions yet", r);
  r = judge({"--json", "report", "-o", (dir_ / "r.html").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(parse(r).value("error", ""), "no accepted submissions", r);
  EXPECT_FALSE(fs::exists(dir_ / "r.html"));
}

TEST_F(Cli, ReportOfACorruptDatabaseNamesIt) {
  write_file(db_, std::string(4096, 'x'));
  auto r = judge({"report", "-o", (dir_ / "r.html").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, db_.string(), r);
}

TEST_F(Cli, ReportWritesOnePage) {
  {
    judge::Leaderboard board(db_);
    judge::SubmissionRecord s;
    s.challenge = "vadd";
    s.gpu_name = "GPU One";
    s.compute_capability = "9.0";
    s.source = "x";
    for (auto [user, ms] : {std::tuple{"alice", 2.0}, std::tuple{"<b>bob</b>", 1.0}}) {
      s.user = user;
      s.score_ms = ms;
      s.cases = {{"b1", ms, ms, 0.1, 10, 0.5 / ms, 4 / ms, 1.5}, {"b2", ms, ms, 0.1, 10, 2 / ms, 16 / ms, 1.5}};
      board.record(s);
    }
  }
  const fs::path page = dir_ / "out" / "report.html";
  fs::create_directories(page.parent_path());
  auto r = judge({"report", "--challenge", "vadd", "-o", page.string()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "wrote " + page.string() + ": 2 submissions, 1 challenge, 1 GPU", r);
  EXPECT_CONTAINS(r.out, "no roofs: no calibration of GPU One", r);
  const std::string html = read_file(page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_CONTAINS(html, "Vector Add One", r);
  EXPECT_CONTAINS(html, "&lt;b&gt;bob&lt;/b&gt;", r);
  EXPECT_EQ(html.find("<b>bob"), std::string::npos);

  r = judge({"--json", "report", "--gpu", "GPU One", "-o", page.string()});
  EXPECT_EQ(r.code, 0) << r;
  json j = parse(r);
  EXPECT_EQ(j.at("written"), page.string());
  EXPECT_EQ(j.at("submissions"), 2);
  ASSERT_EQ(j.at("boards").size(), 1u);
  EXPECT_EQ(j["boards"][0].at("roofs"), false);

  r = judge({"report", "--gpu", "GPU Two", "-o", page.string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "no accepted submissions on GPU Two", r);
  r = judge({"report", "--challenge", "vaddd", "-o", page.string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "did you mean vadd", r);
}

TEST_F(Cli, ReportShowsResultsSavedBesideAMissingDatabase) {
  judge::SubmissionRecord s;
  s.challenge = "vadd";
  s.user = "carol";
  s.gpu_name = "Fake GPU";
  s.score_ms = 2;
  s.cases = {{"b1", 2, 2, 0.1, 10, 0.5, 4, 0}};
  write_file(db_.parent_path() / "pending" / "vadd-20250101T000000Z-abcdef012345.json", judge::to_json(s).dump());
  auto r = judge({"report", "-o", (dir_ / "r.html").string()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(read_file(dir_ / "r.html"), "Saved, not in the database", r);
  EXPECT_FALSE(fs::exists(db_));
}

TEST_F(Cli, ReportToAnUnwritableFileNamesIt) {
  judge::SubmissionRecord s;
  s.challenge = "vadd";
  s.user = "a";
  s.gpu_name = "G";
  s.score_ms = 1;
  judge::Leaderboard(db_).record(s);
  const fs::path page = dir_ / "no-such-dir" / "r.html";
  auto r = judge({"report", "-o", page.string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "cannot write the report " + page.string(), r);
}

// ---- run and submit, end to end with the fake worker ----

TEST_F(Cli, SubmitAcceptedIsRecordedAndRanked) {
  require_nvcc();
  auto r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "alice"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "✓ Accepted · score 2 ms", r);
  EXPECT_CONTAINS(r.out, "recorded as submission #1", r);
  EXPECT_CONTAINS(r.out, "(rank 1 of 1 on this GPU when recorded)", r);
  EXPECT_TRUE(fs::exists(db_)) << "JUDGE_DB was not used";

  r = judge({"leaderboard", "vadd", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  json j = parse(r);
  ASSERT_EQ(j.at("leaderboards").size(), 1u) << r;
  EXPECT_EQ(j["leaderboards"][0].at("gpu"), "Fake GPU");
  const json& ranking = j["leaderboards"][0].at("ranking");
  ASSERT_EQ(ranking.size(), 1u) << r;
  EXPECT_EQ(ranking[0].at("user"), "alice");
  EXPECT_EQ(ranking[0].at("rank"), 1);
  EXPECT_DOUBLE_EQ(ranking[0].at("score_ms").get<double>(), 2.0);

  r = judge({"leaderboard", "vadd"});
  EXPECT_CONTAINS(r.out, "vadd on Fake GPU", r);
  EXPECT_CONTAINS(r.out, "alice", r);
}

TEST_F(Cli, SubmitJsonAndTheDefaultName) {
  require_nvcc();
  auto r = judge({"--json", "submit", "vadd", (dir_ / "solve.cu").string()});
  EXPECT_EQ(r.code, 0) << r;
  json j = parse(r);
  EXPECT_EQ(j.at("verdict"), "accepted");
  EXPECT_EQ(j.at("mode"), "submit");
  EXPECT_DOUBLE_EQ(j.at("score_ms").get<double>(), 2.0);
  ASSERT_EQ(j.at("cases").size(), 4u) << r;
  EXPECT_EQ(j["cases"][2].at("kind"), "benchmark");
  EXPECT_EQ(j.at("record").at("recorded"), true) << r;
  EXPECT_EQ(j.at("record").at("database"), db_.string());

  r = judge({"leaderboard", "vadd", "--json"});
  json b = parse(r);
  ASSERT_EQ(b.at("leaderboards").size(), 1u) << r;
  EXPECT_EQ(b["leaderboards"][0]["ranking"][0].at("user"), "tester") << "JUDGE_USER names the user";
}

// What kept the submission in its sandbox travels with the result: the worker's list and the compile sandbox, in
// --json, on the console and in the leaderboard's row.
TEST_F(Cli, SubmitRecordsItsProtections) {
  require_nvcc();
  auto r = judge({"--json", "submit", "vadd", (dir_ / "solve.cu").string(), "--name", "carol"});
  ASSERT_EQ(r.code, 0) << r;
  json j = parse(r);
  std::map<std::string, bool> on;
  for (const auto& p : j.at("protections")) on[p.at("name").get<std::string>()] = p.at("on").get<bool>();
  ASSERT_TRUE(on.count("compile sandbox")) << j.at("protections");
  EXPECT_TRUE(on.count("uid drop") && on["uid drop"]) << j.at("protections");
  EXPECT_TRUE(on.count("seccomp") && !on["seccomp"]) << j.at("protections");

  auto id = j.at("record").at("submission_id").get<std::int64_t>();
  judge::Leaderboard board(db_, judge::Leaderboard::Access::read_only);
  auto row = board.get(id);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->protections.size(), j.at("protections").size());

  r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "carol"});
  EXPECT_CONTAINS(r.out, "sandbox:", r);
  EXPECT_CONTAINS(r.out, "off: seccomp (fake: no filter here)", r);
}

// Under --under-tool the solver runs without its sandbox (a profiler must get in): solve() could reach the leaderboard
// itself, so the run is judged and timed but never recorded, and says so.
TEST_F(Cli, SubmitUnderAToolIsJudgedButNotRecorded) {
  require_nvcc();
  auto r = judge({"--json", "submit", "vadd", (dir_ / "solve.cu").string(), "--name", "dave", "--under-tool"});
  EXPECT_EQ(r.code, 0) << r;
  json j = parse(r);
  EXPECT_EQ(j.at("verdict"), "accepted");
  EXPECT_EQ(j.at("record").at("recorded"), false) << r;
  EXPECT_NE(j["record"].at("error").get<std::string>().find("--under-tool ran solve() without its sandbox"),
            std::string::npos)
      << r;
  r = judge({"leaderboard", "vadd", "--json"});
  EXPECT_EQ(parse(r).at("leaderboards"), json::array()) << r;
  EXPECT_FALSE(fs::exists(db_.parent_path() / "pending")) << "nothing of the run is kept for the leaderboard";
}

TEST_F(Cli, SubmitRejectedIsNotRecorded) {
  require_nvcc();
  env_["FAKE_SCENARIO"] = "wrong";
  auto r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "bob"});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_CONTAINS(r.out, "✗ Wrong answer in case t1", r);
  EXPECT_CONTAINS(r.out, "C: 3 of 7 elements wrong", r);
  EXPECT_CONTAINS(r.out, "--case t1", r);
  EXPECT_EQ(r.out.find("recorded"), std::string::npos) << r;

  r = judge({"leaderboard", "vadd", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(parse(r).at("leaderboards"), json::array()) << r;
}

TEST_F(Cli, SubmitIntoACorruptDatabaseKeepsTheResultBesideIt) {
  require_nvcc();
  write_file(db_, std::string(4096, 'x'));
  auto r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "carol"});
  EXPECT_EQ(r.code, 0) << "the submission was accepted; only recording failed\n" << r;
  EXPECT_CONTAINS(r.out, "not recorded: ", r);
  EXPECT_CONTAINS(r.out, db_.string(), r);
  EXPECT_CONTAINS(r.out, "the result was saved to " + (db_.parent_path() / "pending").string(), r);
  ASSERT_TRUE(fs::is_directory(db_.parent_path() / "pending")) << r;
  int saved = 0;
  for (const auto& e : fs::directory_iterator(db_.parent_path() / "pending")) {
    ++saved;
    json s = json::parse(read_file(e.path()));
    EXPECT_EQ(s.at("user"), "carol");
    EXPECT_EQ(s.at("challenge"), "vadd");
  }
  EXPECT_EQ(saved, 1);
}

TEST_F(Cli, RunPassesSeedAndCasesToTheWorker) {
  require_nvcc();
  env_["FAKE_JOB_COPY"] = (dir_ / "job.json").string();
  auto r = judge({"run", "vadd", (dir_ / "solve.cu").string(), "--seed", "77", "--case", "b2"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "seed 77", r);
  json job = json::parse(read_file(dir_ / "job.json"));
  EXPECT_EQ(job.at("seed"), 77);
  EXPECT_EQ(job.at("tests"), json::array({"b2"}));
  EXPECT_EQ(job.at("benchmarks"), json::array());
  EXPECT_FALSE(fs::exists(db_)) << "run never records";
}

TEST_F(Cli, RunPassesTheCallAndLeavesCuptiAloneSubmitTimesWithIt) {
  require_nvcc();
  env_["FAKE_JOB_COPY"] = (dir_ / "job.json").string();
  auto r = judge({"run", "vadd", (dir_ / "solve.cu").string(), "--case", "b2", "--call", "3"});
  EXPECT_EQ(r.code, 0) << r;
  json job = json::parse(read_file(dir_ / "job.json"));
  EXPECT_EQ(job.at("calls"), 3);
  // judge run times nothing, so it never takes CUPTI: Nsight Compute or compute-sanitizer may hold it.
  EXPECT_EQ(job.at("cupti"), false);

  r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "alice"});
  EXPECT_EQ(r.code, 0) << r;
  job = json::parse(read_file(dir_ / "job.json"));
  EXPECT_EQ(job.at("calls"), 1);
  EXPECT_EQ(job.at("cupti"), true);

  r = judge({"run", "vadd", (dir_ / "solve.cu").string(), "--call", "0"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "--call", r);
}

TEST_F(Cli, ALaterCallsFailureIsReplayedWithItsCall) {
  require_nvcc();
  env_["FAKE_SCENARIO"] = "late";
  auto r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "bob"});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_CONTAINS(r.out, "✗ Wrong answer in case b1", r);
  EXPECT_CONTAINS(r.out, "--case b1 --call 4\n", r);

  r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "bob", "--json"});
  json j = parse(r);
  EXPECT_EQ(j.at("failed_case"), "b1");
  EXPECT_EQ(j.at("cases").back().at("failed_call"), 4) << r;
  EXPECT_CONTAINS(j.at("replay").get<std::string>(), "--case b1 --call 4", r);
}

TEST_F(Cli, TimerWarningIsShown) {
  require_nvcc();
  env_["FAKE_TIMER_WARNING"] = "CUPTI failed enabling activity records";
  auto r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "alice"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "warning: CUPTI failed enabling activity records", r);
  EXPECT_CONTAINS(r.out, "timer events", r);
  r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "alice", "--json"});
  EXPECT_EQ(parse(r).at("timer_warning"), "CUPTI failed enabling activity records") << r;
}

TEST_F(Cli, WorkerNoticeIsShownAndChangesNothing) {
  require_nvcc();
  env_["FAKE_NOTICE"] = "the leak watch reads the GPU's free memory: NVML lists none of the solver's processes";
  auto r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "alice"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.all(), "the leak watch reads the GPU's free memory: NVML lists none", r);
  r = judge({"submit", "vadd", (dir_ / "solve.cu").string(), "--name", "bob", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(parse(r).at("verdict"), "accepted") << r;
  EXPECT_EQ(r.out.find("NVML lists none"), std::string::npos) << "a notice is not part of the JSON document\n" << r;
}

TEST_F(Cli, RunWithAnUnknownCaseListsTheCases) {
  require_nvcc();
  auto r = judge({"run", "vadd", (dir_ / "solve.cu").string(), "--case", "t9"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "'t9'", r);
  EXPECT_CONTAINS(r.err, "t1, t2, b1, b2", r);
}

TEST_F(Cli, RunWrongAnswerJson) {
  require_nvcc();
  env_["FAKE_SCENARIO"] = "wrong";
  auto r = judge({"run", "vadd", (dir_ / "solve.cu").string(), "--seed", "5", "--json"});
  EXPECT_EQ(r.code, 1) << r;
  json j = parse(r);
  EXPECT_EQ(j.at("verdict"), "wrong_answer");
  EXPECT_EQ(j.at("accepted"), false);
  EXPECT_EQ(j.at("failed_case"), "t1");
  EXPECT_EQ(j.at("seed"), 5);
  EXPECT_FALSE(j.contains("record"));
}

// ---- profile, under a fake Nsight Compute ----

// A stand-in for ncu. `--import R ...` prints $FAKE_NCU_CSV; otherwise it reads its options up to the first word
// that is not one (the worker's argv), appends its arguments to $FAKE_NCU_CALLS, and then per $FAKE_NCU: ok (writes
// the report and ncu's usual log, runs the worker), perm (logs ERR_NVGPUCTRPERM, runs the worker: ncu does), none
// (logs that no kernel was profiled, runs the worker), broken (rejects an option and never starts the worker) or
// silent (exits without a word).
const char* kFakeNcu = R"(#!/bin/bash
echo "$*" >> "$FAKE_NCU_CALLS"
if [ "$1" = --import ]; then cat "$FAKE_NCU_CSV"; exit 0; fi
report= log=
while [ $# -gt 0 ]; do
  case "$1" in
    --export) report=$2; shift 2 ;;
    --log-file) log=$2; shift 2 ;;
    --target-processes|--nvtx-include|--launch-count|--section) shift 2 ;;
    --nvtx|--force-overwrite) shift ;;
    -*) echo "fake ncu: unknown option $1" >&2; exit 9 ;;
    *) break ;;
  esac
done
case "$FAKE_NCU" in
  perm) echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0. For instructions on enabling permissions and to get more information see https://developer.nvidia.com/ERR_NVGPUCTRPERM' > "$log" ;;
  none) echo '==WARNING== No kernels were profiled.' > "$log" ;;
  broken) echo "==ERROR== unrecognised option '--nvtx-include'" > "$log"; exit 1 ;;
  silent) exit 3 ;;
  *) echo '==PROF== Connected to process 1' > "$log"; echo report > "$report" ;;
esac
exec "$@"
)";

// The raw page of two kernels (see tests/host/test_ncu.cpp for its layout).
const char* kFakeRawPage = R"csv("ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","dram__throughput.avg.pct_of_peak_sustained_elapsed","gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed","gpu__time_duration.sum","launch__block_size","launch__grid_size","launch__registers_per_thread","launch__shared_mem_per_block_dynamic","launch__shared_mem_per_block_static","lts__t_sector_hit_rate.pct","sm__maximum_warps_per_active_cycle_pct","sm__throughput.avg.pct_of_peak_sustained_elapsed","sm__warps_active.avg.pct_of_peak_sustained_active","smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio","smsp__average_warps_issue_stalled_selected_per_issue_active.ratio"
"","","","","","","","","","","","%","%","nsecond","","","register/thread","byte","byte","%","%","%","%","",""
"0","9","judge-worker","h","void add_one<float, 4>(const float *, float *, int)","1","7","(256, 1, 1)","(4, 1, 1)","0","9.0","91.5","92","1,500","256","4","16","0","0","33.3","100","12","85","9","1"
"1","9","judge-worker","h","tail(float *)","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0","1","2","2,000","32","1","8","128","0","n/a","50","3","4","1","1"
)csv";

class Profile : public Cli {
 protected:
  void SetUp() override {
    Cli::SetUp();
    write_file(dir_ / "fake-ncu", kFakeNcu);
    fs::permissions(dir_ / "fake-ncu", fs::perms::owner_all);
    write_file(dir_ / "raw.csv", kFakeRawPage);
    env_["JUDGE_NCU"] = (dir_ / "fake-ncu").string();
    env_["FAKE_NCU_CSV"] = (dir_ / "raw.csv").string();
    env_["FAKE_NCU_CALLS"] = (dir_ / "ncu-calls.txt").string();
    env_["FAKE_JOB_COPY"] = (dir_ / "job.json").string();
  }
  std::string ncu_calls() const { return fs::exists(dir_ / "ncu-calls.txt") ? read_file(dir_ / "ncu-calls.txt") : ""; }
};

TEST_F(Profile, EachKernelSolveLaunchedAndTheReportKept) {
  require_nvcc();
  fs::path out = dir_ / "reports" / "mine";
  fs::create_directories(out.parent_path());
  auto r = judge({"profile", "vadd", (dir_ / "solve.cu").string(), "-o", out.string()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "vadd · " + (dir_ / "solve.cu").string() + " · case b1", r);  // the first benchmark
  EXPECT_CONTAINS(r.out, "2 kernels launched by solve()", r);
  EXPECT_CONTAINS(r.out, "void add_one<float, 4>(const float *, float *, int)", r);
  EXPECT_CONTAINS(r.out, "1.5 µs", r);
  EXPECT_CONTAINS(r.out, "DRAM 91.5% · memory 92.0% · compute (SM) 12.0% of peak → memory-bound", r);
  EXPECT_CONTAINS(r.out, "achieved 85.0% of a theoretical 100.0%", r);
  EXPECT_CONTAINS(r.out, "grid (4, 1, 1) = 4 blocks of (256, 1, 1) = 256 threads; 16 registers/thread", r);
  EXPECT_CONTAINS(r.out, "long scoreboard: waiting for global or local memory (L1TEX) (9 cycles per instruction, "
                         "90% of warp time)", r);
  EXPECT_CONTAINS(r.out, "tail(float *)", r);
  EXPECT_CONTAINS(r.out, "L2 hit rate  n/a", r);
  EXPECT_CONTAINS(r.out, "shared memory 0 B static + 128 B dynamic", r);
  EXPECT_CONTAINS(r.out, "report   " + out.string() + ".ncu-rep", r);
  EXPECT_TRUE(fs::exists(out.string() + ".ncu-rep"));
  // One checked call of b1, untimed (CUPTI left to ncu), the worker under ncu filtered to solve()'s range.
  json job = json::parse(read_file(dir_ / "job.json"));
  EXPECT_EQ(job.at("tests"), json::array({"b1"}));
  EXPECT_EQ(job.at("benchmarks"), json::array());
  EXPECT_EQ(job.at("calls"), 1);
  EXPECT_EQ(job.at("cupti"), false);
  std::string calls = ncu_calls();
  EXPECT_CONTAINS(calls, "--nvtx --nvtx-include judge@solve/", calls);
  EXPECT_CONTAINS(calls, "--export " + out.string() + ".ncu-rep --force-overwrite", calls);
  EXPECT_CONTAINS(calls, (dir_ / "fake-worker").string() + " run --job ", calls);
  EXPECT_CONTAINS(calls, "--import " + out.string() + ".ncu-rep --csv --page raw", calls);
}

TEST_F(Profile, Json) {
  require_nvcc();
  auto r = judge({"--json", "profile", "vadd", (dir_ / "solve.cu").string(), "--case", "t2", "--max-kernels", "2"});
  EXPECT_EQ(r.code, 0) << r;
  json j = parse(r);
  EXPECT_EQ(j.at("case"), "t2");
  EXPECT_EQ(j.at("verdict"), "accepted");
  ASSERT_EQ(j.at("kernels").size(), 2u) << r;
  const json& k = j["kernels"][0];
  EXPECT_EQ(k.at("name"), "void add_one<float, 4>(const float *, float *, int)");
  EXPECT_EQ(k.at("duration_ns"), 1500.0);
  EXPECT_EQ(k.at("dram_throughput_pct"), 91.5);
  EXPECT_EQ(k.at("limiter"), "memory");
  EXPECT_EQ(k.at("top_stalls")[0].at("reason"), "long_scoreboard");
  EXPECT_TRUE(j["kernels"][1].at("l2_hit_rate_pct").is_null());
  EXPECT_EQ(j.at("more_kernels_possible"), true);  // as many kernels as --max-kernels allowed
  fs::path report = j.at("report").get<std::string>();
  EXPECT_EQ(report.filename(), "vadd-t2.ncu-rep");
  EXPECT_TRUE(fs::exists(report)) << report;
  EXPECT_CONTAINS(ncu_calls(), "--launch-count 2", r);
  fs::remove(report);
}

TEST_F(Profile, NoPermissionForTheCountersSaysHowToGetIt) {
  require_nvcc();
  env_["FAKE_NCU"] = "perm";
  auto r = judge({"profile", "vadd", (dir_ / "solve.cu").string(), "-o", (dir_ / "p").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "ERR_NVGPUCTRPERM", r);
  EXPECT_CONTAINS(r.err, "NVreg_RestrictProfilingToAdminUsers=0", r);
  EXPECT_CONTAINS(r.err, "https://developer.nvidia.com/ERR_NVGPUCTRPERM", r);
  EXPECT_EQ(ncu_calls().find("--import"), std::string::npos) << ncu_calls();
}

TEST_F(Profile, WithoutNcuSaysHowToInstallIt) {
  env_["JUDGE_NCU"] = (dir_ / "no-such-ncu").string();
  auto r = judge({"profile", "vadd", (dir_ / "solve.cu").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "JUDGE_NCU is set to " + (dir_ / "no-such-ncu").string(), r);
  r = judge({"--json", "profile", "vadd", (dir_ / "solve.cu").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(parse(r).at("error").get<std::string>(), "Nsight Compute", r);
}

TEST_F(Profile, AnUnknownCaseListsTheCasesBeforeBuilding) {
  auto r = judge({"profile", "vadd", (dir_ / "solve.cu").string(), "--case", "t9"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "no case named 't9'; its cases are: t1, t2, b1, b2", r);
  EXPECT_EQ(ncu_calls(), "");
}

TEST_F(Profile, ARejectedCallShowsItsVerdictAndProfilesNothing) {
  require_nvcc();
  env_["FAKE_SCENARIO"] = "wrong";
  auto r = judge({"profile", "vadd", (dir_ / "solve.cu").string(), "-o", (dir_ / "p.ncu-rep").string()});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_CONTAINS(r.out, "✗ Wrong answer in case b1", r);
  EXPECT_CONTAINS(r.out, "replay: judge run vadd", r);
  EXPECT_EQ(r.out.find("launched by solve()"), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(dir_ / "p.ncu-rep")) << "a wrong answer's report is not kept";
  EXPECT_EQ(ncu_calls().find("--import"), std::string::npos) << ncu_calls();
}

TEST_F(Profile, NoKernelInsideSolve) {
  require_nvcc();
  env_["FAKE_NCU"] = "none";
  auto r = judge({"profile", "vadd", (dir_ / "solve.cu").string(), "-o", (dir_ / "p").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "profiled no kernel inside solve() on case b1", r);
}

TEST_F(Profile, NcuThatCannotStartTheWorkerIsNamed) {
  require_nvcc();
  env_["FAKE_NCU"] = "broken";
  auto r = judge({"profile", "vadd", (dir_ / "solve.cu").string(), "-o", (dir_ / "p").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "did not start the judge's worker", r);
  EXPECT_CONTAINS(r.err, "unrecognised option '--nvtx-include'", r);
  env_["FAKE_NCU"] = "silent";  // not a verdict on the submission either
  r = judge({"profile", "vadd", (dir_ / "solve.cu").string(), "-o", (dir_ / "p").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "did not start the judge's worker", r);
  EXPECT_CONTAINS(r.err, "exited with code 3", r);
}

// ---- run with the real worker, on a machine without a GPU ----

TEST_F(Cli, RunWithoutAGpuSaysSoAfterCompiling) {
  require_nvcc();
  if (judge::testing::gpu_present()) GTEST_SKIP() << "a GPU is present";
  env_["JUDGE_WORKER"] = "";  // the real judge-worker beside judge
  auto r = judge({"run", "vadd", (dir_ / "solve.cu").string()});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_CONTAINS(r.out, "build  ok", r);
  EXPECT_CONTAINS(r.out, "no CUDA device", r);
}

TEST_F(Cli, CompileErrorNamesTheUsersLine) {
  require_nvcc();
  env_["JUDGE_WORKER"] = "";
  auto source = dir_ / "broken.cu";
  write_file(source, "#include <cuda_runtime.h>\nextern \"C\" void solve(const float* A, float* C, int N) {\n"
                     "  int x = undefined_name;\n}\n");
  auto r = judge({"run", "vadd", source.string()});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_CONTAINS(r.out, "Compile error", r);
  EXPECT_CONTAINS(r.out, "broken.cu(3)", r);
  EXPECT_CONTAINS(r.out, "undefined_name", r);

  r = judge({"run", "vadd", source.string(), "--json"});
  EXPECT_EQ(r.code, 1) << r;
  json j = parse(r);
  EXPECT_EQ(j.at("verdict"), "compile_error");
  EXPECT_CONTAINS(j.at("build").at("diagnostics").get<std::string>(), "broken.cu(3)", r);
}

// ---- ladder ----

TEST_F(Cli, LadderJudgesEachRungInOrderAsSubmitDoesAndRecordsNothing) {
  require_nvcc();
  const fs::path subs = dir_ / "subs";
  write_file(subs / "vadd" / "10_second.cu", std::string("// Rung 10: the later one\n") + kStarter);
  write_file(subs / "vadd" / "1_first.cu", std::string("/* Rung 1: the first one */\n") + kStarter);
  write_file(subs / "vadd" / "notes.md", "not a rung\n");
  const fs::path chart = dir_ / "ladder.svg";
  auto r = judge({"--json", "ladder", "vadd", "--submissions", subs.string(), "--chart", chart.string(), "--budget",
                  "0.5", "--min-samples", "3"});
  EXPECT_EQ(r.code, 0) << r;
  json j = parse(r);
  ASSERT_EQ(j.at("rungs").size(), 2u) << r;
  EXPECT_EQ(j["rungs"][0].at("rung"), "1_first") << "by number, not as text";
  EXPECT_EQ(j["rungs"][0].at("idea"), "Rung 1: the first one");
  EXPECT_EQ(j["rungs"][1].at("rung"), "10_second");
  EXPECT_EQ(j["rungs"][1].at("idea"), "Rung 10: the later one");
  EXPECT_EQ(j.at("all_accepted"), true) << r;
  EXPECT_EQ(j.at("gpu"), "Fake GPU");
  EXPECT_EQ(j.at("cases"), json({"b1", "b2"}));
  // The fake worker times every benchmark at 2 ms: 1000 flops in 2 ms.
  const json& b2 = j["rungs"][1]["cases"][1];
  EXPECT_DOUBLE_EQ(b2.at("median_ms").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(b2.at("rate").get<double>(), 5e-4);
  EXPECT_DOUBLE_EQ(b2.at("vs_previous").get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(b2.at("vs_first").get<double>(), 1.0);
  EXPECT_TRUE(b2.at("vs_reference").is_null()) << "the fake worker times no reference";
  EXPECT_EQ(j.at("chart"), chart.string());
  const std::string svg = read_file(chart);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u) << svg;
  std::size_t bars = 0;
  for (auto at = svg.find("<rect class=\"bar\""); at != std::string::npos; at = svg.find("<rect class=\"bar\"", at + 1))
    ++bars;
  EXPECT_EQ(bars, 4u) << "two rungs, two benchmark cases";
  EXPECT_FALSE(fs::exists(db_)) << "a ladder never touches the leaderboard";
}

TEST_F(Cli, LadderGoesOnPastARejectedRungAndSaysWhich) {
  require_nvcc();
  env_["FAKE_SCENARIO"] = "wrong";
  write_file(dir_ / "other.cu", std::string("// another try\n") + kStarter);
  auto r = judge({"ladder", "vadd", (dir_ / "solve.cu").string(), (dir_ / "other.cu").string()});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_CONTAINS(r.out, "solve  starter for vadd", r);
  EXPECT_CONTAINS(r.out, "other  another try", r);
  EXPECT_CONTAINS(r.out, "✗ Wrong answer in case t1: C: 3 of 7 elements wrong", r);
  EXPECT_CONTAINS(r.out, "✗ 2 of 2 rungs not accepted: solve, other", r);
  EXPECT_FALSE(fs::exists(db_));
}

TEST_F(Cli, LadderRefusesBadInputBeforeJudgingAnything) {
  auto r = judge({"ladder", "vadd", "--case", "huge", (dir_ / "solve.cu").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "--case huge: vadd has no benchmark case of that name; its benchmark cases are b1, b2", r);
  r = judge({"ladder", "vadd", "--submissions", (dir_ / "nowhere").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, (dir_ / "nowhere" / "vadd").string(), r);
  r = judge({"--json", "ladder", "vadd", (dir_ / "solve.cu").string(), "--chart", (dir_ / "no" / "dir.svg").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(parse(r).at("error").get<std::string>(), "cannot write the chart to", r);
  r = judge({"ladder"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "which ladder? give a challenge", r);
}

TEST_F(Cli, LadderShowsAStoredRunWithoutJudging) {
  require_nvcc();
  const fs::path stored = dir_ / "vadd.json";
  auto r = judge({"--json", "ladder", "vadd", (dir_ / "solve.cu").string(), "--budget", "0.2", "--min-samples", "3"});
  ASSERT_EQ(r.code, 0) << r;
  write_file(stored, r.out);
  // No worker from here on: a stored run needs no GPU.
  env_["JUDGE_WORKER"] = (dir_ / "no-such-worker").string();
  r = judge({"ladder", "--from", stored.string(), "--markdown"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "### vadd", r);
  EXPECT_CONTAINS(r.out, "Measured on Fake GPU", r);
  EXPECT_CONTAINS(r.out, "| rung | idea | b1 | b2 | × prev | kernel with most of the time |", r);
  EXPECT_CONTAINS(r.out, "| `solve.cu` | starter for vadd |", r);
  r = judge({"ladder", "--from", stored.string()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "vadd on Fake GPU", r);
  EXPECT_CONTAINS(r.out, "✓ all 1 rungs accepted", r);
  const fs::path chart = dir_ / "again.svg";
  r = judge({"ladder", "--from", stored.string(), "--chart", chart.string()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(read_file(chart).rfind("<?xml", 0), 0u);
  // The chart beside the stored run opens its table when --charts-from says where the Markdown file sees it.
  r = judge({"ladder", "--from", stored.string(), "--chart", (dir_ / "vadd.svg").string()});
  ASSERT_EQ(r.code, 0) << r;
  r = judge({"ladder", "--from", stored.string(), "--markdown", "--charts-from", "../runs"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_CONTAINS(r.out, "![vadd: one bar per rung, the ceiling as a line](../runs/vadd.svg)", r);
  r = judge({"--json", "ladder", "--from", stored.string(), "--from", stored.string()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(parse(r).size(), 2u) << "several stored runs: a JSON array";
}

TEST_F(Cli, LadderFromRefusesWhatIsNotAStoredRun) {
  write_file(dir_ / "notes.txt", "not json\n");
  write_file(dir_ / "other.json", "{\"challenge\": \"vadd\"}\n");
  auto r = judge({"ladder", "--from", (dir_ / "notes.txt").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, (dir_ / "notes.txt").string() + ": not JSON", r);
  r = judge({"ladder", "--from", (dir_ / "other.json").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, (dir_ / "other.json").string() + ": not a stored ladder run", r);
  r = judge({"ladder", "vadd", "--from", (dir_ / "other.json").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "not both", r);
  r = judge({"ladder", "--from", (dir_ / "other.json").string(), "--from", (dir_ / "other.json").string(), "--chart",
             (dir_ / "c.svg").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "--chart draws one ladder", r);
  r = judge({"ladder", "--from", (dir_ / "missing.json").string()});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_CONTAINS(r.err, "missing.json", r);
}

}  // namespace
