#include "judge/worker/messages.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>

#include <unistd.h>

namespace judge {

void MessageChannel::send(const nlohmann::json& message) const {
  std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const char* p = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) std::_Exit(70);
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace judge
