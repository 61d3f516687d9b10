// One timer per GPU: the lock file of a GPU admits one holder, tells a waiter who holds it, and is never held by
// the dead, nor for long by a process that is not a judge. The holders here are forked copies of this test process,
// so the test needs no GPU and no helper binary; where it must count as a judge, the waiter's policy names this
// test's executable as one.
#include "judge/core/measure/gpu_lock.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace judge {
namespace {

using judge::testing::read_file;
using judge::testing::TempDir;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// A process that takes the lock, says so on a pipe, and holds it until killed.
class Holder {
 public:
  Holder(const std::filesystem::path& file, const std::string& who) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(fds[0]);
      auto lock = GpuLock::try_acquire(file, who);
      char c = lock ? 'y' : 'n';
      if (::write(fds[1], &c, 1) != 1) ::_exit(2);
      for (;;) ::pause();
    }
    ::close(fds[1]);
    char c = 0;
    EXPECT_EQ(::read(fds[0], &c, 1), 1);
    ::close(fds[0]);
    held_ = c == 'y';
  }
  ~Holder() { kill(); }
  bool held() const { return held_; }
  void kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
  bool held_ = false;
};

TEST(GpuLock, FileNamesThePhysicalGpuAndNothingElse) {
  auto f = GpuLock::file_for("/c", "GPU-8f1c0a2e-1111-2222-3333-444455556666");
  EXPECT_EQ(f, std::filesystem::path("/c/gpu-locks/GPU-8f1c0a2e-1111-2222-3333-444455556666.lock"));
  // A key cannot climb out of the lock directory.
  EXPECT_EQ(GpuLock::file_for("/c", "../x/y").filename(), "___x_y.lock");
  EXPECT_EQ(GpuLock::file_for("/c", "").filename(), "gpu.lock");
}

TEST(GpuLock, OneHolderAtATimeAndTheWaiterLearnsWho) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  Holder alice(file, "judge submit by alice (pid 1)");
  ASSERT_TRUE(alice.held());
  EXPECT_FALSE(GpuLock::try_acquire(file, "judge submit by bob"));
  EXPECT_EQ(GpuLock::holder_of(file).rfind("judge submit by alice (pid 1) since ", 0), 0u) << GpuLock::holder_of(file);

  // acquire() tells the waiter once, and gives up when asked to.
  int told = 0;
  std::string whom;
  auto start = Clock::now();
  auto lock = GpuLock::acquire(
      file, "bob", [&](const std::string& h) { ++told, whom = h; }, [&] { return Clock::now() - start > 200ms; });
  EXPECT_FALSE(lock);
  EXPECT_EQ(told, 1);
  EXPECT_NE(whom.find("alice"), std::string::npos) << whom;
}

TEST(GpuLock, ADeadHolderBlocksNobody) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  Holder alice(file, "alice");
  ASSERT_TRUE(alice.held());
  // Killed while waiting: the kernel drops the dead holder's lock and the waiter gets it.
  std::thread killer([&] {
    std::this_thread::sleep_for(300ms);
    alice.kill();
  });
  bool told = false;
  auto start = Clock::now();
  auto lock = GpuLock::acquire(file, "bob", [&](const std::string&) { told = true; },
                               [&] { return Clock::now() - start > 30s; });
  killer.join();
  ASSERT_TRUE(lock) << "the lock of a killed holder was never released";
  EXPECT_TRUE(told);
  EXPECT_GT(lock->waited_s(), 0.2);
  EXPECT_EQ(GpuLock::holder_of(file).rfind("bob since ", 0), 0u) << GpuLock::holder_of(file);
}

TEST(GpuLock, ReleasedWhenTheHolderIsDestroyed) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  {
    auto first = GpuLock::try_acquire(file, "first");
    ASSERT_TRUE(first);
    EXPECT_EQ(first->waited_s(), 0.0);
    // Another open file description of the same file is another holder, even in this process.
    EXPECT_FALSE(GpuLock::try_acquire(file, "second"));
    GpuLock moved = std::move(*first);  // moving keeps it held
    EXPECT_FALSE(GpuLock::try_acquire(file, "second"));
  }
  EXPECT_TRUE(GpuLock::try_acquire(file, "second"));
}

TEST(GpuLock, AnUnwritableCacheIsAClearError) {
  try {
    GpuLock::try_acquire("/proc/no-such-dir/gpu-locks/x.lock", "me");
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/no-such-dir/gpu-locks/x.lock"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("JUDGE_CACHE_DIR"), std::string::npos) << e.what();
  }
}

