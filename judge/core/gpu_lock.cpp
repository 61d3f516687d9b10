#include "judge/core/gpu_lock.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include "judge/core/error.hpp"

namespace judge {

namespace fs = std::filesystem;

namespace {

constexpr auto kPoll = std::chrono::milliseconds(10);

// Opens (creating) the lock file, close-on-exec so that no child of the holder inherits the lock.
int open_lock_file(const fs::path& file) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0)
    JUDGE_THROW(Error, "cannot open the GPU lock file {}: {}; check that the cache directory is writable "
                "(JUDGE_CACHE_DIR chooses another)", file.string(), std::strerror(errno));
  return fd;
}

bool try_lock(int fd, const fs::path& file) {
  for (;;) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) return false;
    JUDGE_THROW(Error, "cannot lock {}: {}", file.string(), std::strerror(errno));
  }
}

std::string clock_time() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
  return buf;
}

// The holder's description replaces whatever the last holder wrote.
void write_holder(int fd, const std::string& holder) {
  const std::string text = fmt::format("{} since {}", holder, clock_time());
  if (::ftruncate(fd, 0) == 0) {
    ssize_t written = ::pwrite(fd, text.data(), text.size(), 0);
    (void)written;  // the description is advisory: a waiter without it says "another judge"
  }
}

}  // namespace

fs::path GpuLock::file_for(const fs::path& cache_dir, const std::string& gpu_key) {
  std::string key;
  for (char c : gpu_key) key += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  if (key.empty()) key = "gpu";
  return cache_dir / "gpu-locks" / (key + ".lock");
}

std::string GpuLock::holder_of(const fs::path& file) {
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buf[512];
  ssize_t n = ::pread(fd, buf, sizeof buf, 0);
  ::close(fd);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

std::optional<GpuLock> GpuLock::try_acquire(const fs::path& file, const std::string& holder) {
  int fd = open_lock_file(file);
  try {
    if (!try_lock(fd, file)) {
      ::close(fd);
      return std::nullopt;
    }
  } catch (...) {
    ::close(fd);
    throw;
  }
  write_holder(fd, holder);
  return GpuLock(fd);
}

std::optional<GpuLock> GpuLock::acquire(const fs::path& file, const std::string& holder,
                                        const std::function<void(const std::string&)>& on_wait,
                                        const std::function<bool()>& give_up) {
  const auto start = std::chrono::steady_clock::now();
  bool told = false;
  for (;;) {
    if (auto lock = try_acquire(file, holder)) {
      lock->waited_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return lock;
    }
    if (!told) {
      told = true;
      if (on_wait) on_wait(holder_of(file));
    }
    if (give_up && give_up()) return std::nullopt;
    std::this_thread::sleep_for(kPoll);
  }
}

GpuLock::GpuLock(GpuLock&& other) noexcept : fd_(other.fd_), waited_s_(other.waited_s_) { other.fd_ = -1; }

GpuLock& GpuLock::operator=(GpuLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    waited_s_ = other.waited_s_;
    other.fd_ = -1;
  }
  return *this;
}

// Closing the only descriptor of the open file releases the flock. The description stays in the file: the next
// holder overwrites it, and a waiter only reads it while the lock is held.
GpuLock::~GpuLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace judge
