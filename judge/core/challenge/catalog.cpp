#include <cctype>
#include "judge/core/challenge/catalog.hpp"

#include <algorithm>

namespace judge {

namespace fs = std::filesystem;

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<fs::path> challenge_dirs(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    JUDGE_THROW(Error, "the challenges directory {} does not exist: pass --challenges DIR or set JUDGE_CHALLENGES",
                root.string());
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(root, ec))
    if (e.is_directory(ec) && fs::exists(e.path() / "spec.json", ec)) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

}  // namespace

std::vector<CatalogEntry> scan_challenges(const fs::path& root) {
  std::vector<CatalogEntry> out;
  for (const auto& dir : challenge_dirs(root)) {
    CatalogEntry e;
    e.dir = dir;
    try {
      e.challenge = load_challenge(dir);
    } catch (const Error& err) {
      e.error = err.what();
    }
    out.push_back(std::move(e));
  }
  return out;
}

Challenge find_challenge(const fs::path& root, const std::string& id) {
  std::error_code ec;
  // An id names one folder of the root: never a path, nor "." or ".." (which would leave the root).
  if (!id.empty() && id != "." && id != ".." && id.find('/') == std::string::npos &&
      fs::exists(root / id / "spec.json", ec))
    return load_challenge(root / id);
  // Another name of a challenge (its spec's aliases: LeetGPU's id where ours differs), matched exactly or ignoring
  // case, as LeetGPU's ids with capitals are lower-cased here.
  auto lower = [](std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  };
  for (const auto& dir : challenge_dirs(root)) {
    std::string name = dir.filename().string();
    if (lower(name) == lower(id) && name != id) return load_challenge(dir);
    try {
      Challenge c = load_challenge(dir);
      for (const auto& alias : c.aliases)
        if (lower(alias) == lower(id)) return c;
    } catch (const Error&) {
      // A broken spec is reported when it is asked for by its own name, not while looking for another.
    }
  }
  std::vector<std::string> close;
  for (const auto& dir : challenge_dirs(root)) {
    std::string name = dir.filename().string();
    if (edit_distance(name, id) <= 3 || name.find(id) != std::string::npos) close.push_back(name);
  }
  std::string hint = "run `judge list` to see them all";
  if (!close.empty()) {
    hint = "did you mean " + close.front();
    for (std::size_t i = 1; i < close.size(); ++i) hint += " or " + close[i];
    hint += "?";
  }
  JUDGE_THROW(Error, "there is no challenge '{}' in {}: {}", id, root.string(), hint);
}

}  // namespace judge