TEST(GpuLock, TheLockDirectoryIsPrivate) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  ASSERT_TRUE(GpuLock::try_acquire(file, "me"));
  struct stat st {};
  ASSERT_EQ(::stat(file.parent_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

// A forked copy of this process that runs body (given the pipe's write end), sends what it returns on the pipe and
// then stays until killed, or exits when it should not stay.
class Forked {
 public:
  explicit Forked(const std::function<std::string(int pipe)>& body, bool stay = true) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(fds[0]);
      std::string said;
      try {
        said = body(fds[1]);
      } catch (const std::exception& e) {
        said = std::string("error: ") + e.what();
      }
      if (::write(fds[1], said.data(), said.size()) != static_cast<ssize_t>(said.size())) ::_exit(2);
      ::close(fds[1]);
      if (!stay) ::_exit(0);
      for (;;) ::pause();
    }
    ::close(fds[1]);
    char buf[512];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) said_.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    if (!stay) reap();
  }
  ~Forked() {
    if (pid_ > 0) ::kill(pid_, SIGKILL);
    reap();
  }
  const std::string& said() const { return said_; }

 private:
  void reap() {
    int status = 0;
    if (pid_ > 0) ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  pid_t pid_ = -1;
  std::string said_;
};

std::string self_exe() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

// This test process and its forks count as judges.
GpuLockPolicy this_test_is_a_judge(std::chrono::milliseconds grace) {
  GpuLockPolicy policy;
  policy.judge_executables = {self_exe()};
  policy.grace = grace;
  return policy;
}

// Locks the file as a foreign process would: flock and, instead of a judge's record, whatever it likes.
std::string lock_like_a_stranger(const std::filesystem::path& file, const std::string& contents) {
  std::filesystem::create_directories(file.parent_path());
  int fd = ::open(file.c_str(), O_RDWR | O_CREAT, 0600);  // kept open, and the lock with it, until killed
  if (fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) != 0) return "n";
  if (::pwrite(fd, contents.data(), contents.size(), 0) != static_cast<ssize_t>(contents.size())) return "n";
  return "y";
}

struct Waited {
  std::optional<GpuLock> lock;
  double seconds = 0;
  std::string told;   // what on_wait said about the holder
  std::string broke;  // what on_break said, empty when nothing was broken
};

Waited wait_for(const std::filesystem::path& file, GpuLockPolicy policy, std::chrono::milliseconds give_up_after) {
  Waited w;
  policy.on_break = [&](const std::string& why) { w.broke = why; };
  const auto start = Clock::now();
  w.lock = GpuLock::acquire(
      file, "bob", [&](const std::string& holder) { w.told = holder; },
      [&] { return Clock::now() - start > give_up_after; }, policy);
  w.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return w;
}

// A daemon left behind by an old unsandboxed run, or anything else that opened the file and locked it: it wrote no
// judge's record, so after the grace period (the default, 2 s) the waiter takes the lock from it.
TEST(GpuLock, AForeignHolderThatSaysNothingValidLosesTheLockAfterTheGracePeriod) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  Forked stranger([&](int) { return lock_like_a_stranger(file, "\033[2Jjudge submit by nobody\nno record here\n"); });
  ASSERT_EQ(stranger.said(), "y");
  EXPECT_FALSE(GpuLock::try_acquire(file, "carol")) << "try_acquire never breaks a lock";

  Waited w = wait_for(file, this_test_is_a_judge(std::chrono::milliseconds(2000)), 20s);
  ASSERT_TRUE(w.lock) << "a foreign holder blocked the waiter for 20 s";
  EXPECT_GE(w.seconds, 2.0);
  EXPECT_LT(w.seconds, 4.0) << "broken well after the grace period";
  EXPECT_EQ(w.told, "[2Jjudge submit by nobody") << "a stranger's text reaches the terminal without escapes";
  EXPECT_NE(w.broke.find("not written who it is"), std::string::npos) << w.broke;
  EXPECT_NE(w.broke.find(file.string()), std::string::npos) << w.broke;
  // Held now, against everyone else, and the record says by whom.
  EXPECT_FALSE(GpuLock::try_acquire(file, "carol"));
  EXPECT_EQ(GpuLock::holder_of(file).rfind("bob since ", 0), 0u) << GpuLock::holder_of(file);
  // Released, it is free again for the next judge, although the stranger still holds the file it locked.
  w.lock.reset();
  EXPECT_TRUE(GpuLock::try_acquire(file, "carol"));
}

// A holder writes its record just after it takes the lock: a waiter that arrives in between finds the record empty,
// and waits for it to name the holder rather than saying it waits for nobody in particular (a race seen once in the
// GPU suite's ConcurrentSubmit test).
TEST(GpuLock, AWaiterThatArrivesBeforeTheRecordStillLearnsWho) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  std::filesystem::create_directories(file.parent_path());
  int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);  // held, with no record yet
  Waited w;
  std::thread waiter([&] { w = wait_for(file, this_test_is_a_judge(std::chrono::milliseconds(5000)), 5s); });
  std::this_thread::sleep_for(150ms);
  const std::string record = "judge submit by dave since now\n";
  EXPECT_EQ(::pwrite(fd, record.data(), record.size(), 0), static_cast<ssize_t>(record.size()));
  std::this_thread::sleep_for(100ms);
  ::close(fd);  // released
  waiter.join();
  EXPECT_TRUE(w.lock);
  EXPECT_EQ(w.told, "judge submit by dave since now") << "the waiter named nobody, or not the holder";
  EXPECT_TRUE(w.broke.empty()) << w.broke;
}

