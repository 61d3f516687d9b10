#include "judge/core/sandbox/process.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/core/sandbox/landlock.hpp"

namespace judge {

namespace {

using Clock = std::chrono::steady_clock;

// A message line longer than this is returned cut at this length; the bytes after it arrive as further lines. The
// worker's messages are small JSON objects, so such a line is already a protocol error for the caller, and the cap
// keeps a child that never writes '\n' from growing our memory without bound.
constexpr std::size_t kMaxMessageLine = 16u << 20;
constexpr std::size_t kReadChunk = 64u << 10;
// A final drain after the group is dead reads at most this many chunks: more than any pipe can hold, yet finite
// should a process that escaped the group keep writing.
constexpr int kFinalDrainChunks = 32;
// Without a pidfd to poll, wait() looks for the child's exit this often.
constexpr int kExitPollMs = 10;

// ---------------------------------------------------------------------------------------------------------------
// Signals

struct SignalName {
  int signal;
  std::string_view name;
  std::string_view text;
};
// Worded for a reader of a verdict; the C library's strsignal texts ("Aborted", "Killed") say less.
constexpr std::array<SignalName, 16> kSignals{{
    {SIGSEGV, "SIGSEGV", "segmentation fault"},
    {SIGABRT, "SIGABRT", "abort"},
    {SIGKILL, "SIGKILL", "killed"},
    {SIGFPE, "SIGFPE", "arithmetic error"},
    {SIGBUS, "SIGBUS", "bus error"},
    {SIGILL, "SIGILL", "illegal instruction"},
    {SIGTERM, "SIGTERM", "terminated"},
    {SIGINT, "SIGINT", "interrupted"},
    {SIGHUP, "SIGHUP", "hangup"},
    {SIGQUIT, "SIGQUIT", "quit"},
    {SIGPIPE, "SIGPIPE", "broken pipe"},
    {SIGTRAP, "SIGTRAP", "trace trap"},
    {SIGSYS, "SIGSYS", "bad system call"},
    {SIGXCPU, "SIGXCPU", "CPU time limit exceeded"},
    {SIGXFSZ, "SIGXFSZ", "file size limit exceeded"},
    {SIGALRM, "SIGALRM", "alarm clock"},
}};

std::pair<std::string, std::string> signal_name_and_text(int signal) {
  for (const auto& s : kSignals)
    if (s.signal == signal) return {std::string(s.name), std::string(s.text)};
  std::string name;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  if (const char* abbrev = sigabbrev_np(signal)) name = std::string("SIG") + abbrev;
#endif
  if (name.empty()) name = fmt::format("signal {}", signal);
  const char* text = strsignal(signal);
  return {name, text ? text : "unknown signal"};
}

// ---------------------------------------------------------------------------------------------------------------
// File descriptors

void close_fd(int& fd) noexcept {
  if (fd >= 0) ::close(fd);  // never retried on EINTR: on Linux the descriptor is gone either way
  fd = -1;
}

struct Pipe {
  int read = -1;
  int write = -1;
  Pipe() = default;
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    close_fd(read);
    close_fd(write);
  }
};

// Close-on-exec from birth, so that a child another thread spawns meanwhile cannot inherit our ends.
void open_pipe(Pipe& p, const std::string& path) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    JUDGE_THROW(ProcessError, "cannot start {}: cannot create a pipe: {}", path, std::strerror(errno));
  p.read = fds[0];
  p.write = fds[1];
}

void set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// One non-blocking read of up to kReadChunk bytes. Returns how many arrived: 0 when nothing is there now, or when the
// pipe reached end of file or failed, in which case `fd` is closed and set to -1.
std::size_t read_chunk(int& fd, char* buffer) noexcept {
  for (;;) {
    ssize_t n = ::read(fd, buffer, kReadChunk);
    if (n > 0) return static_cast<std::size_t>(n);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) close_fd(fd);
    return 0;
  }
}

