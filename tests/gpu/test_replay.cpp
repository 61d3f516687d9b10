// Every replay line replays: a rejected `judge submit` prints `replay: judge run ...`, and running that line as it
// is printed gives the same verdict in the same case with the same first mismatch. Three ways to fail are replayed:
// a functional test, a benchmark case (call 1, so `judge run --case <benchmark>` must find benchmarks), and a later
// call of a benchmark's timing loop (`--call N`, which must make calls 1..N as submit did, since the failure below
// depends on what the earlier calls left behind). Each is checked through the JSON document (its `replay` field, run
// with --json, compared field by field) and through the human output (the printed line, split as a shell splits it,
// run verbatim, compared line by line). The last test runs a benchmark case under Nsight Compute, where CUPTI is
// not available to the judge: `judge run` must not need it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::testing::TempDir;
using nlohmann::json;

// Right on every functional test (N <= 10^7); on larger N one element is off by one.
const char* kWrongWhenLarge = R"(#include <cuda_runtime.h>
__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i] + (N > 10000000 && i == N / 2 ? 1.0f : 0.0f);
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
)";

// Wrong for every odd N (the first test, n1, is N = 1): a functional failure.
const char* kWrongWhenOdd = R"(#include <cuda_runtime.h>
__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i] + (N % 2 == 1 && i == N / 2 ? 0.5f : 0.0f);
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
)";

// Right on the tests and on the first two calls with N > 10^7; from the third such call on, one element is off. Only
// a replay that makes the earlier calls too can fail the way submit did.
const char* kWrongFromThirdLargeCall = R"(#include <cuda_runtime.h>
__global__ void add(const float* A, const float* B, float* C, int N, int bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i] + (bad && i == N / 3 ? 1.0f : 0.0f);
}
static int large_calls = 0;
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  if (N > 10000000) ++large_calls;
  add<<<(N + 255) / 256, 256>>>(A, B, C, N, large_calls >= 3);
  cudaDeviceSynchronize();
}
)";

// Splits a command line as a POSIX shell does for words without expansions: blanks separate words, '...' is taken
// literally, "..." allows \" \\ \$ \`, and a backslash outside quotes takes the next character literally.
std::vector<std::string> shell_split(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      auto end = line.find('\'', i + 1);
      if (end == std::string::npos) throw std::runtime_error("unterminated ' in: " + line);
      word += line.substr(i + 1, end - i - 1);
      i = end;
    } else if (c == '"') {
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size() && std::string("\"\\$`").find(line[i + 1]) != std::string::npos)
          ++i;
        word += line[i];
      }
      if (i >= line.size()) throw std::runtime_error("unterminated \" in: " + line);
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

// The text after "replay: " on the line that has it, or empty.
std::string replay_line(const std::string& output) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    auto at = line.find("replay: ");
    if (at != std::string::npos) return line.substr(at + 8);
  }
  return {};
}

// The lines of `output` that start (after indentation) with any of the prefixes, in order.
std::vector<std::string> lines_starting(const std::string& output, const std::vector<std::string>& prefixes) {
  std::vector<std::string> found;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    std::string trimmed = line.substr(std::min(line.size(), line.find_first_not_of(' ')));
    for (const auto& p : prefixes)
      if (trimmed.rfind(p, 0) == 0) found.push_back(trimmed);
  }
  return found;
}

// The facts a replay must reproduce, from a JSON report.
struct Failure {
  std::string verdict;
  std::string failed_case;
  int failed_call = 0;
  std::int64_t index = -1;
  double got = 0, expected = 0;
};

Failure failure_of(const json& j) {
  Failure f;
  f.verdict = j.value("verdict", "");
  f.failed_case = j.value("failed_case", "");
  for (const auto& c : j.value("cases", json::array())) {
    if (c.value("name", "") != f.failed_case) continue;
    f.failed_call = c.value("failed_call", 0);
    for (const auto& o : c.value("outputs", json::array())) {
      if (o.value("first", json::array()).empty()) continue;
      const json& m = o["first"][0];
      f.index = m.value("index", std::int64_t{-1});
      f.got = m["got"].is_number() ? m["got"].get<double>() : NAN;
      f.expected = m["expected"].is_number() ? m["expected"].get<double>() : NAN;
      break;
    }
  }
  return f;
}

