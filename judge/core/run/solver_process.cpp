#include "judge/core/run/solver_process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/core/sandbox/policy.hpp"
#include "judge/core/sandbox/process.hpp"

extern char** environ;

namespace judge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// What the solver's environment holds: nothing of the judge's (no JUDGE_* paths, no HOME with the leaderboard under
// it), and a scratch directory as HOME and TMPDIR so that CUDA's and the submission's files land there.
std::vector<std::string> solver_environment(const SolverOptions& o, const fs::path& scratch) {
  std::vector<std::string> env;
  if (o.tool) {
    // A tool (ncu, compute-sanitizer) passes its injection through the environment and may need more of it; the
    // judge's own variables still stay behind.
    for (char** e = environ; e && *e; ++e)
      if (std::strncmp(*e, "JUDGE_", 6) != 0 && std::strncmp(*e, "HOME=", 5) != 0 &&
          std::strncmp(*e, "TMPDIR=", 7) != 0 && std::strncmp(*e, "CUDA_VISIBLE_DEVICES=", 21) != 0)
        env.emplace_back(*e);
  } else {
    env.emplace_back("PATH=/usr/bin:/bin");
    env.emplace_back("LANG=C");
  }
  env.push_back("HOME=" + scratch.string());
  env.push_back("TMPDIR=" + scratch.string());
  env.push_back("CUDA_CACHE_PATH=" + (scratch / "nv-cache").string());
  env.push_back("JUDGE_SOLVER_SCRATCH=" + scratch.string());
  if (o.tool) env.push_back("JUDGE_SOLVER_TOOL=1");
  // One GPU, named by its UUID so that the numbering of CUDA_VISIBLE_DEVICES in the judge's environment does not
  // matter.
  if (!o.gpu_uuid.empty()) env.push_back("CUDA_VISIBLE_DEVICES=" + o.gpu_uuid);
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (auto& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// `fd` itself if it is above the numbers the solver's descriptors get (3 and 4), else a close-on-exec copy above them
// (the original closed); -1, errno set, if `fd` is -1 or the copy fails.
int above_child_fds(int fd) {
  if (fd < 0 || fd > 4) return fd;
  const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 5);
  const int error = errno;
  ::close(fd);
  errno = error;
  return high;
}

fs::path make_scratch(const std::optional<Credentials>& owner) {
  std::string pattern = (fs::temp_directory_path() / "judge-solver-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    JUDGE_THROW(Error, "cannot create the solver's scratch directory under {}: {} (set TMPDIR to a writable place)",
                fs::temp_directory_path().string(), std::strerror(errno));
  if (owner) give_to(pattern, *owner);
  return pattern;
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) {
    int code = WEXITSTATUS(status);
    return code == 0 ? "exited normally (code 0)" : fmt::format("exited with code {}", code);
  }
  if (WIFSIGNALED(status)) return "was killed by " + describe_signal(WTERMSIG(status));
  return fmt::format("ended with status {}", status);
}

}  // namespace

std::string death_hint(int status, bool killed_by_worker) {
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "did solve() call exit()?";
  if (!WIFSIGNALED(status)) return "";
  switch (WTERMSIG(status)) {
    case SIGKILL:
      return killed_by_worker
                 ? "it closed its control channel (descriptor 3) without ending, so the worker killed it"
                 : "nothing in the judge sends SIGKILL during a call; the kernel's OOM killer does, and it takes the "
                   "submission's process first when the machine runs out of memory: does solve() allocate host "
                   "memory without bound?";
    case SIGSYS:
      return "a system call of another architecture (32-bit int 0x80), which the sandbox does not allow";
    default:
      return "";
  }
}

SolverProcess SolverProcess::start(const SolverOptions& o) {
  SolverProcess s = spawn(o);
  s.await_ready();
  return s;
}

