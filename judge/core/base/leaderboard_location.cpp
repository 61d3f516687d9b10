#include "judge/core/base/leaderboard_location.hpp"

#include <regex>

#include "judge/core/base/paths.hpp"

namespace judge {

bool is_postgres_location(std::string_view location) {
  return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0;
}

std::string display_location(const std::string& location) {
  if (!is_postgres_location(location)) return location;
  // postgresql://user:secret@host/db?password=secret&sslmode=... -> postgresql://user:***@host/db?password=***&...
  static const std::regex user_password(R"(^(postgres(?:ql)?://[^:@/?]*:)[^@/?]*@)");
  static const std::regex parameter_password(R"(([?&]password=)[^&]*)");
  std::string shown = std::regex_replace(location, user_password, "$1***@");
  return std::regex_replace(shown, parameter_password, "$1***");
}

std::filesystem::path leaderboard_local_dir(const std::string& location) {
  if (is_postgres_location(location)) return data_dir();
  return std::filesystem::path(location).parent_path();
}

std::vector<std::filesystem::path> pending_dirs(const std::string& location) {
  return {leaderboard_local_dir(location) / "pending", cache_dir() / "pending"};
}

}  // namespace judge
