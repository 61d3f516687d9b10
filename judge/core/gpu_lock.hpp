#pragma once
// One timer per GPU: an advisory lock per physical GPU, a file in the cache directory, held by whoever is timing on
// that GPU (the benchmark phase of `judge submit`, `judge calibrate`). Functional tests share the GPU freely; timings
// never overlap. The lock is flock(2) on an open file, so the kernel drops it when its holder exits or is killed:
// a dead holder never blocks anyone. The holder writes who it is into the file, so that a waiter can say whom it
// waits for ("judge submit by alice (pid 4242) since 12:03:05").
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace judge {

class GpuLock {
 public:
  // The lock file of one GPU: <cache>/gpu-locks/<key>.lock, where key names the physical GPU (its UUID when known,
  // so two processes that number the GPUs differently through CUDA_VISIBLE_DEVICES still share one lock).
  static std::filesystem::path file_for(const std::filesystem::path& cache_dir, const std::string& gpu_key);

  // Takes the lock if nobody holds it. holder: who takes it (the time it was taken is appended).
  // Throws Error when the lock file cannot be created or opened (the message names it and says what to do).
  static std::optional<GpuLock> try_acquire(const std::filesystem::path& file, const std::string& holder);

  // Blocks until the lock is held. If someone else holds it, on_wait is called once with their description (empty
  // when they have not written it yet); give_up is polled while waiting and ends the wait with nullopt when true.
  static std::optional<GpuLock> acquire(const std::filesystem::path& file, const std::string& holder,
                                        const std::function<void(const std::string& holder)>& on_wait,
                                        const std::function<bool()>& give_up = {});

  GpuLock(GpuLock&& other) noexcept;
  GpuLock& operator=(GpuLock&& other) noexcept;
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;
  ~GpuLock();

  // Seconds spent waiting for it (0 when it was free).
  double waited_s() const { return waited_s_; }
  // Who holds it now, as written in the file (for a waiter's message; empty when unreadable).
  static std::string holder_of(const std::filesystem::path& file);

 private:
  explicit GpuLock(int fd) : fd_(fd) {}
  int fd_ = -1;
  double waited_s_ = 0;
};

}  // namespace judge
