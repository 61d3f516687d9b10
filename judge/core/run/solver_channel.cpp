#include "judge/core/run/solver_channel.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include <sys/socket.h>
#include <unistd.h>

namespace judge {

SolverChannel::~SolverChannel() {
  if (fd_ >= 0) ::close(fd_);
}

SolverChannel::SolverChannel(SolverChannel&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), pending_(std::move(o.pending_)) {}

SolverChannel& SolverChannel::operator=(SolverChannel&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
    pending_ = std::move(o.pending_);
  }
  return *this;
}

bool SolverChannel::send(const nlohmann::json& message, const std::vector<int>& fds) const {
  std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const char* p = line.data();
  std::size_t left = line.size();
  bool first = true;
  while (left > 0) {
    iovec iov{const_cast<char*>(p), left};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    std::vector<char> control;
    if (first && !fds.empty()) {
      control.assign(CMSG_SPACE(sizeof(int) * fds.size()), 0);
      msg.msg_control = control.data();
      msg.msg_controllen = control.size();
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    ssize_t n = ::sendmsg(fd_, &msg, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    first = false;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

bool SolverChannel::receive(std::string& line, std::vector<int>* fds, std::size_t max_bytes) {
  for (;;) {
    if (auto nl = pending_.find('\n'); nl != std::string::npos) {
      line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return true;
    }
    if (pending_.size() > max_bytes) return false;
    char buffer[64 * 1024];
    ssize_t n;
    if (fds) {
      iovec iov{buffer, sizeof buffer};
      alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 64)];
      msghdr msg{};
      msg.msg_iov = &iov;
      msg.msg_iovlen = 1;
      msg.msg_control = control;
      msg.msg_controllen = sizeof control;
      n = ::recvmsg(fd_, &msg, MSG_CMSG_CLOEXEC);
      if (n > 0)
        for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
          if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
          std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
          const unsigned char* data = CMSG_DATA(c);
          for (std::size_t i = 0; i < count; ++i) {
            int fd;
            std::memcpy(&fd, data + i * sizeof(int), sizeof fd);
            fds->push_back(fd);
          }
        }
    } else {
      n = ::read(fd_, buffer, sizeof buffer);
    }
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    pending_.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace judge
