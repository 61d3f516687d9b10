#pragma once
// Which protections this machine gives a submission, each on or off with the reason: what `judge doctor` prints and
// what every result records, so that a run judged with less isolation says so instead of passing for a sandboxed one.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace judge {

struct Protection {
  std::string name;
  bool on = false;
  std::string why;
};
void to_json(nlohmann::json& j, const Protection& p);
void from_json(const nlohmann::json& j, Protection& p);

// The names, as recorded.
namespace protection {
inline constexpr const char* landlock = "landlock";
inline constexpr const char* seccomp = "seccomp";
inline constexpr const char* uid_drop = "uid drop";
inline constexpr const char* namespaces = "pid+mount namespaces (bubblewrap)";
inline constexpr const char* compile_sandbox = "compile sandbox";
inline constexpr const char* no_network = "no network";
}  // namespace protection

// What this machine and this judge's privileges allow, in the order above. Cheap: a few system calls, and one trial
// run of bubblewrap the first time in a process (its outcome is kept).
std::vector<Protection> probe_protections();

// The bubblewrap trial alone (cached): on when bwrap exists and a sandbox as the solver's would be (own user, pid and
// network namespaces; as the sandbox's user when the judge is root) starts and exits 0.
Protection probe_bubblewrap();

// The one named `name`, or an off one saying it was not probed.
Protection find_protection(const std::vector<Protection>& protections, const std::string& name);

}  // namespace judge
