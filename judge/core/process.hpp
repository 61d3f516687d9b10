#pragma once
// A child process the judge can always kill: its own process group, stdin from /dev/null, stdout and stderr captured
// (merged, bounded), and one extra pipe on which it sends line-delimited messages to us. The user's code only ever
// runs in such a child, so a crash, a hang or a flood of output is a verdict, never the judge's problem.
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/error.hpp"

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

struct SpawnOptions {
  std::vector<std::string> argv;                       // argv[0] is the executable's path (no PATH search)
  std::map<std::string, std::string> env;              // added to (or overriding) the judge's environment
  std::optional<std::string> cwd;
  int message_fd = 3;                                  // the child's end of the message pipe is dup2'ed here
  std::size_t output_limit = 64 * 1024;                // bytes of merged stdout+stderr kept; the rest is counted
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
