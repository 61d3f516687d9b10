#pragma once
// The worker's side of the message pipe: one JSON object per line, written with write(2) straight to the fd (no
// stdio buffer the submission could share or corrupt).
#include <nlohmann/json.hpp>

namespace judge {

class MessageChannel {
 public:
  explicit MessageChannel(int fd) : fd_(fd) {}
  // Exits the process if the judge has gone away: there is nobody left to report to.
  void send(const nlohmann::json& message) const;

 private:
  int fd_;
};

}  // namespace judge