int ceil_ms_until(Clock::time_point deadline, Clock::time_point now) {
  if (now >= deadline) return 0;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
  return ms > INT_MAX ? INT_MAX : static_cast<int>(ms);
}

ExitStatus decode_wait_status(int status) {
  ExitStatus s;
  if (WIFEXITED(status)) {
    s.exited = true;
    s.code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    s.signal = WTERMSIG(status);
  }
  return s;
}

// Blocks until the child is reaped. If someone else reaped it (SIGCHLD ignored in the judge makes the kernel do
// so), the status is unknown and stays empty rather than failing.
ExitStatus reap(pid_t pid) noexcept {
  int status = 0;
  for (;;) {
    pid_t r = ::waitpid(pid, &status, 0);
    if (r == pid) return decode_wait_status(status);
    if (r < 0 && errno == EINTR) continue;
    return {};
  }
}

// True once the child has terminated, without reaping it: its zombie keeps the pid (and so the process group id)
// from being reused, so the group can still be killed safely.
bool has_exited(pid_t pid) noexcept {
  siginfo_t info;
  std::memset(&info, 0, sizeof info);
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno != EINTR;
  return info.si_pid != 0;
}

// A descriptor that becomes readable when the child terminates (Linux 5.3+), or -1.
int open_pidfd(pid_t pid) noexcept {
#ifdef SYS_pidfd_open
  long fd = ::syscall(SYS_pidfd_open, pid, 0);
  if (fd >= 0) {
    ::fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
    return static_cast<int>(fd);
  }
#else
  (void)pid;
#endif
  return -1;
}

// ---------------------------------------------------------------------------------------------------------------
// The child's side, between fork and exec. The judge may have other threads, so only async-signal-safe calls
// (plain system calls) are allowed here: no allocation, no locks, no stdio.

enum class ChildStage : int { setup, credentials, session, chdir, landlock, exec };
struct ChildFailure {
  ChildStage stage;
  int error;
};

struct ChildPlan {
  const char* path;
  char* const* argv;
  char* const* envp;
  const char* cwd;  // or null
  int message_fd;
  int message_write;
  int output_write;
  int exec_error_write;
  pid_t parent;  // the judge, whose death must take the child with it
  const ChildSetup* setup;
  // Allocated by the parent: keep_fds ordered by their number in the child; room for each source's moved copy; the
  // descriptors to keep (0, 1, 2, message_fd and the keep_fds numbers, ascending) with two free slots at the end.
  const std::pair<int, int>* keep_fds;
  int keep_fd_count;
  int* moved_sources;
  int* keep;
  int keep_count;
};

[[noreturn]] void report_and_exit(int fd, ChildStage stage) noexcept {
  ChildFailure failure{stage, errno};
  // One small write is atomic on a pipe; the parent holds the read end open until it has read this.
  ssize_t ignored = ::write(fd, &failure, sizeof failure);
  (void)ignored;
  ::_exit(127);
}

bool kept(int fd, const int* keep, int n) noexcept {
  for (int i = 0; i < n; ++i)
    if (keep[i] == fd) return true;
  return false;
}

