#pragma once
// Bubblewrap: the solver in namespaces of its own (pid, mount, network, IPC, UTS, user), seeing a file system made of
// the policy's paths only (policy.hpp): the system and the toolkit read-only, its scratch directory read-write,
// a fresh /proc of its own pid namespace, a /dev with only the harmless nodes and the device nodes of its one GPU
// (the way `judge batch` gives each worker one GPU), and an empty /tmp. When the sandbox ends, every process in it
// ends too, a `setsid` grandchild included.
//
// As root, the judge drops to the solver's user (policy.hpp's solver_credentials) *before* starting bwrap, which then
// runs unprivileged in a user namespace. bwrap's own --uid/--gid do not do this: run by root they only rename root
// inside the sandbox's user namespace, and the sandboxed process stays uid 0 on the host (tried with bubblewrap 0.8:
// it read a root-only 0600 file). The paths the policy binds must therefore be reachable by that user (every
// directory above them searchable by it); wrap_in_bwrap checks and says which is not.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/sandbox/policy.hpp"
#include "judge/core/sandbox/process.hpp"

namespace judge {

// $JUDGE_BWRAP (which must then be executable), else bwrap on PATH, else /usr/bin/bwrap; empty when there is none.
std::string find_bwrap();

struct BwrapTrial {
  bool works = false;
  std::string why;              // what ran, or why it did not
  bool disable_userns = false;  // this bwrap knows --disable-userns (0.8 and later)
};
// One trial sandbox as the solver's would be (user, pid and network namespaces; as the solver's user when root),
// run the first time it is asked for in a process; later calls return that outcome.
const BwrapTrial& bwrap_trial();

struct BwrapSandbox {
  std::string bwrap;                       // find_bwrap()
  SandboxPolicy policy;                    // solver_policy(): what is mounted, and how
  std::filesystem::path scratch;           // its working directory and $HOME; also in the policy, as writable
  std::map<std::string, std::string> env;  // beyond PATH=/usr/bin:/bin, HOME=scratch, TMPDIR=/tmp, LANG=C
  // Where bwrap writes {"child-pid": N, ...}, as numbered in bwrap: give our end in SpawnOptions::setup.keep_fds.
  int info_fd = -1;
  // The command is the first process of its pid namespace (--as-pid-1), so the info's child-pid is the command
  // itself. Then no process of the sandbox can signal it, itself included: the kernel drops a namespace init's own
  // SIGABRT, so abort() ends it with SIGSEGV. Without it, bwrap's own init is pid 1 and the command its only child.
  bool as_pid_1 = true;
};

// The mounts that make the policy's file system: --ro-bind, --bind, --dev-bind and --symlink of its existing paths
// (a path inside a directory already mounted whole is not mounted again), --proc, a --dev of harmless nodes and an
// empty --tmpfs /tmp, ordered so that a mount comes after those above it.
std::vector<std::string> bwrap_mounts(const SandboxPolicy& policy);

// bwrap's command line up to and including "--": the command follows. Paths of the policy that do not exist are left
// out. bwrap exits with the command's exit code, or 128 + the signal that killed it.
std::vector<std::string> bwrap_arguments(const BwrapSandbox& sandbox);

// Makes options run options.argv inside the sandbox: bwrap's arguments in front, options.env as bwrap's whole
// environment (the command gets only the sandbox's, in a session of its own), no_new_privs, and the drop to
// solver_credentials() when the judge is root. Throws Error when bwrap is missing or that user cannot reach a path
// the policy binds.
void wrap_in_bwrap(SpawnOptions& options, const BwrapSandbox& sandbox);

// The host pid of the sandboxed command, from what bwrap wrote on its info fd: the info's child-pid with as_pid_1,
// else that process's only child. 0 when it cannot be told (yet).
int bwrap_command_pid(const std::string& info, bool as_pid_1);

// The minor number of a GPU's device node /dev/nvidia<minor>, from the driver's
// /proc/driver/nvidia/gpus/<PCI bus id>/information ("Device Minor:"); bus ids as CUDA prints them
// ("0000:41:00.0"; case and a short domain are forgiven). None when the driver does not say.
std::optional<int> nvidia_minor(const std::string& pci_bus_id);

}  // namespace judge
