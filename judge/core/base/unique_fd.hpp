#pragma once
// The owner of one file descriptor: closed exactly once, when the owner goes, however it goes. Move-only, so a
// descriptor handed to another process or another owner is given away with release() or a move, never shared.
#include <utility>

#include <unistd.h>

namespace judge {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const noexcept { return fd_; }
  explicit operator bool() const noexcept { return fd_ >= 0; }
  // The caller owns the descriptor from now on.
  int release() noexcept { return std::exchange(fd_, -1); }
  // close(2)'s error is dropped: on Linux the descriptor is gone either way, and retrying could close another's.
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace judge