TEST(GpuLock, ALiveJudgeHolderIsWaitedForBeyondTheGracePeriod) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  Holder alice(file, "judge submit by alice");
  ASSERT_TRUE(alice.held());
  Waited w = wait_for(file, this_test_is_a_judge(300ms), 1500ms);
  EXPECT_FALSE(w.lock) << "a judge's lock was broken";
  EXPECT_EQ(w.broke, "");
  EXPECT_EQ(w.told.rfind("judge submit by alice since ", 0), 0u) << w.told;
}

TEST(GpuLock, AHolderRunningAnotherExecutableIsForeign) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  Holder alice(file, "judge submit by alice");  // a valid record, but this test is no judge to this waiter
  ASSERT_TRUE(alice.held());
  GpuLockPolicy policy = this_test_is_a_judge(300ms);
  policy.judge_executables = {"judge", "judge-worker", "/nonexistent/bin/test_gpu_lock"};
  Waited w = wait_for(file, policy, 10s);
  ASSERT_TRUE(w.lock);
  EXPECT_NE(w.broke.find("not a judge executable"), std::string::npos) << w.broke;
  EXPECT_NE(w.broke.find(self_exe()), std::string::npos) << w.broke;
}

// The daemon of the issue: a submission forked while the worker held the lock, so its child inherited the locked
// file, and outlived the worker. The record names the worker, which is gone.
TEST(GpuLock, AChildThatInheritedTheLockFromADeadJudgeIsForeign) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  Forked worker(
      [&](int pipe) -> std::string {
        auto lock = GpuLock::try_acquire(file, "judge submit by mallory");
        if (!lock) return "n";
        pid_t daemon = ::fork();
        if (daemon == 0) {
          ::close(pipe);
          ::setsid();
          for (;;) ::pause();
        }
        return std::to_string(daemon);
      },
      /*stay=*/false);
  ASSERT_NE(worker.said(), "n");
  const pid_t daemon = std::stoi(worker.said());
  EXPECT_FALSE(GpuLock::try_acquire(file, "carol")) << "the daemon holds the lock";
  Waited w = wait_for(file, this_test_is_a_judge(300ms), 10s);
  ::kill(daemon, SIGKILL);
  ASSERT_TRUE(w.lock);
  EXPECT_NE(w.broke.find("has exited"), std::string::npos) << w.broke;
}

// A stranger that copies a live judge's record into the file it locked: /proc/locks says who locked it.
TEST(GpuLock, AForgedRecordNamingALiveJudgeIsForeign) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  const auto elsewhere = GpuLock::file_for(tmp.path(), "GPU-other");
  std::string forged;
  {
    auto mine = GpuLock::try_acquire(elsewhere, "judge submit by alice");  // this process: a live judge
    ASSERT_TRUE(mine);
    forged = read_file(elsewhere);
  }
  Forked stranger([&](int) { return lock_like_a_stranger(file, forged); });
  ASSERT_EQ(stranger.said(), "y");
  Waited w = wait_for(file, this_test_is_a_judge(300ms), 10s);
  ASSERT_TRUE(w.lock);
  EXPECT_NE(w.broke.find(fmt::format("names pid {}", ::getpid())), std::string::npos) << w.broke;
}

// Every waiter sees the same foreign holder and its grace period ends for all of them at once: they all try to
// break it, and still one holds the lock at a time. Each child logs when it takes and leaves the lock.
TEST(GpuLock, WaitersRacingToBreakAForeignLockNeverHoldItTogether) {
  TempDir tmp;
  const auto file = GpuLock::file_for(tmp.path(), "GPU-test");
  const auto log = tmp / "log";
  Forked stranger([&](int) { return lock_like_a_stranger(file, ""); });
  ASSERT_EQ(stranger.said(), "y");

  constexpr int kWaiters = 8;
  std::vector<pid_t> waiters;
  for (int i = 0; i < kWaiters; ++i) {
    pid_t pid = ::fork();
    if (pid == 0) {
      int code = 3;
      try {
        const auto start = Clock::now();
        auto lock = GpuLock::acquire(
            file, "waiter", {}, [&] { return Clock::now() - start > 30s; }, this_test_is_a_judge(500ms));
        code = 4;
        if (lock) {
          int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
          const std::string in = fmt::format("in {}\n", ::getpid()), out = fmt::format("out {}\n", ::getpid());
          bool ok = ::write(fd, in.data(), in.size()) == static_cast<ssize_t>(in.size());
          std::this_thread::sleep_for(20ms);
          ok = ok && ::write(fd, out.data(), out.size()) == static_cast<ssize_t>(out.size());
          code = ok ? 0 : 5;
        }
      } catch (...) {
      }
      ::_exit(code);
    }
    waiters.push_back(pid);
  }
  for (pid_t pid : waiters) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "waiter " << pid << " status " << status;
  }
  std::istringstream lines(read_file(log));
  std::string what, pid, holder;
  int held = 0;
  while (lines >> what >> pid) {
    if (what == "in") {
      EXPECT_EQ(holder, "") << pid << " took the lock while " << holder << " held it";
      holder = pid;
      ++held;
    } else {
      EXPECT_EQ(holder, pid);
      holder.clear();
    }
  }
  EXPECT_EQ(held, kWaiters);
}

}  // namespace
}  // namespace judge
