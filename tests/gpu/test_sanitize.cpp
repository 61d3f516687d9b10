// `judge run --sanitize`: compute-sanitizer finds a real overrun and names the user's line; a correct submission
// comes back clean and accepted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace {

using judge::testing::TempDir;
using nlohmann::json;

json sanitize(const std::string& file, const std::string& tool = "memcheck") {
  TempDir tmp;
  auto r = judge::testing::run_command(
      {judge::testing::cli_path().string(), "--json", "run", "vector_add",
       (judge::testing::source_dir() / file).string(), "--sanitize=" + tool, "--case", "n1023"},
      {{"JUDGE_CACHE_DIR", (tmp / "cache").string()}});
  json j = judge::testing::json_of(r.output);
  EXPECT_FALSE(j.is_discarded()) << r.output;
  return j;
}

TEST(Sanitize, MemcheckNamesTheLineOfAnOverrun) {
  JUDGE_REQUIRE_GPU();
  json j = sanitize("tests/corpus/vector_add/write_past_end.cu");
  ASSERT_TRUE(j.contains("sanitizer")) << j.dump(2);
  EXPECT_NE(j.value("verdict", ""), "accepted");
  EXPECT_GT(j["sanitizer"]["errors"].get<int>(), 0) << j["sanitizer"].dump(2);
  ASSERT_FALSE(j["sanitizer"]["findings"].empty()) << j["sanitizer"].dump(2);
  EXPECT_NE(j["sanitizer"]["findings"][0]["location"].get<std::string>().find("write_past_end.cu:"), std::string::npos)
      << j["sanitizer"].dump(2);
  EXPECT_NE(j["sanitizer"]["text"].get<std::string>().find("C[N] = 0.0f"), std::string::npos)
      << "the user's source line is shown: " << j["sanitizer"]["text"];
}

TEST(Sanitize, CorrectSubmissionIsClean) {
  JUDGE_REQUIRE_GPU();
  json j = sanitize("submissions/vector_add/1_naive.cu");
  EXPECT_EQ(j.value("verdict", ""), "accepted") << j.value("message", "") << j.dump(2).substr(0, 3000);
  ASSERT_TRUE(j.contains("sanitizer")) << j.dump(2);
  EXPECT_EQ(j["sanitizer"]["errors"].get<int>(), 0) << j["sanitizer"].dump(2);
}

}  // namespace
