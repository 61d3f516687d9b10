// The protections probe: every protection is named, on or off with a reason that matches what this machine has, and
// survives the trip through JSON that results make.
#include "judge/core/sandbox/protections.hpp"

#include <unistd.h>

#include <gtest/gtest.h>

#include "judge/core/sandbox/bwrap.hpp"
#include "judge/core/sandbox/landlock.hpp"
#include "judge/core/sandbox/seccomp.hpp"

namespace judge {
namespace {

TEST(Protections, ProbeNamesEachProtectionWithAReason) {
  std::vector<Protection> all = probe_protections();
  std::vector<std::string> names;
  for (const auto& p : all) {
    names.push_back(p.name);
    EXPECT_FALSE(p.why.empty()) << p.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{protection::landlock, protection::seccomp, protection::uid_drop,
                                             protection::namespaces, protection::compile_sandbox,
                                             protection::no_network}));
}

TEST(Protections, ProbeMatchesThisMachine) {
  auto all = probe_protections();
  LandlockSupport ll = landlock_support();
  Protection landlock = find_protection(all, protection::landlock);
  EXPECT_EQ(landlock.on, ll.abi > 0) << landlock.why;
  if (ll.abi > 0) EXPECT_NE(landlock.why.find("ABI " + std::to_string(ll.abi)), std::string::npos) << landlock.why;
  EXPECT_EQ(find_protection(all, protection::seccomp).on, seccomp_support().available);
  Protection uid = find_protection(all, protection::uid_drop);
  EXPECT_EQ(uid.on, ::geteuid() == 0) << uid.why;
  if (::geteuid() != 0)
    EXPECT_NE(uid.why.find("solver keeps uid " + std::to_string(::geteuid())), std::string::npos) << uid.why;
  EXPECT_EQ(find_protection(all, protection::namespaces).on, bwrap_trial().works);
  Protection compile = find_protection(all, protection::compile_sandbox);
  EXPECT_EQ(compile.on, ll.abi > 0 || bwrap_trial().works) << compile.why;
}

TEST(Protections, RoundTripThroughJson) {
  Protection p{"landlock", true, "ABI 7"};
  nlohmann::json j = p;
  EXPECT_EQ(j, nlohmann::json({{"name", "landlock"}, {"on", true}, {"why", "ABI 7"}}));
  Protection back = j.get<Protection>();
  EXPECT_EQ(back.name, p.name);
  EXPECT_EQ(back.on, p.on);
  EXPECT_EQ(back.why, p.why);
  EXPECT_THROW(nlohmann::json({{"on", true}}).get<Protection>(), nlohmann::json::exception);
}

TEST(Protections, AnUnprobedOneIsOff) {
  Protection p = find_protection({}, "landlock");
  EXPECT_FALSE(p.on);
  EXPECT_EQ(p.why, "not probed");
}

}  // namespace
}  // namespace judge