SolverProcess SolverProcess::spawn(const SolverOptions& o) {
  const bool tool = o.tool;
  // Who the solver runs as (policy.hpp): nobody when the judge is root. A tool that must inject into it keeps ours.
  const std::optional<Credentials> as = tool ? std::nullopt : solver_credentials();
  const bool drop = as.has_value();
  const uid_t uid = drop ? as->uid : 0;
  const gid_t gid = drop ? as->gid : 0;
  SolverProcess s;
  s.stop_between_calls_ = !tool;
  s.scratch_ = make_scratch(as);

  std::vector<std::string> args;
  for (const std::string& a : {o.executable.string(), std::string("--control-fd"), std::string("3"),
                               std::string("--device"), std::to_string(o.gpu_uuid.empty() ? o.device : 0)})
    args.push_back(a);
  if (!o.cupti) args.push_back("--no-cupti");
  std::vector<std::string> env = solver_environment(o, s.scratch_);
  std::vector<char*> argv = c_strings(args), envp = c_strings(env);

  // Opened as the worker: the solver's uid may not be able to reach the build tree (under /root, say), but it can
  // run the file it is handed.
  // Both descriptors the child moves to 3 and 4 are first put above them: a process with 3 free (a test run from a
  // shell) would otherwise get the executable as 3, which the child's dup2 of the socket onto 3 replaces.
  const int exe = above_child_fds(::open(o.executable.c_str(), O_RDONLY | O_CLOEXEC));
  if (exe < 0)
    JUDGE_THROW(Error, "cannot open the solver executable {}: {} (is the judge installed whole?)",
                o.executable.string(), std::strerror(errno));
  int sv[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 || (sv[1] = above_child_fds(sv[1])) < 0) {
    const int error = errno;
    ::close(exe);
    if (sv[0] >= 0) ::close(sv[0]);
    JUDGE_THROW(Error, "cannot create the solver's control socket: {}", std::strerror(error));
  }
  const pid_t parent = ::getpid();
  const std::string scratch = s.scratch_.string();
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(exe);
    ::close(sv[0]);
    ::close(sv[1]);
    JUDGE_THROW(Error, "cannot start the solver process: fork failed: {}", std::strerror(errno));
  }
  if (pid == 0) {
    // Async-signal-safe calls only from here to exec. First, while /proc/self is still ours to write: a memory bomb in
    // solve() takes the solver down, not the judge.
    make_expendable();
    if (::dup2(sv[1], 3) < 0) ::_exit(126);
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull < 0 || ::dup2(devnull, 0) < 0) ::_exit(126);
    // 1 and 2 stay the worker's: the judge captures what the submission prints. Nothing else is inherited, the
    // worker's message pipe to the judge in particular.
    if (::dup2(exe, 4) < 0 || ::fcntl(4, F_SETFD, FD_CLOEXEC) != 0) ::_exit(126);
    ::close_range(5, ~0u, 0);
    if (drop) {
      if (::setgroups(0, nullptr) != 0 || ::setresgid(gid, gid, gid) != 0 || ::setresuid(uid, uid, uid) != 0)
        ::_exit(125);
    }
    // After the uid change, which clears it: the worker's death is the solver's.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(126);
    if (::chdir(scratch.c_str()) != 0) ::_exit(126);
    if (!tool) ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    // A tool follows the worker into its children by the exec it sees: give it a plain execve by path.
    if (tool) ::execve(argv[0], argv.data(), envp.data());
    else ::fexecve(4, argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(exe);
  ::close(sv[1]);
  s.pid_ = pid;
  s.channel_ = SolverChannel(sv[0]);
  if (drop) s.protections_.push_back({"uid drop", true, fmt::format("the solver runs as uid {}", uid)});
  else
    s.protections_.push_back({"uid drop", false,
                              tool ? "relaxed: a tool (compute-sanitizer, Nsight Compute) must inject into the solver"
                                   : fmt::format("the judge does not run as root: the solver keeps uid {}",
                                                 ::geteuid())});
  s.protections_.push_back({"stopped between calls", s.stop_between_calls_,
                            s.stop_between_calls_ ? "SIGSTOP after each reply, SIGCONT before each command"
                                                  : "relaxed: a tool runs the solver"});
  s.protections_.push_back({"environment", true, "the solver sees none of the judge's variables or paths"});
  s.executable_ = o.executable;
  return s;
}

void SolverProcess::await_ready() {
  // The hello: the CUDA context exists and the solver confined itself.
  std::string line;
  for (;;) {
    if (!channel_.receive(line)) {
      reap(false);
      JUDGE_THROW(Error, "the solver process ({}) {} before it was ready{}", executable_.string(),
                  describe_wait_status(status_),
                  WIFEXITED(status_) && WEXITSTATUS(status_) == 127 ? " (could it be executed?)" : "");
    }
    json hello = json::parse(line, nullptr, false);
    if (!hello.is_object() || !hello.value("hello", false)) continue;
    if (hello.contains("error")) JUDGE_THROW(Error, "the solver process could not start: {}",
                                             hello["error"].get<std::string>());
    timer_ = hello.value("timer", "");
    timer_warning_ = hello.value("warning", "");
    for (const auto& p : hello.value("protections", json::array())) protections_.push_back(p.get<Protection>());
    break;
  }
  stop();
}

SolverProcess::SolverProcess(SolverProcess&& o) noexcept { *this = std::move(o); }

