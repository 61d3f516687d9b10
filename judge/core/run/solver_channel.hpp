#pragma once
// The control channel between the trusted worker and the untrusted solver: one Unix stream socket, one JSON object
// per line, file descriptors (the shared buffers, the library) passed with SCM_RIGHTS alongside a line.
//
// The two ends do not trust alike. The worker's commands are the solver's only instructions. The solver's replies
// are claims: the worker reads them with a bound on their size, never accepts a file descriptor from them (read(2)
// drops any that come), and skips lines that are not a reply to the command it sent, so whatever solve() writes to
// the socket can at most be ignored.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace judge {

class SolverChannel {
 public:
  SolverChannel() = default;
  explicit SolverChannel(int fd) : fd_(fd) {}
  ~SolverChannel();
  SolverChannel(SolverChannel&& o) noexcept;
  SolverChannel& operator=(SolverChannel&& o) noexcept;
  SolverChannel(const SolverChannel&) = delete;
  SolverChannel& operator=(const SolverChannel&) = delete;

  int fd() const { return fd_; }
  // Sends one line, with `fds` attached (they stay the caller's to close). False when the other end is gone.
  bool send(const nlohmann::json& message, const std::vector<int>& fds = {}) const;
  // Reads the next line (without its '\n'); false at end of stream or on an error. Lines longer than max_bytes are
  // an error (false). With keep_fds, descriptors that arrive are appended to `fds` (the solver's end, receiving
  // from the trusted worker); otherwise the kernel closes them on arrival.
  bool receive(std::string& line, std::vector<int>* fds = nullptr, std::size_t max_bytes = kMaxLine);
  // Whether a whole line is already buffered (it was read together with the previous one).
  bool has_buffered_line() const { return pending_.find('\n') != std::string::npos; }

  static constexpr std::size_t kMaxLine = 8u << 20;

 private:
  int fd_ = -1;
  std::string pending_;
};

}  // namespace judge
