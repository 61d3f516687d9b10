#pragma once
// Landlock: the kernel's unprivileged file-system (and, from ABI 4, TCP; from ABI 6, signal and abstract-socket)
// sandbox, driven through its three raw system calls, so no library is needed. A LandlockRuleset turns a SandboxPolicy
// (policy.hpp) into a ruleset that handles every access right the running kernel's ABI knows: whatever the policy
// does not allow is denied, and rights newer than the kernel are left out rather than failing (best effort by ABI).
// With ABI >= 4 every TCP bind and connect is denied; with ABI >= 6 signals and abstract unix sockets are scoped to
// the sandbox.
//
// Two uses: restrict_self() confines the calling process (all its threads); or the parent builds the ruleset and a
// child it forks calls landlock_restrict_child(fd) between fork and exec (process.hpp's ChildSetup does), so that the
// program it executes, and everything that program starts, runs confined.
#include <cstdint>
#include <string>
#include <vector>

#include "judge/core/base/error.hpp"
#include "judge/core/sandbox/policy.hpp"

namespace judge {

struct LandlockSupport {
  int abi = 0;      // 0: none
  std::string why;  // "ABI 7", or why there is none and what to do
};
// What the running kernel offers. Cheap (one system call): not cached.
LandlockSupport landlock_support();

class LandlockRuleset {
 public:
  // Throws Error when the kernel has no Landlock (landlock_support().why says why) or a rule cannot be added. Paths
  // of the policy that do not exist are skipped (see skipped()).
  explicit LandlockRuleset(const SandboxPolicy& policy);
  LandlockRuleset(LandlockRuleset&& other) noexcept;
  LandlockRuleset& operator=(LandlockRuleset&& other) noexcept;
  LandlockRuleset(const LandlockRuleset&) = delete;
  LandlockRuleset& operator=(const LandlockRuleset&) = delete;
  ~LandlockRuleset();

  int fd() const { return fd_; }
  int abi() const { return abi_; }
  // The policy's PathAccess::proc rule was given: the confined process's own /proc/<pid> is added when it restricts
  // itself (it cannot be named before: for a child, the parent does not know the pid yet).
  bool allows_own_proc() const { return own_proc_; }
  const std::vector<std::string>& skipped() const { return skipped_; }

  struct Coverage {
    int threads = 0;     // threads the process had
    int restricted = 0;  // of those, how many are now confined
    std::string why;     // when some are not: which and why
    bool complete() const { return restricted == threads; }
  };
  // Confines the calling process: no_new_privs, then every thread. Before ABI 8 (LANDLOCK_RESTRICT_SELF_TSYNC)
  // Landlock restricts only the calling thread; there every other thread is sent a signal (SIGRTMAX - 3, whose
  // handler stays installed) and restricts itself in the handler. A thread that blocks signals throughout gets it
  // once it unblocks them, and until then is counted unconfined in Coverage. Meant to be called once per process.
  // Throws Error when the calling thread cannot be restricted.
  Coverage restrict_self();

 private:
  void add_rules(const SandboxPolicy& policy);
  void add(const std::filesystem::path& path, PathAccess access);
  int fd_ = -1;
  int abi_ = 0;
  bool own_proc_ = false;
  std::vector<std::string> skipped_;
};

// For a child between fork and exec; async-signal-safe (system calls only). Sets no_new_privs, allows the child's own
// /proc/<pid> when allow_own_proc (the ruleset is shared with the parent, so build one ruleset per child), and
// restricts the child. Returns 0, or the errno of the step that failed.
int landlock_restrict_child(int ruleset_fd, bool allow_own_proc) noexcept;

}  // namespace judge
