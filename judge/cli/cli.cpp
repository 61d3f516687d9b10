#include "judge/cli/cli.hpp"

#include <cstdlib>

#include <unistd.h>

#include "judge/core/base/paths.hpp"

namespace judge::cli {

int& exit_code() {
  static int code = kExitOk;
  return code;
}

std::unique_ptr<Reporter> make_reporter(const GlobalOptions& g) {
  if (g.json) return make_json_reporter();
  bool color = g.color == ColorMode::always ||
               (g.color == ColorMode::automatic && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR"));
  return make_console_reporter(color);
}

std::filesystem::path challenges_root(const GlobalOptions& g) {
  return g.challenges.empty() ? default_challenges_dir() : std::filesystem::path(g.challenges);
}

int guarded(const GlobalOptions& g, const std::function<int(Reporter&)>& body) {
  auto reporter = make_reporter(g);
  try {
    return body(*reporter);
  } catch (const std::exception& e) {
    // JSON users read stdout; humans see errors on stderr.
    reporter->error(e.what(), g.json ? std::cout : std::cerr);
    return kExitError;
  }
}

}  // namespace judge::cli
