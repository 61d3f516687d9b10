#pragma once
// One timer per GPU: an advisory lock per physical GPU, a file in the cache directory, held by whoever is timing on
// that GPU (the benchmark phase of `judge submit`, `judge calibrate`). Functional tests share the GPU freely; timings
// never overlap. The lock is flock(2) on an open file, so the kernel drops it when its holder exits or is killed:
// a dead holder never blocks anyone. The holder writes who it is into the file, so that a waiter can say whom it
// waits for ("judge submit by alice (pid 4242) since 12:03:05").
//
// Only judge processes hold it, and a foreign holder never blocks for long: a process that is not a judge but holds
// the flock (a daemon a submission left behind that inherited the lock, anything that opened the file and locked it)
// is found out by a waiter and its lock is broken after a grace period. A holder is a judge when /proc/locks names
// the pid its record names, that pid started when the record says, and it runs a judge executable. Breaking never
// takes the file from its holder (nothing can): the lock moves on to a new file, the next generation
// (<key>.lock.1, .2, ...), created with O_EXCL so that one waiter breaks it. A holder holds the lock once it has
// locked the newest generation, written its record and then seen that generation still named and no newer one:
// so two holders at once would take a waiter judging a judge foreign for the whole grace period.
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/base/unique_fd.hpp"

namespace judge {

struct GpuLockPolicy {
  // The judge's executables: a path (compared with the holder's /proc/<pid>/exe) or a bare file name (compared with
  // its file name, so that judges built in different trees share the lock). A holder running anything else is
  // foreign.
  std::vector<std::string> judge_executables = {"judge", "judge-worker"};
  // How long a holder may look foreign before its lock is broken. A judge writes its record right after locking,
  // so this only has to cover a busy machine's scheduling delays.
  std::chrono::milliseconds grace{2000};
  // Told when a foreign holder's lock was broken, with what gave it away.
  std::function<void(const std::string& why)> on_break;
};

class GpuLock {
 public:
  // The lock file of one GPU: <cache>/gpu-locks/<key>.lock, where key names the physical GPU (its UUID when known,
  // so two processes that number the GPUs differently through CUDA_VISIBLE_DEVICES still share one lock). After a
  // foreign holder was broken the lock lives in <key>.lock.<n> beside it; callers keep passing this path.
  static std::filesystem::path file_for(const std::filesystem::path& cache_dir, const std::string& gpu_key);

  // Takes the lock if nobody holds it. holder: who takes it (the time it was taken is appended). Breaks nothing: a
  // foreign holder is found out only by watching it, which acquire() does.
  // Throws Error when the lock file cannot be created or opened (the message names it and says what to do).
  static std::optional<GpuLock> try_acquire(const std::filesystem::path& file, const std::string& holder);

  // Blocks until the lock is held. If someone else holds it, on_wait is called once with their description (empty
  // when they have not written it yet); give_up is polled while waiting and ends the wait with nullopt when true.
  // A holder that policy finds foreign for policy.grace loses the lock to this caller.
  static std::optional<GpuLock> acquire(const std::filesystem::path& file, const std::string& holder,
                                        const std::function<void(const std::string& holder)>& on_wait,
                                        const std::function<bool()>& give_up = {},
                                        const GpuLockPolicy& policy = {});

  GpuLock(GpuLock&&) noexcept = default;
  GpuLock& operator=(GpuLock&&) noexcept = default;
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;
  // Closing the only descriptor of the open file releases the flock. The record stays in the file: the next holder
  // overwrites it, and a waiter only trusts it while /proc/locks agrees.
  ~GpuLock() = default;

  // Seconds spent waiting for it (0 when it was free).
  double waited_s() const { return waited_s_; }
  // Who holds it now, as written in the file (for a waiter's message; printable characters only; empty when
  // unreadable).
  static std::string holder_of(const std::filesystem::path& file);

 private:
  explicit GpuLock(UniqueFd fd) : fd_(std::move(fd)) {}
  UniqueFd fd_;
  double waited_s_ = 0;
};

}  // namespace judge
