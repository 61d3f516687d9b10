#pragma once
// The judge's error type. Its message is a sentence for the user: it names the file, field, command or CUDA error
// involved and says what to do about it. Developers get file:line through JUDGE_THROW in debug output only.
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace judge {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

#define JUDGE_THROW(ExceptionType, ...) throw ExceptionType(fmt::format(__VA_ARGS__))

}  // namespace judge
