#include "judge/core/ladder_rungs.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "judge/core/error.hpp"

namespace judge {

namespace fs = std::filesystem;

namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// Text after the comment's opening marks: "// x", "/// x", "//! x", "/** x", " * x" all give "x".
std::string_view after_marks(std::string_view s, std::string_view marks) {
  const auto at = s.find_first_not_of(marks);
  return trim(at == std::string_view::npos ? std::string_view{} : s.substr(at));
}

}  // namespace

std::vector<fs::path> find_rungs(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    JUDGE_THROW(Error, "{} is not a directory: a ladder is a folder of N_name.cu files (submissions/<challenge>/), "
                       "or name the files to compare",
                dir.string());
  static const std::regex rung(R"(^(\d+)_.*\.cu$)");
  std::vector<std::pair<unsigned long long, fs::path>> found;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    std::smatch m;
    if (entry.is_regular_file(ec) && std::regex_match(name, m, rung))
      found.emplace_back(std::stoull(m[1].str()), entry.path());
  }
  if (found.empty())
    JUDGE_THROW(Error, "{} holds no rung: a ladder's files are named N_name.cu (1_naive.cu, 2_tiled.cu, ...)",
                dir.string());
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second.filename() < b.second.filename();
  });
  std::vector<fs::path> files;
  for (auto& [n, file] : found) files.push_back(std::move(file));
  return files;
}

std::string first_comment(std::string_view source) {
  bool in_block = false;
  while (!source.empty()) {
    const auto newline = source.find('\n');
    const std::string_view line = trim(source.substr(0, newline));
    source = newline == std::string_view::npos ? std::string_view{} : source.substr(newline + 1);
    if (!in_block) {
      if (line.empty() || line.front() == '#') continue;
      if (line.rfind("//", 0) == 0) {
        if (auto text = after_marks(line, "/!"); !text.empty()) return std::string(text);
        continue;  // an empty `//` line: the text may be on the next
      }
      if (line.rfind("/*", 0) != 0) return {};  // code first: the file opens with no comment
      in_block = true;
    }
    // Inside a /* */ block: the first line with text is the idea.
    const auto end = line.find("*/");
    const std::string_view text = after_marks(line.substr(0, end), "/*!");
    if (!text.empty()) return std::string(text);
    if (end != std::string_view::npos) in_block = false;
  }
  return {};
}

std::vector<Rung> read_rungs(const std::vector<fs::path>& files) {
  std::vector<Rung> rungs;
  std::set<std::string> names;
  bool unique = true;
  for (const auto& file : files) {
    std::error_code ec;
    std::ifstream in(file, std::ios::binary);
    if (!fs::is_regular_file(file, ec) || !in)
      JUDGE_THROW(Error, "cannot read {}: check that the file exists and is readable", file.string());
    std::stringstream text;
    text << in.rdbuf();  // an empty file is a rung without an idea (and a compile error)
    rungs.push_back({file, file.stem().string(), first_comment(text.str())});
    unique = names.insert(rungs.back().name).second && unique;
  }
  if (!unique)
    for (auto& r : rungs) r.name = r.file.string();
  return rungs;
}

}  // namespace judge
