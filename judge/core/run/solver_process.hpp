#pragma once
// The trusted worker's handle on the untrusted solver process (judge/solver/main.cpp): starts it sandboxed, sends it
// commands over the control channel, and reads its replies as claims to be checked.
//
// Between calls the solver is stopped (SIGSTOP) and it only runs again (SIGCONT) right before the next command, so
// none of its threads can work while the worker generates the next inputs, flushes the L2 or checks outputs: work
// cannot be moved out of a call's window on the host side. Its seccomp filter forbids creating processes, so the
// process is all there is to stop.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/core/base/error.hpp"
#include "judge/core/run/solver_channel.hpp"
#include "judge/core/sandbox/protections.hpp"

namespace judge {

struct SolverOptions {
  std::filesystem::path executable;  // judge-solver
  std::string gpu_uuid;              // the one GPU the solver may see (empty: whatever device ordinal says)
  int device = 0;                    // ordinal, when the GPU has no UUID
  bool cupti = true;                 // time calls with CUPTI (submit); off for tools that need the tools interface
  // A tool runs the worker (compute-sanitizer, Nsight Compute) and follows it into the solver through the
  // environment: the sandbox is relaxed for it (the environment passes, no uid change, no seccomp or Landlock, no
  // stopping between calls) and the protections say so. Nothing is timed or recorded in these modes.
  bool tool = false;
};

// How one command ended on the solver's side.
struct SolverReply {
  bool ok = false;
  nlohmann::json body;  // the reply line, as sent (untrusted)
  // Failures the solver reported, or its death.
  enum class Failure { none, cuda, threw, context_destroyed, solver, died } failure = Failure::none;
  int cuda_code = 0;     // whether it leaves the context unusable is the worker's call (CudaError::is_sticky)
  std::string message;  // the CUDA error's name and text, or the exception's message
  std::string where;    // for CUDA errors: where it surfaced
  std::string death;    // for died: "killed by SIGSEGV (segmentation fault)", "exited normally (code 0)", ...
  bool exited_normally = false;
  // For died, what the death most likely means, for the verdict's message ("" when its name says it all): an exit()
  // inside solve(), the worker killing a solver that closed its channel, or a SIGKILL from outside the judge (the
  // kernel's OOM killer, which takes the solver first: sandbox/process.hpp's make_expendable).
  std::string hint;
  double host_ms = 0;   // measured by the worker: command sent to reply read
};

// SolverReply::hint for a solver that ended with this wait status; killed_by_worker: the worker sent the SIGKILL.
std::string death_hint(int status, bool killed_by_worker);

class SolverProcess {
 public:
  // Starts the solver and waits for its hello (CUDA context made, sandbox applied). Throws Error naming the cause
  // when it cannot start or says it has no device.
  static SolverProcess start(const SolverOptions& options);
  // The two halves of start(): spawn() starts the process and returns at once, await_ready() waits for its hello.
  // Between them the caller does its own setup (the worker makes its CUDA context while the solver makes its own).
  static SolverProcess spawn(const SolverOptions& options);
  void await_ready();
  SolverProcess(SolverProcess&&) noexcept;
  SolverProcess& operator=(SolverProcess&&) noexcept;
  SolverProcess(const SolverProcess&) = delete;
  SolverProcess& operator=(const SolverProcess&) = delete;
  // Kills the solver (it holds nothing of the worker's that needs an orderly goodbye) and removes its scratch dir.
  ~SolverProcess();

  const std::string& timer_name() const { return timer_; }
  const std::string& timer_warning() const { return timer_warning_; }
  // What the sandbox gave this run: what the worker applied from outside and what the solver applied to itself.
  const std::vector<Protection>& protections() const { return protections_; }

  // Sends one command (fds attached) and waits for its reply. The solver runs only for the duration of this call
  // unless a tool runs it.
  SolverReply request(nlohmann::json command, const std::vector<int>& fds = {});
  // Lines read from the solver that were not the reply they waited for (whatever solve() wrote to the socket).
  int ignored_lines() const { return ignored_lines_; }
  bool alive() const { return pid_ > 0 && !dead_; }
  int pid() const { return pid_; }

  // Split halves of request() for a timed call, so the worker can bracket exactly the solver's turn with its own
  // clock: send() wakes the solver and sends, receive() waits for the reply; stop() freezes it again.
  // resume() lets it run again (a no-op when it is not stopped); send() resumes it too.
  void resume();
  bool send(nlohmann::json command, const std::vector<int>& fds = {});
  SolverReply receive();
  void stop();

 private:
  SolverProcess() = default;
  // Reaps it and says how it ended.
  SolverReply died();
  void reap(bool kill_first);

  int pid_ = -1;
  bool dead_ = false;
  bool stopped_ = false;
  bool stop_between_calls_ = true;
  int status_ = 0;
  bool killed_by_worker_ = false;  // reap() sent the SIGKILL that status_ may show
  SolverChannel channel_;
  std::int64_t seq_ = 0;
  int ignored_lines_ = 0;
  std::string timer_, timer_warning_;
  std::vector<Protection> protections_;
  std::filesystem::path scratch_;
  std::filesystem::path executable_;  // for messages
};

}  // namespace judge