SolverProcess& SolverProcess::operator=(SolverProcess&& o) noexcept {
  if (this != &o) {
    std::swap(pid_, o.pid_);
    std::swap(dead_, o.dead_);
    std::swap(stopped_, o.stopped_);
    std::swap(stop_between_calls_, o.stop_between_calls_);
    std::swap(status_, o.status_);
    std::swap(channel_, o.channel_);
    std::swap(seq_, o.seq_);
    std::swap(ignored_lines_, o.ignored_lines_);
    std::swap(timer_, o.timer_);
    std::swap(timer_warning_, o.timer_warning_);
    std::swap(protections_, o.protections_);
    std::swap(scratch_, o.scratch_);
    std::swap(executable_, o.executable_);
  }
  return *this;
}

SolverProcess::~SolverProcess() {
  if (pid_ > 0 && !dead_) reap(true);
  if (!scratch_.empty()) {
    std::error_code ec;
    fs::remove_all(scratch_, ec);
  }
}

void SolverProcess::reap(bool kill_first) {
  if (pid_ <= 0 || dead_) return;
  if (!kill_first) {
    // It closed the socket: it is ending, or solve() closed fd 3 and goes on. Give it a moment to end by itself,
    // so that its own exit status (a signal, an exit code) is what the verdict names.
    ::kill(pid_, SIGCONT);
    for (int i = 0; i < 400; ++i) {
      pid_t r = ::waitpid(pid_, &status_, WNOHANG);
      if (r == pid_) {
        dead_ = true;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(i < 100 ? 1 : 5));
    }
  }
  ::kill(pid_, SIGKILL);
  killed_by_worker_ = true;
  while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
  }
  dead_ = true;
}

void SolverProcess::stop() {
  if (!stop_between_calls_ || stopped_ || dead_) return;
  if (::kill(pid_, SIGSTOP) != 0) return;
  // Wait until it has stopped, so that not one more instruction of it runs while the worker works.
  int status = 0;
  pid_t r;
  while ((r = ::waitpid(pid_, &status, WUNTRACED)) < 0 && errno == EINTR) {
  }
  if (r == pid_ && !WIFSTOPPED(status)) {
    status_ = status;
    dead_ = true;
    return;
  }
  stopped_ = true;
}

void SolverProcess::resume() {
  if (!stopped_ || dead_) return;
  ::kill(pid_, SIGCONT);
  stopped_ = false;
}

bool SolverProcess::send(json command, const std::vector<int>& fds) {
  command["seq"] = ++seq_;
  resume();
  return channel_.send(command, fds);
}

SolverReply SolverProcess::receive() {
  std::string line;
  for (;;) {
    if (!channel_.receive(line)) return died();
    json m = json::parse(line, nullptr, false);
    if (!m.is_object() || !m.contains("re") || !m["re"].is_number_integer() || m["re"].get<std::int64_t>() != seq_) {
      ++ignored_lines_;
      continue;
    }
    SolverReply r;
    r.body = m;
    r.ok = m.value("ok", false) && m["ok"].is_boolean();
    if (r.ok) return r;
    const json e = m.value("error", json::object());
    auto text = [&](const char* key, std::size_t limit) {
      // The submission's words (an exception's message) go into the verdict's message: bounded.
      const auto it = e.is_object() ? e.find(key) : e.end();
      std::string t = it != e.end() && it->is_string() ? it->get<std::string>() : "";
      return t.size() > limit ? t.substr(0, limit) + " [...]" : t;
    };
    const std::string kind = text("kind", 32);
    r.message = text("message", 2000);
    if (kind == "cuda") {
      r.failure = SolverReply::Failure::cuda;
      r.cuda_code = e.contains("code") && e["code"].is_number_integer() ? e["code"].get<int>() : 0;
      r.where = text("where", 300);
    } else if (kind == "threw") {
      r.failure = SolverReply::Failure::threw;
    } else if (kind == "context_destroyed") {
      r.failure = SolverReply::Failure::context_destroyed;
    } else {
      r.failure = SolverReply::Failure::solver;
    }
    return r;
  }
}

SolverReply SolverProcess::died() {
  reap(false);
  SolverReply r;
  r.failure = SolverReply::Failure::died;
  r.death = describe_wait_status(status_);
  r.exited_normally = WIFEXITED(status_) && WEXITSTATUS(status_) == 0;
  r.hint = death_hint(status_, killed_by_worker_);
  return r;
}

SolverReply SolverProcess::request(json command, const std::vector<int>& fds) {
  if (dead_) return died();
  auto t0 = std::chrono::steady_clock::now();
  if (!send(std::move(command), fds)) return died();
  SolverReply r = receive();
  r.host_ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3;
  stop();
  return r;
}

}  // namespace judge
