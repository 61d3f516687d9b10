#include "judge/core/base/paths.hpp"

#include <cstdlib>

#include <pwd.h>
#include <unistd.h>

namespace judge {

namespace {

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (v && *v) return std::string(v);
  return std::nullopt;
}

std::filesystem::path home() {
  if (auto h = env("HOME")) return *h;
  if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_dir) return pw->pw_dir;
  return std::filesystem::temp_directory_path();
}

// A folder the judge ships (challenges/, submissions/): $variable, else installed beside the executable, else in the
// source tree.
std::filesystem::path shared_dir(const char* variable, const char* name) {
  if (auto p = env(variable)) return *p;
  auto installed = self_path().parent_path().parent_path() / "share" / "judge" / name;
  std::error_code ec;
  if (std::filesystem::is_directory(installed, ec)) return installed;
  return std::filesystem::path(JUDGE_SOURCE_DIR) / name;
}

}  // namespace

std::filesystem::path data_dir() {
  if (auto x = env("XDG_DATA_HOME")) return std::filesystem::path(*x) / "judge";
  return home() / ".local" / "share" / "judge";
}

std::filesystem::path default_database_path() {
  if (auto p = env("JUDGE_DB")) return *p;
  return data_dir() / "leaderboard.sqlite";
}

std::filesystem::path cache_dir() {
  if (auto p = env("JUDGE_CACHE_DIR")) return *p;
  if (auto x = env("XDG_CACHE_HOME")) return std::filesystem::path(*x) / "judge";
  return home() / ".cache" / "judge";
}

std::filesystem::path self_path() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path("judge") : p;
}

std::filesystem::path default_challenges_dir() { return shared_dir("JUDGE_CHALLENGES", "challenges"); }

std::filesystem::path default_submissions_dir() { return shared_dir("JUDGE_SUBMISSIONS", "submissions"); }

std::filesystem::path worker_path() {
  if (auto p = env("JUDGE_WORKER")) return *p;
  return self_path().parent_path() / "judge-worker";
}

std::string default_user_name() {
  if (auto u = env("JUDGE_USER")) return *u;
  if (auto u = env("USER")) return *u;
  if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_name) return pw->pw_name;
  return "anonymous";
}

}  // namespace judge
