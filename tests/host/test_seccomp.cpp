// The solver's seccomp filter, installed in a forked child that then tries what a hostile submission would and what
// the CUDA driver needs: fork, exec, signals to its parent, sockets, sessions and io_uring are refused with EPERM
// (clone3 with ENOSYS); threads, raise() with a handler, AF_UNIX sockets and memfd_create still work, also on a
// thread that existed before the filter (it is installed on every thread).
#include "judge/core/sandbox/seccomp.hpp"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <csignal>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <thread>

#include <fcntl.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace judge {
namespace {

std::atomic<int> g_usr1{0};
void on_usr1(int) { ++g_usr1; }

// What each attempt gave, as "name=result" lines from the child.
std::map<std::string, std::string> attempts_under_filter() {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    auto say = [&](const char* name, const std::string& result) {
      std::string line = std::string(name) + "=" + result + "\n";
      ssize_t ignored = ::write(fds[1], line.data(), line.size());
      (void)ignored;
    };
    auto outcome = [](long r) { return r >= 0 ? std::string("ok") : std::string(std::strerror(errno)); };
    // A thread that exists before the filter: TSYNC must cover it.
    std::atomic<bool> go{false};
    std::string earlier_fork;
    std::thread earlier([&] {
      while (!go) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      pid_t p = ::fork();
      if (p == 0) ::_exit(0);
      earlier_fork = p > 0 ? "ok" : std::strerror(errno);
    });
    try {
      install_solver_filter();
    } catch (const std::exception& e) {
      say("install", e.what());
      ::_exit(1);
    }
    say("install", "ok");
    go = true;
    earlier.join();
    say("fork_on_earlier_thread", earlier_fork);

    pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    say("fork", outcome(child));
    bool thread_ran = false;
    std::thread t([&] { thread_ran = true; });
    t.join();
    say("thread", thread_ran ? "ok" : "did not run");
    say("kill_parent", outcome(::kill(::getppid(), 0)));
    say("kill_self", outcome(::kill(::getpid(), 0)));
    std::signal(SIGUSR1, on_usr1);
    ::raise(SIGUSR1);
    say("raise", g_usr1 == 1 ? "ok" : "handler did not run");
    say("socket_inet", outcome(::socket(AF_INET, SOCK_STREAM, 0)));
    say("socket_inet6", outcome(::socket(AF_INET6, SOCK_DGRAM, 0)));
    say("socket_unix", outcome(::socket(AF_UNIX, SOCK_STREAM, 0)));
    say("memfd", outcome(::syscall(SYS_memfd_create, "judge-test", 0)));
    say("mmap", outcome(::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) ==
                                MAP_FAILED
                            ? -1
                            : 0));
    say("open", outcome(::open("/proc/self/status", O_RDONLY)));
    say("clone3", outcome(::syscall(SYS_clone3, nullptr, 0)));
    say("setsid", outcome(::setsid()));
    say("execve", outcome(::execl("/bin/true", "true", static_cast<char*>(nullptr))));
    say("ptrace", outcome(::syscall(SYS_ptrace, 16 /* PTRACE_ATTACH */, ::getppid(), 0, 0)));
    say("io_uring", outcome(::syscall(SYS_io_uring_setup, 1, nullptr)));
    say("unshare", outcome(::syscall(SYS_unshare, 0x10000000 /* CLONE_NEWUSER */)));
    char c = 'x';
    say("ioctl_tiocsti", outcome(::ioctl(0, TIOCSTI, &c)));
    int available = 0;
    say("ioctl_fionread", outcome(::ioctl(fds[1], FIONREAD, &available)));
    say("perf_event_open", outcome(::syscall(SYS_perf_event_open, nullptr, 0, -1, -1, 0)));
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status << "\n" << text;
  std::map<std::string, std::string> results;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto eq = line.find('=');
    results[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return results;
}

TEST(Seccomp, RefusesWhatReachesOutsideTheProcessAndKeepsWhatCudaNeeds) {
  SeccompSupport support = seccomp_support();
  if (!support.available) GTEST_SKIP() << "no seccomp filter here: " << support.why;
  auto r = attempts_under_filter();
  const std::string eperm = std::strerror(EPERM);
  ASSERT_EQ(r["install"], "ok");
  std::map<std::string, std::string> expected = {
      {"fork_on_earlier_thread", eperm}, {"fork", eperm},         {"thread", "ok"},
      {"kill_parent", eperm},            {"kill_self", "ok"},     {"raise", "ok"},
      {"socket_inet", eperm},            {"socket_inet6", eperm}, {"socket_unix", "ok"},
      {"memfd", "ok"},                   {"mmap", "ok"},          {"open", "ok"},
      {"clone3", std::strerror(ENOSYS)}, {"setsid", eperm},       {"execve", eperm},
      {"ptrace", eperm},                 {"io_uring", eperm},     {"unshare", eperm},
      {"perf_event_open", eperm},        {"ioctl_tiocsti", eperm}, {"ioctl_fionread", "ok"},
  };
  for (const auto& [name, want] : expected) EXPECT_EQ(r[name], want) << name;
}

TEST(Seccomp, FilterFitsTheKernelsLimitAndChecksTheArchitectureFirst) {
  auto code = solver_filter(1234);
  EXPECT_LT(code.size(), 4096u);  // BPF_MAXINSNS
  ASSERT_GE(code.size(), 3u);
  EXPECT_EQ(code[0].k, offsetof(seccomp_data, arch));
  EXPECT_EQ(code[2].code, BPF_RET | BPF_K);  // a foreign architecture ends the process
  bool embeds_pid = false;
  for (const auto& insn : code) embeds_pid |= insn.code == (BPF_JMP | BPF_JEQ | BPF_K) && insn.k == 1234;
  EXPECT_TRUE(embeds_pid) << "the process's own pid is what signals may name";
}

}  // namespace
}  // namespace judge
