// The leak watch's per-process instrument on a real GPU (judge/worker/solver_memory.hpp): NVML's figure for a
// process tree moves by what that tree allocates and frees, and by nothing another process does.
#include <gtest/gtest.h>

#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string>

#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/worker/cuda_check.hpp"
#include "judge/worker/device_buffer.hpp"
#include "judge/worker/device_info.hpp"
#include "judge/worker/solver_memory.hpp"
#include "support/test_support.hpp"

namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

// The tree of this test's process stands in for the solver's.
std::string this_gpu() {
  int device = 0;
  JUDGE_CUDA_CHECK(cudaGetDevice(&device));
  return judge::list_devices().at(static_cast<std::size_t>(device)).uuid;
}

TEST(SolverMemory, FollowsWhatTheProcessAllocatesAndFrees) {
  JUDGE_REQUIRE_GPU();
  JUDGE_CUDA_CHECK(cudaFree(nullptr));  // a context, so NVML lists this process
  judge::SolverMemory memory(this_gpu(), static_cast<int>(::getpid()));
  auto before = memory.held();
  if (!before) GTEST_SKIP() << "no per-process figure on this machine (the leak watch reads the device's): "
                            << memory.why_not();
  std::optional<std::size_t> during;
  {
    judge::DeviceBuffer block(512 * kMiB);
    during = memory.held();
  }
  auto after = memory.held();
  ASSERT_TRUE(during && after) << memory.why_not();
  EXPECT_GE(*during, *before + 512 * kMiB) << "NVML's figure did not grow by the 512 MiB just allocated";
  EXPECT_LT(*after, *during - 256 * kMiB) << "NVML's figure did not come back after cudaFree";
}

// Started as the helper below (this binary again, exec'd: CUDA does not survive a fork), a process that makes a
// context, holds 64 MiB, says so on the descriptor in JUDGE_TEST_HOLD_MEMORY_FD and waits to be killed.
[[maybe_unused]] const bool kHolderStarted = [] {
  const char* fd = std::getenv("JUDGE_TEST_HOLD_MEMORY_FD");
  if (!fd) return false;
  void* p = nullptr;
  const char ok = cudaMalloc(&p, 64 * kMiB) == cudaSuccess ? 1 : 0;
  if (::write(std::atoi(fd), &ok, 1) != 1) ::_exit(2);
  for (;;) ::pause();
}();

TEST(SolverMemory, AnotherProcessesAllocationsDoNotMoveIt) {
  JUDGE_REQUIRE_GPU();
  // The "solver" is the helper; this process is the other judge, allocating around it.
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    ::setenv("JUDGE_TEST_HOLD_MEMORY_FD", std::to_string(ready[1]).c_str(), 1);
    ::execl("/proc/self/exe", "test_solver_memory_holder", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(ready[1]);
  char byte = 0;
  const bool started = ::read(ready[0], &byte, 1) == 1;
  ::close(ready[0]);
  std::optional<std::size_t> before, during;
  std::string why;
  if (started && byte == 1) {
    judge::SolverMemory memory(this_gpu(), static_cast<int>(child));
    before = memory.held();
    if (before) {
      judge::DeviceBuffer block(1024 * kMiB);
      during = memory.held();
    }
    why = memory.why_not();
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ASSERT_TRUE(started && byte == 1) << "the helper process could not hold device memory";
  if (!before) GTEST_SKIP() << "no per-process figure on this machine (the leak watch reads the device's): " << why;
  ASSERT_TRUE(during) << why;
  EXPECT_GE(*before, 64 * kMiB) << "the helper's own 64 MiB are not in its figure";
  EXPECT_EQ(*during, *before) << "another process's 1 GiB moved the helper's figure";
}

}  // namespace
