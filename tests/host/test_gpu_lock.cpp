// One timer per GPU: the lock file of a GPU admits one holder, tells a waiter who holds it, and is never held by
// the dead. The holders here are forked copies of this test process, so the test needs no GPU and no helper binary.
#include "judge/core/gpu_lock.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <string>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace judge {
namespace {

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

}  // namespace
}  // namespace judge