class Replay : public ::testing::Test {
 protected:
  void SetUp() override {
    JUDGE_REQUIRE_GPU();
    env_ = {{"JUDGE_CACHE_DIR", (tmp_ / "cache").string()},
            {"JUDGE_DB", (tmp_ / "db.sqlite").string()},
            {"JUDGE_CALIBRATION", judge::testing::shared_calibration_file()}};
  }

  // Writes the submission under a path that needs shell quoting, so the printed line's quoting is exercised too.
  std::string write(const std::string& name, const std::string& source) {
    fs::path path = tmp_ / "my solutions" / (name + "'s.cu");
    judge::testing::write_file(path, source);
    return path.string();
  }

  judge::testing::CommandResult judge(std::vector<std::string> args) {
    args.insert(args.begin(), judge::testing::cli_path().string());
    return judge::testing::run_command(args, env_, 900);
  }

  std::vector<std::string> submit_args(const std::string& file, bool as_json) {
    std::vector<std::string> a = {"submit", "vector_add", file, "--name", "replayer", "--budget", "0.3",
                                  "--min-samples", "5"};
    if (as_json) a.insert(a.begin(), "--json");
    return a;
  }

  // A printed `judge run ...` line as argv: `judge` becomes the built CLI, the rest is taken verbatim.
  static std::vector<std::string> replay_argv(const std::string& line) {
    std::vector<std::string> words = shell_split(line);
    EXPECT_GE(words.size(), 3u) << line;
    EXPECT_EQ(words.at(0), "judge") << line;
    EXPECT_EQ(words.at(1), "run") << line;
    return {words.begin() + 1, words.end()};
  }

  // Submit with --json; run its `replay` field with --json; the same failure, field by field.
  Failure replay_json(const std::string& file) {
    auto submitted = judge(submit_args(file, true));
    json s = judge::testing::json_of(submitted.output);
    if (s.is_discarded()) {
      ADD_FAILURE() << submitted.output;
      return {};
    }
    Failure want = failure_of(s);
    EXPECT_NE(want.verdict, "accepted") << submitted.output.substr(0, 4000);
    std::string line = s.value("replay", "");
    EXPECT_FALSE(line.empty()) << "no replay in the submit's JSON";
    std::vector<std::string> args = replay_argv(line);
    args.push_back("--json");
    auto replayed = judge(args);
    json r = judge::testing::json_of(replayed.output);
    if (r.is_discarded()) {
      ADD_FAILURE() << replayed.output;
      return want;
    }
    Failure got = failure_of(r);
    EXPECT_EQ(got.verdict, want.verdict) << "replay: " << line << "\n" << r.value("message", "");
    EXPECT_EQ(got.failed_case, want.failed_case) << line;
    EXPECT_EQ(got.failed_call, want.failed_call) << line;
    EXPECT_EQ(got.index, want.index) << line;
    EXPECT_EQ(got.got, want.got) << line;
    EXPECT_EQ(got.expected, want.expected) << line;
    EXPECT_EQ(r.value("message", ""), s.value("message", "")) << line;
    return want;
  }

  // Submit with human output; run the printed replay line verbatim; the same verdict line and mismatch lines.
  void replay_human(const std::string& file, const std::string& expected_case) {
    auto submitted = judge(submit_args(file, false));
    std::string line = replay_line(submitted.output);
    ASSERT_FALSE(line.empty()) << "no replay line in:\n" << submitted.output;
    EXPECT_NE(line.find("--case " + expected_case), std::string::npos) << line;
    auto replayed = judge(replay_argv(line));
    const std::vector<std::string> prefixes = {"✗ ", "first mismatches of ", "C["};
    auto want = lines_starting(submitted.output, prefixes);
    auto got = lines_starting(replayed.output, prefixes);
    ASSERT_FALSE(want.empty()) << submitted.output;
    EXPECT_EQ(got, want) << "replay: " << line << "\n--- submit ---\n"
                         << submitted.output << "\n--- replay ---\n"
                         << replayed.output;
    EXPECT_EQ(replayed.exit_code, 1) << replayed.output;
  }