// Closes every descriptor except `keep` (ascending). close_range where the kernel has it; otherwise the entries of
// /proc/self/fd read with getdents64 (opendir would allocate); otherwise every number below the descriptor limit.
void close_fds_except(const int* keep, int n) noexcept {
#ifdef SYS_close_range
  {
    bool ok = true;
    unsigned lo = 0;
    for (int i = 0; i < n && ok; ++i) {
      unsigned k = static_cast<unsigned>(keep[i]);
      if (k > lo) ok = ::syscall(SYS_close_range, lo, k - 1, 0) == 0;
      lo = k + 1;
    }
    if (ok && ::syscall(SYS_close_range, lo, ~0u, 0) == 0) return;
  }
#endif
#ifdef SYS_getdents64
  int dir = ::open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    alignas(8) char buffer[4096];
    for (;;) {
      long got = ::syscall(SYS_getdents64, dir, buffer, sizeof buffer);
      if (got <= 0) break;
      for (long offset = 0; offset < got;) {
        // struct linux_dirent64: u64 d_ino, s64 d_off, u16 d_reclen, u8 d_type, char d_name[]
        const char* entry = buffer + offset;
        unsigned short reclen;
        std::memcpy(&reclen, entry + 16, sizeof reclen);
        const char* name = entry + 19;
        int fd = 0;
        bool numeric = *name != '\0';
        for (const char* c = name; *c; ++c) {
          if (*c < '0' || *c > '9') {
            numeric = false;
            break;
          }
          fd = fd * 10 + (*c - '0');
        }
        if (numeric && fd != dir && !kept(fd, keep, n)) ::close(fd);
        offset += reclen;
      }
    }
    ::close(dir);
    return;
  }
#endif
  struct rlimit limit;
  int max_fd = 65536;
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < 65536u)
    max_fd = static_cast<int>(limit.rlim_cur);
  for (int fd = 0; fd < max_fd; ++fd)
    if (!kept(fd, keep, n)) ::close(fd);
}

}  // namespace

void make_expendable() noexcept {
  const int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    static constexpr char kMost[] = "1000";
    [[maybe_unused]] const ssize_t written = ::write(fd, kMost, sizeof kMost - 1);
    ::close(fd);
  }
  const struct rlimit none = {0, 0};
  ::setrlimit(RLIMIT_CORE, &none);
}

