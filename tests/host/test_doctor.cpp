// `judge doctor` through the CLI: it always exits 0, its JSON names the tools and every protection, and the human
// form lists the same protections.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/core/sandbox/protections.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

TEST(Doctor, JsonNamesToolsAndEveryProtection) {
  auto r = testing::run_command({testing::cli_path().string(), "doctor", "--json"}, {}, 120);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  nlohmann::json j = nlohmann::json::parse(r.output, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.output;
  for (const char* key : {"gpus", "nvcc", "cupti", "ncu", "compute_sanitizer", "protections"})
    EXPECT_TRUE(j.contains(key)) << key << " in\n" << r.output;
  for (const char* tool : {"nvcc", "cupti", "ncu", "compute_sanitizer"}) {
    const auto& t = j[tool];
    EXPECT_TRUE(t.contains("found")) << tool;
    if (t.value("found", false)) EXPECT_TRUE(t.contains("path")) << tool;
    else EXPECT_TRUE(t.contains("why")) << tool;
  }
  std::vector<std::string> names;
  for (const auto& p : j["protections"]) names.push_back(p.get<Protection>().name);
  EXPECT_EQ(names, (std::vector<std::string>{protection::landlock, protection::seccomp, protection::uid_drop,
                                             protection::namespaces, protection::compile_sandbox,
                                             protection::no_network}));
}

TEST(Doctor, HumanOutputListsTheProtections) {
  auto r = testing::run_command({testing::cli_path().string(), "doctor", "--color", "never"}, {}, 120);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* text : {"GPUs", "Tools", "nvcc", "Protections", "landlock", "seccomp", "uid drop",
                           "pid+mount namespaces (bubblewrap)", "compile sandbox", "no network"})
    EXPECT_NE(r.output.find(text), std::string::npos) << text << " in\n" << r.output;
}

}  // namespace
}  // namespace judge
