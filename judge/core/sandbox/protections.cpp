#include "judge/core/sandbox/protections.hpp"

#include <unistd.h>

#include "judge/core/sandbox/bwrap.hpp"
#include "judge/core/sandbox/confine.hpp"
#include "judge/core/sandbox/landlock.hpp"
#include "judge/core/sandbox/policy.hpp"
#include "judge/core/sandbox/seccomp.hpp"

namespace judge {

void to_json(nlohmann::json& j, const Protection& p) { j = {{"name", p.name}, {"on", p.on}, {"why", p.why}}; }

void from_json(const nlohmann::json& j, Protection& p) {
  p.name = j.at("name").get<std::string>();
  p.on = j.at("on").get<bool>();
  p.why = j.value("why", "");
}

Protection probe_bubblewrap() {
  const BwrapTrial& trial = bwrap_trial();
  return {protection::namespaces, trial.works, trial.why};
}

std::vector<Protection> probe_protections() {
  using namespace protection;
  std::vector<Protection> out;

  LandlockSupport ll = landlock_support();
  out.push_back({landlock, ll.abi > 0,
                 ll.abi == 0 ? ll.why
                             : fmt::format("ABI {}: files{}{}{}", ll.abi, ll.abi >= 4 ? ", TCP" : "",
                                           ll.abi >= 6 ? ", signals and abstract sockets" : "",
                                           ll.abi >= 8 ? ", every thread at once"
                                                       : "; threads the CUDA driver started before the solver confined "
                                                         "itself are asked to restrict themselves one by one")});

  SeccompSupport sc = seccomp_support();
  out.push_back({seccomp, sc.available, sc.why});

  if (std::optional<Credentials> who = solver_credentials())
    out.push_back(
        {uid_drop, true, fmt::format("the judge runs as root: the solver runs as {}:{}", who->uid, who->gid)});
  else
    out.push_back({uid_drop, false, fmt::format("judge not running as root: solver keeps uid {}", ::geteuid())});

  Protection bw = probe_bubblewrap();
  out.push_back(bw);

  std::string why;
  CompileSandbox compile = choose_compile_sandbox(why);
  out.push_back({compile_sandbox, compile != CompileSandbox::none, why});

  std::vector<std::string> means;
  if (bw.on) means.push_back("a network namespace of its own (bubblewrap)");
  if (sc.available) means.push_back("seccomp refuses sockets other than AF_UNIX");
  if (ll.abi >= 4) means.push_back("Landlock refuses TCP");
  std::string joined;
  for (const auto& m : means) joined += (joined.empty() ? "" : "; ") + m;
  out.push_back({no_network, !means.empty(),
                 means.empty()
                     ? "no network namespace, seccomp or Landlock ABI 4 here: the solver can reach the network"
                     : joined});
  return out;
}

Protection find_protection(const std::vector<Protection>& protections, const std::string& name) {
  for (const auto& p : protections)
    if (p.name == name) return p;
  return {name, false, "not probed"};
}

}  // namespace judge