namespace {

[[noreturn]] void run_child(const ChildPlan& plan) noexcept {
  // Handlers and ignored signals of the judge are not the submission's business; the mask was blocked by the parent
  // around fork so that none of its handlers can run here, and is cleared just before exec.
  struct sigaction default_action;
  std::memset(&default_action, 0, sizeof default_action);
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  for (int s = 1; s < NSIG; ++s)
    if (s != SIGKILL && s != SIGSTOP) ::sigaction(s, &default_action, nullptr);

  const ChildSetup& setup = *plan.setup;
  if (setup.expendable) make_expendable();
  // Groups first: once the uid is not root, the gid can no longer change.
  if (setup.credentials) {
    const Credentials& c = *setup.credentials;
    if (::setgroups(0, nullptr) != 0 || ::setresgid(c.gid, c.gid, c.gid) != 0 || ::setresuid(c.uid, c.uid, c.uid) != 0)
      report_and_exit(plan.exec_error_write, ChildStage::credentials);
  }

  // Its own group, so that kill_group reaches whatever it forks (the parent does the same, whichever runs first); or
  // its own session, which also makes it a group of its own (then only the child does it: setsid fails in a process
  // that already leads a group).
  if (setup.new_session) {
    if (::setsid() < 0) report_and_exit(plan.exec_error_write, ChildStage::session);
  } else {
    ::setpgid(0, 0);
  }

  // A judge killed outright (SIGKILL, OOM) cannot kill its worker: the kernel does it instead. An orphaned worker
  // would otherwise go on running a hung solve() and holding the GPU, and its timing lock, for ever. The signal
  // follows the thread that forked: ChildProcess's owner waits for the child before that thread ends. If the judge
  // died before this line, nobody would send it: exit now. After the credentials: changing them clears it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != plan.parent) ::_exit(127);

  // Move our descriptors above every target number first, so that no dup2 below can clobber a source or be a no-op
  // that leaves close-on-exec set (a descriptor may already have the target number).
  int floor = plan.message_fd + 1;
  for (int i = 0; i < plan.keep_fd_count; ++i)
    if (plan.keep_fds[i].second >= floor) floor = plan.keep_fds[i].second + 1;
  int exec_error = ::fcntl(plan.exec_error_write, F_DUPFD_CLOEXEC, floor);
  if (exec_error < 0) report_and_exit(plan.exec_error_write, ChildStage::setup);
  int output = ::fcntl(plan.output_write, F_DUPFD_CLOEXEC, floor);
  int message = ::fcntl(plan.message_write, F_DUPFD_CLOEXEC, floor);
  if (output < 0 || message < 0) report_and_exit(exec_error, ChildStage::setup);
  int landlock = -1;
  if (setup.landlock_ruleset_fd >= 0) {
    landlock = ::fcntl(setup.landlock_ruleset_fd, F_DUPFD_CLOEXEC, floor);
    if (landlock < 0) report_and_exit(exec_error, ChildStage::landlock);
  }
  for (int i = 0; i < plan.keep_fd_count; ++i) {
    plan.moved_sources[i] = ::fcntl(plan.keep_fds[i].first, F_DUPFD_CLOEXEC, floor);
    if (plan.moved_sources[i] < 0) report_and_exit(exec_error, ChildStage::setup);
  }

  int null = ::open("/dev/null", O_RDONLY);
  if (null < 0) report_and_exit(exec_error, ChildStage::setup);
  if (null != 0 && ::dup2(null, 0) < 0) report_and_exit(exec_error, ChildStage::setup);
  if (::dup2(output, 1) < 0 || ::dup2(output, 2) < 0 || ::dup2(message, plan.message_fd) < 0)
    report_and_exit(exec_error, ChildStage::setup);
  for (int i = 0; i < plan.keep_fd_count; ++i)
    if (::dup2(plan.moved_sources[i], plan.keep_fds[i].second) < 0) report_and_exit(exec_error, ChildStage::setup);

  // Ascending: the parent's list is below `floor`, exec_error and then the ruleset were duplicated above it in turn.
  int keep_count = plan.keep_count;
  plan.keep[keep_count++] = exec_error;
  if (landlock >= 0) plan.keep[keep_count++] = landlock;
  close_fds_except(plan.keep, keep_count);

  if (plan.cwd && ::chdir(plan.cwd) != 0) report_and_exit(exec_error, ChildStage::chdir);

  if (setup.no_new_privs && ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    report_and_exit(exec_error, ChildStage::setup);
  // Last, so that everything above may still open what it needs (/dev/null, the working directory).
  if (landlock >= 0) {
    int error = landlock_restrict_child(landlock, setup.landlock_own_proc);
    ::close(landlock);
    if (error != 0) {
      errno = error;
      report_and_exit(exec_error, ChildStage::landlock);
    }
  }

  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::execve(plan.path, plan.argv, plan.envp);
  report_and_exit(exec_error, ChildStage::exec);
}

std::vector<std::string> child_environment(const std::map<std::string, std::string>& additions, bool complete,
                                           const std::string& path) {
  std::vector<std::string> env;
  for (char** entry = environ; !complete && entry && *entry; ++entry) {
    std::string_view e(*entry);
    auto name = e.substr(0, e.find('='));
    if (additions.count(std::string(name)) == 0) env.emplace_back(e);
  }
  for (const auto& [name, value] : additions) {
    if (name.empty() || name.find('=') != std::string::npos)
      JUDGE_THROW(ProcessError, "cannot start {}: '{}' is not a valid environment variable name", path, name);
    env.push_back(name + "=" + value);
  }
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (auto& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

// -------------------------------------------------------------------------------------------------------------------

std::string describe_signal(int signal) {
  auto [name, text] = signal_name_and_text(signal);
  return fmt::format("{} ({})", name, text);
}

std::string ExitStatus::describe() const {
  if (exited) return fmt::format("exit code {}", code);
  if (signal != 0) {
    auto [name, text] = signal_name_and_text(signal);
    return fmt::format("signal {} ({}: {})", signal, name, text);
  }
  return "unknown exit status";
}

ChildProcess ChildProcess::spawn(const SpawnOptions& options) {
  if (options.argv.empty()) JUDGE_THROW(ProcessError, "cannot start a process: no executable was given");
  const std::string& path = options.argv[0];
  if (options.message_fd < 3)
    JUDGE_THROW(ProcessError, "cannot start {}: message_fd {} would replace stdin, stdout or stderr; use 3 or above",
                path, options.message_fd);

  // Everything the child touches is built now: after fork it may not allocate. (We only ever read from our pipe
  // ends, so nothing here can raise SIGPIPE in the judge whatever the child closes.)
  std::vector<std::string> argv_strings = options.argv;
  std::vector<char*> argv = c_strings(argv_strings);
  std::vector<std::string> env_strings = child_environment(options.env, options.env_is_complete, path);
  std::vector<char*> envp = c_strings(env_strings);

  const ChildSetup& setup = options.setup;
  std::vector<std::pair<int, int>> keep_fds = setup.keep_fds;
  std::sort(keep_fds.begin(), keep_fds.end(), [](auto& a, auto& b) { return a.second < b.second; });
  std::vector<int> keep = {0, 1, 2, options.message_fd};
  for (std::size_t i = 0; i < keep_fds.size(); ++i) {
    auto [from, to] = keep_fds[i];
    if (from < 0 || to < 3 || to == options.message_fd || (i > 0 && keep_fds[i - 1].second == to))
      JUDGE_THROW(ProcessError,
                  "cannot start {}: descriptor {} cannot be passed as {}: use a number of 3 or above, once, other "
                  "than the message pipe's {}",
                  path, from, to, options.message_fd);
    keep.push_back(to);
  }
  std::sort(keep.begin(), keep.end());
  const int keep_count = static_cast<int>(keep.size());
  keep.resize(keep.size() + 2);  // the child adds its exec-error pipe and the Landlock ruleset
  std::vector<int> moved_sources(keep_fds.size());

  Pipe message, output, exec_error;
  open_pipe(message, path);
  open_pipe(output, path);
  open_pipe(exec_error, path);

  ChildPlan plan{path.c_str(),        argv.data(),          envp.data(),
                 options.cwd ? options.cwd->c_str() : nullptr,
                 options.message_fd, message.write,        output.write,
                 exec_error.write,   ::getpid(),           &setup,
                 keep_fds.data(),    static_cast<int>(keep_fds.size()),
                 moved_sources.data(), keep.data(),        keep_count};

  sigset_t all, previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  pid_t pid = ::fork();
  if (pid == 0) run_child(plan);
  int fork_error = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (pid < 0) JUDGE_THROW(ProcessError, "cannot start {}: fork failed: {}", path, std::strerror(fork_error));

  // From here on the object owns the child: any throw below kills and reaps it in the destructor.
  ChildProcess child;
  child.pid_ = pid;
  child.output_limit_ = options.output_limit;
  // Also done by the child; whoever is first wins, so kill_group works as soon as we return. Not for a new session,
  // which the child makes itself and which a group made here first would forbid.
  if (!setup.new_session) ::setpgid(pid, pid);
  close_fd(message.write);
  close_fd(output.write);
  close_fd(exec_error.write);
  child.message_fd_ = std::exchange(message.read, -1);
  child.output_fd_ = std::exchange(output.read, -1);
  set_nonblocking(child.message_fd_);
  set_nonblocking(child.output_fd_);

  // End of file here means exec succeeded (the write end was close-on-exec); a record means the child failed.
  ChildFailure failure;
  std::size_t got = 0;
  while (got < sizeof failure) {
    ssize_t n = ::read(exec_error.read, reinterpret_cast<char*>(&failure) + got, sizeof failure - got);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  if (got == 0) return child;
  if (got != sizeof failure)
    JUDGE_THROW(ProcessError, "cannot start {}: the child failed before exec without saying why", path);
  const char* reason = std::strerror(failure.error);
  switch (failure.stage) {
    case ChildStage::credentials:
      JUDGE_THROW(ProcessError, "cannot start {}: cannot switch to uid {} gid {}: {} (only root can change them)", path,
                  setup.credentials->uid, setup.credentials->gid, reason);
    case ChildStage::session:
      JUDGE_THROW(ProcessError, "cannot start {}: cannot give it a session of its own: {}", path, reason);
    case ChildStage::landlock:
      JUDGE_THROW(ProcessError, "cannot start {}: cannot restrict it with Landlock: {}", path, reason);
    case ChildStage::chdir:
      JUDGE_THROW(ProcessError, "cannot start {}: cannot enter working directory {}: {}", path, *options.cwd, reason);
    case ChildStage::setup:
      JUDGE_THROW(ProcessError,
                  "cannot start {}: cannot set up its standard streams, message pipe (fd {}), inherited descriptors "
                  "or no_new_privs: {}",
                  path, options.message_fd, reason);
    case ChildStage::exec:
      break;
  }
  JUDGE_THROW(ProcessError, "cannot start {}: {}", path, reason);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept { *this = std::move(other); }

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this == &other) return *this;
  close_all();
  pid_ = std::exchange(other.pid_, -1);
  message_fd_ = std::exchange(other.message_fd_, -1);
  output_fd_ = std::exchange(other.output_fd_, -1);
  reaped_ = std::exchange(other.reaped_, false);
  status_ = std::exchange(other.status_, ExitStatus{});
  pending_ = std::exchange(other.pending_, std::string{});
  output_ = std::exchange(other.output_, std::string{});
  output_limit_ = std::exchange(other.output_limit_, 0);
  output_dropped_ = std::exchange(other.output_dropped_, 0);
  return *this;
}

ChildProcess::~ChildProcess() { close_all(); }

// Releases everything this object owns: a child not yet reaped is killed with its group and reaped (so no zombie and
// no stray grandchild outlives us), and our pipe ends are closed. The captured output stays readable.
void ChildProcess::close_all() noexcept {
  if (pid_ > 0 && !reaped_) {
    kill_group();
    status_ = reap(pid_);
    reaped_ = true;
  }
  close_fd(message_fd_);
  close_fd(output_fd_);
}

void ChildProcess::kill_group() {
  // Once reaped, the pid may belong to someone else: never signal it again.
  if (pid_ <= 0 || reaped_) return;
  ::kill(-pid_, SIGKILL);
  // The child may have left its group (setpgid); the group kill then misses it.
  ::kill(pid_, SIGKILL);
}

// until_eof = false: one read, so that a flood of output cannot starve the message pipe. until_eof = true: all that
// is buffered now (until the pipe would block or reaches end of file), bounded in case a writer outside the group
// keeps it full. Never blocks.
void ChildProcess::drain_output(bool until_eof) {
  char buffer[kReadChunk];
  for (int chunk = 0; output_fd_ >= 0 && chunk < (until_eof ? kFinalDrainChunks : 1); ++chunk) {
    std::size_t got = read_chunk(output_fd_, buffer);
    if (got == 0) return;
    std::size_t keep = output_.size() < output_limit_ ? std::min(got, output_limit_ - output_.size()) : 0;
    output_.append(buffer, keep);
    output_dropped_ += got - keep;
  }
}

// A line still unterminated when the pipe closes is dropped: the child died mid-message, and its exit status says
// more than half a JSON object would.
ChildProcess::Next ChildProcess::next_message(std::string& line, Clock::time_point deadline) {
  std::size_t scanned = 0;  // pending_[0, scanned) holds no '\n'
  bool last_look = false;
  for (;;) {
    std::size_t newline = pending_.find('\n', scanned);
    if (newline != std::string::npos || pending_.size() >= kMaxMessageLine) {
      std::size_t length = newline != std::string::npos ? newline : kMaxMessageLine;
      line.assign(pending_, 0, length);
      pending_.erase(0, newline != std::string::npos ? length + 1 : length);
      return Next::line;
    }
    scanned = pending_.size();
    if (message_fd_ < 0) {
      pending_.clear();
      return Next::closed;
    }
    if (last_look) return Next::timeout;

    // Even past the deadline, look once at what is already there.
    auto now = Clock::now();
    last_look = now >= deadline;
    pollfd fds[2] = {{message_fd_, POLLIN, 0}, {output_fd_, POLLIN, 0}};
    nfds_t count = output_fd_ >= 0 ? 2 : 1;
    int ready = ::poll(fds, count, ceil_ms_until(deadline, now));
    if (ready < 0) {
      if (errno == EINTR) continue;
      JUDGE_THROW(ProcessError, "waiting for a message from process {} failed: {}", pid_, std::strerror(errno));
    }
    if (count == 2 && fds[1].revents != 0) drain_output(false);
    if (fds[0].revents != 0) {
      char buffer[kReadChunk];
      pending_.append(buffer, read_chunk(message_fd_, buffer));
    }
  }
}

// Once the child itself has exited, its group is killed at once: nothing it started may outlive the run, and a
// leftover background process holding our output pipe would otherwise keep us waiting until the deadline. Messages
// that arrive meanwhile are read and discarded so that a child blocked on a full message pipe can still finish.
ExitStatus ChildProcess::wait(Clock::time_point deadline) {
  if (pid_ <= 0 || reaped_) return status_;
  int pidfd = open_pidfd(pid_);
  bool exited = false;
  for (;;) {
    if (!exited && has_exited(pid_)) {
      exited = true;
      kill_group();
    }
    if (exited && output_fd_ < 0) break;
    auto now = Clock::now();
    if (now >= deadline) break;

    pollfd fds[3];
    nfds_t count = 0;
    int output_slot = -1, message_slot = -1;
    if (output_fd_ >= 0) {
      output_slot = static_cast<int>(count);
      fds[count++] = {output_fd_, POLLIN, 0};
    }
    if (message_fd_ >= 0) {
      message_slot = static_cast<int>(count);
      fds[count++] = {message_fd_, POLLIN, 0};
    }
    int timeout = ceil_ms_until(deadline, now);
    if (!exited) {
      if (pidfd >= 0)
        fds[count++] = {pidfd, POLLIN, 0};
      else
        timeout = std::min(timeout, kExitPollMs);
    }
    if (::poll(fds, count, timeout) < 0) {
      if (errno == EINTR) continue;
      break;  // cannot wait any more gracefully: kill and reap below
    }
    if (output_slot >= 0 && fds[output_slot].revents != 0) drain_output(false);
    if (message_slot >= 0 && fds[message_slot].revents != 0) {
      char discarded[kReadChunk];
      read_chunk(message_fd_, discarded);
    }
  }
  close_fd(pidfd);
  if (!exited) kill_group();
  drain_output(true);
  status_ = reap(pid_);
  reaped_ = true;
  close_fd(message_fd_);
  close_fd(output_fd_);
  return status_;
}

Captured run_captured(const SpawnOptions& options, Clock::duration limit) {
  ChildProcess child = ChildProcess::spawn(options);
  auto deadline = Clock::now() + limit;
  std::string line;
  Captured c;
  // Such tools send nothing on the message pipe; this just waits for it to close (exit) or the deadline.
  while (true) {
    auto next = child.next_message(line, deadline);
    if (next == ChildProcess::Next::closed) break;
    if (next == ChildProcess::Next::timeout) {
      c.timed_out = true;
      child.kill_group();
      break;
    }
  }
  c.status = child.wait(Clock::now() + std::chrono::seconds(10));
  c.output = child.output();
  if (child.output_dropped())
    c.output += "\n[judge: " + std::to_string(child.output_dropped()) + " more bytes of output dropped]\n";
  return c;
}

}  // namespace judge
