#pragma once
// A child process the judge can always kill: its own process group, stdin from /dev/null, stdout and stderr captured
// (merged, bounded), and one extra pipe on which it sends line-delimited messages to us. The user's code only ever
// runs in such a child, so a crash, a hang or a flood of output is a verdict, never the judge's problem.
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

#include "judge/core/base/error.hpp"

namespace judge {

class ProcessError : public Error {
 public:
  using Error::Error;
};

struct ExitStatus {
  bool exited = false;  // normal exit: `code` is valid
  int code = 0;
  int signal = 0;       // killed by a signal: its number
  bool ok() const { return exited && code == 0; }
  // "exit code 3", "signal 11 (SIGSEGV: segmentation fault)", ...
  std::string describe() const;
};

// Human name of a signal, e.g. "SIGSEGV (segmentation fault)".
std::string describe_signal(int signal);

// A user and group to run as. Only root can switch to them.
struct Credentials {
  uid_t uid = 0;
  gid_t gid = 0;
};

// What the child does to itself between fork and exec, for a sandbox (sandbox/): plain data, applied with system
// calls only (the judge may have other threads, so nothing there may allocate or lock). Whatever the setup, the child
// is killed when the thread that spawned it ends (PR_SET_PDEATHSIG), also after a change of credentials (which clears
// that setting, so it is set again after them).
struct ChildSetup {
  // setgroups(0), setresgid, setresuid: the child and everything it runs own nothing of the judge's.
  std::optional<Credentials> credentials;
  bool no_new_privs = false;     // PR_SET_NO_NEW_PRIVS: no setuid binary can give privileges back
  // A Landlock ruleset (sandbox/landlock.hpp) the child restricts itself with, just before exec; implies no_new_privs.
  // With landlock_own_proc the child first adds its own /proc/<pid> to it: build one ruleset per child, since the
  // child shares it with us.
  int landlock_ruleset_fd = -1;
  bool landlock_own_proc = false;
  // Our descriptors the child inherits, each as {our fd, its number in the child}, without close-on-exec; every other
  // descriptor but stdin, stdout, stderr and the message pipe is closed. Numbers must be 3 or above and not
  // message_fd.
  std::vector<std::pair<int, int>> keep_fds;
  // setsid(): a session of its own, so no controlling terminal; otherwise only a process group of its own. Either
  // way kill_group() reaches everything it starts that stays in its group.
  bool new_session = false;
  // make_expendable() before anything else: for the children that run or compile a submission's code.
  bool expendable = false;
};

// Makes the calling process the first one the kernel's OOM killer takes (oom_score_adj 1000) and keeps it from
// writing a core file when it crashes (RLIMIT_CORE 0), for a child about to run a submission's code or compile it:
// a host-memory bomb in solve() or a template bomb in nvcc then ends itself instead of the judge or a neighbour's run,
// and a crashing solver with gigabytes of address space mapped dumps nothing. Its children inherit both. System calls
// only (async-signal-safe, for use between fork and exec); call it before a change of credentials, after which
// /proc/self is no longer the process's own to write. Best effort: without /proc nothing changes.
void make_expendable() noexcept;

struct SpawnOptions {
  std::vector<std::string> argv;                       // argv[0] is the executable's path (no PATH search)
  std::map<std::string, std::string> env;              // added to (or overriding) the judge's environment
  bool env_is_complete = false;                        // env is the child's whole environment (nothing inherited)
  std::optional<std::string> cwd;
  int message_fd = 3;                                  // the child's end of the message pipe is dup2'ed here
  std::size_t output_limit = 64 * 1024;                // bytes of merged stdout+stderr kept; the rest is counted
  ChildSetup setup;
};

class ChildProcess {
 public:
  enum class Next { line, closed, timeout };

  // fork + exec. Throws ProcessError (naming the executable and errno text) if it cannot start, including exec
  // failure in the child (reported back through a close-on-exec pipe).
  static ChildProcess spawn(const SpawnOptions& options);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Kills the process group and reaps the child if the owner did not.
  ~ChildProcess();

  // Waits until a whole message line arrives (returned without its '\n'), the child closes the message pipe
  // (closed), or the deadline passes (timeout). Captures stdout/stderr meanwhile, so a chatty child never blocks.
  Next next_message(std::string& line, std::chrono::steady_clock::time_point deadline);

  // SIGKILL to the whole process group. Safe to call more than once or after exit.
  void kill_group();

  // Drains the output pipes and reaps the child. Call after the message pipe closed or after kill_group().
  // If the child does not exit by the deadline it is killed first.
  ExitStatus wait(std::chrono::steady_clock::time_point deadline);

  // Merged stdout+stderr, at most output_limit bytes, and how many bytes beyond that were dropped.
  const std::string& output() const { return output_; }
  std::size_t output_dropped() const { return output_dropped_; }
  int pid() const { return pid_; }

 private:
  ChildProcess() = default;
  void close_all() noexcept;
  // Reads whatever is available on the output pipe (non-blocking) into output_.
  void drain_output(bool until_eof);

  int pid_ = -1;
  int message_fd_ = -1;  // our read end of the message pipe
  int output_fd_ = -1;   // our read end of the merged stdout/stderr pipe
  bool reaped_ = false;
  ExitStatus status_;
  std::string pending_;  // partial message line
  std::string output_;
  std::size_t output_limit_ = 0;
  std::size_t output_dropped_ = 0;
};

// A command run to its end, for tools that only print (nvcc, ncu --import): its exit status and merged output.
struct Captured {
  ExitStatus status;
  std::string output;      // at most options.output_limit bytes, then a line saying how many more were dropped
  bool timed_out = false;  // still running after `limit`: it was killed
};
Captured run_captured(const SpawnOptions& options, std::chrono::steady_clock::duration limit);

}  // namespace judge
