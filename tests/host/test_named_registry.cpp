// The table behind JUDGE_GENERATOR and JUDGE_CHECKER (judge/worker/named_registry.hpp): found by name, an unknown name
// answered with the known ones, a name taken twice refused at once.
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "judge/worker/named_registry.hpp"

namespace {

using Registry = judge::NamedRegistry<std::function<int()>>;

TEST(NamedRegistry, FindsByNameAndSaysWhichNamesItKnows) {
  Registry r("widget", "judge/worker/widgets/", "JUDGE_WIDGET");
  try {
    r.find("a");
    FAIL() << "expected an error";
  } catch (const judge::Error& e) {
    EXPECT_NE(std::string(e.what()).find("known: none"), std::string::npos) << e.what();
  }
  r.add("b", [] { return 2; });
  r.add("a", [] { return 1; });
  EXPECT_TRUE(r.has("a"));
  EXPECT_FALSE(r.has("c"));
  EXPECT_EQ(r.find("b")(), 2);
  try {
    r.find("c");
    FAIL() << "expected an error";
  } catch (const judge::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no widget named 'c' is registered (built in: judge/worker/widgets/; challenge-specific: "
                        "JUDGE_WIDGET in reference/<id>.cu); known: a, b"),
              std::string::npos)
        << what;
  }
}

TEST(NamedRegistryDeathTest, ANameTakenTwiceAbortsNamingWhereToLook) {
  Registry r("widget", "judge/worker/widgets/", "JUDGE_WIDGET");
  r.add("a", [] { return 1; });
  EXPECT_DEATH(r.add("a", [] { return 2; }),
               "two widgets are registered as 'a' \\(judge/worker/widgets/\\*.cu and reference/\\*.cu\\): rename one");
}

}  // namespace
