// Every file of tests/corpus gets the verdict its header names (`// expect: VERDICT`), with the message fragment
// (`// expect-message: ...`) where one is given, through the real CLI and worker on the GPU.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::testing::TempDir;

struct Entry {
  fs::path file;
  std::string challenge;
  std::string expect;
  std::string message;
  std::vector<std::string> args;
};

void PrintTo(const Entry& e, std::ostream* os) { *os << e.file.string(); }

std::vector<Entry> corpus() {
  std::vector<Entry> out;
  fs::path root = judge::testing::source_dir() / "tests" / "corpus";
  for (const auto& dir : fs::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path())) {
      if (f.path().extension() != ".cu") continue;
      Entry e;
      e.file = f.path();
      e.challenge = dir.path().filename().string();
      std::ifstream in(f.path());
      std::string line;
      while (std::getline(in, line) && line.rfind("//", 0) == 0) {
        auto value = [&](const std::string& key) { return line.substr(key.size()); };
        if (line.rfind("// expect: ", 0) == 0) e.expect = value("// expect: ");
        if (line.rfind("// expect-message: ", 0) == 0) e.message = value("// expect-message: ");
        if (line.rfind("// judge-args: ", 0) == 0) {
          std::istringstream ss(value("// judge-args: "));
          for (std::string a; ss >> a;) e.args.push_back(a);
        }
      }
      out.push_back(e);
    }
  }
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.file < b.file; });
  return out;
}

class Corpus : public ::testing::TestWithParam<Entry> {};

TEST_P(Corpus, GetsItsVerdict) {
  JUDGE_REQUIRE_GPU();
  const Entry& e = GetParam();
  ASSERT_FALSE(e.expect.empty()) << e.file << " has no `// expect:` line";
  TempDir tmp;
  std::vector<std::string> argv = {judge::testing::cli_path().string(), "--json", "run", e.challenge, e.file.string()};
  argv.insert(argv.end(), e.args.begin(), e.args.end());
  auto start = std::chrono::steady_clock::now();
  auto r = judge::testing::run_command(argv, {{"JUDGE_CACHE_DIR", (tmp / "cache").string()},
                                              {"JUDGE_DB", (tmp / "db.sqlite").string()}});
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto j = nlohmann::json::parse(r.output, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.output;
  EXPECT_EQ(j.value("verdict", ""), e.expect) << j.dump(2);
  EXPECT_EQ(r.exit_code, e.expect == "accepted" ? 0 : 1);
  if (!e.message.empty())
    EXPECT_NE(j.value("message", "").find(e.message), std::string::npos) << j.value("message", "");
  RecordProperty("seconds", std::to_string(took));
}

std::string name_of(const ::testing::TestParamInfo<Entry>& info) {
  std::string n = info.param.challenge + "_" + info.param.file.stem().string();
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Files, Corpus, ::testing::ValuesIn(corpus()), name_of);

}  // namespace