  // Writes the submission, expects submit to fail it as a wrong answer in `case_name` at call `call` with the first
  // mismatch at `index`, and both replay lines to fail it the same way. Returns the submission's path.
  std::string expect_replays(const std::string& name, const char* source, const std::string& case_name, int call,
                             std::int64_t index) {
    std::string file = write(name, source);
    Failure f = replay_json(file);
    EXPECT_EQ(f.verdict, "wrong_answer");
    EXPECT_EQ(f.failed_case, case_name);
    EXPECT_EQ(f.failed_call, call);
    EXPECT_EQ(f.index, index);
    replay_human(file, call > 1 ? case_name + " --call " + std::to_string(call) : case_name);
    return file;
  }

  TempDir tmp_;
  std::map<std::string, std::string> env_;
};

TEST(ShellSplit, UndoesTheJudgesQuoting) {
  EXPECT_EQ(shell_split("judge run a 'my dir/it'\\''s.cu' --seed 1"),
            (std::vector<std::string>{"judge", "run", "a", "my dir/it's.cu", "--seed", "1"}));
  EXPECT_EQ(shell_split("a \"b c\" d\\ e"), (std::vector<std::string>{"a", "b c", "d e"}));
}

TEST_F(Replay, AFunctionalFailure) { expect_replays("odd", kWrongWhenOdd, "n1", 1, 0); }

TEST_F(Replay, ABenchmarkCase) { expect_replays("large", kWrongWhenLarge, "N_25000000", 1, 12500000); }

TEST_F(Replay, ALaterCallOfABenchmark) {
  std::string file = expect_replays("third", kWrongFromThirdLargeCall, "N_25000000", 3, 25000000 / 3);
  // The call matters: the case's first call alone is right.
  auto first = judge({"--json", "run", "vector_add", file, "--case", "N_25000000"});
  json j = judge::testing::json_of(first.output);
  ASSERT_FALSE(j.is_discarded()) << first.output;
  EXPECT_EQ(j.value("verdict", ""), "accepted") << j.value("message", "");
}

// `judge run` times nothing, so it must not take CUPTI, which Nsight Compute holds while it profiles.
TEST_F(Replay, BenchmarkCaseRunsUnderNsightCompute) {
  const char* ncu_env = std::getenv("JUDGE_TEST_NCU");
  std::string ncu = ncu_env && *ncu_env ? ncu_env : "";
  for (const char* candidate : {"/usr/local/cuda/bin/ncu", "/usr/bin/ncu"})
    if (ncu.empty() && fs::exists(candidate)) ncu = candidate;
  if (ncu.empty()) GTEST_SKIP() << "Nsight Compute (ncu) is not installed here (JUDGE_TEST_NCU names it)";
  std::string file = write("good", judge::testing::read_file(judge::testing::source_dir() / "submissions" /
                                                              "vector_add" / "1_naive.cu"));
  auto r = judge::testing::run_command({ncu, "--target-processes", "all", "--launch-count", "1", "--log-file",
                                       (tmp_ / "ncu.log").string(), judge::testing::cli_path().string(), "--json",
                                       "run", "vector_add", file, "--case", "N_25000000"},
                                      env_, 900);
  json j = judge::testing::json_of(r.output);
  ASSERT_FALSE(j.is_discarded()) << r.output.substr(0, 4000);
  EXPECT_EQ(j.value("verdict", ""), "accepted") << j.value("message", "") << "\n" << r.output.substr(0, 4000);
  EXPECT_EQ(j.value("timer", ""), "events");
  EXPECT_EQ(j.value("timer_warning", ""), "") << "run mode must not even try CUPTI";
}

}  // namespace
