#include "judge/core/run/ladder_rungs.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "judge/core/base/error.hpp"

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

namespace {

// Where the first sentence of `text` ends: after a '.' that ends the text or is followed by a space and a capital
// letter ("per element of C. It reads" ends after "C."; "e.g. cuBLAS" and "0.5 ms" do not end it); npos if none.
std::size_t sentence_end(const std::string& text) {
  auto capital = [&](std::size_t i) { return i < text.size() && std::isupper(static_cast<unsigned char>(text[i])); };
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '.' && (i + 1 == text.size() || (text[i + 1] == ' ' && capital(i + 2)))) return i + 1;
  return std::string::npos;
}

// At most kMaxIdea characters, cut at a space, with an ellipsis: a run-on first sentence still fits a table cell.
constexpr std::size_t kMaxIdea = 200;

std::string shorten(std::string text) {
  if (text.size() <= kMaxIdea) return text;
  auto cut = text.rfind(' ', kMaxIdea);
  if (cut == std::string::npos || cut == 0) cut = kMaxIdea;
  while (cut > 0 && (text[cut - 1] == ',' || text[cut - 1] == ';' || text[cut - 1] == ' ')) --cut;
  return text.substr(0, cut) + "…";
}

}  // namespace

std::string first_comment(std::string_view source) {
  // The comment's lines of text, joined by spaces, until its first sentence ends, an empty comment line (a new
  // paragraph) or the comment itself ends.
  std::string text;
  bool in_block = false, in_line_comment = false;
  auto add = [&](std::string_view line_text) {  // true: the first sentence is complete
    if (line_text.empty()) return !text.empty();
    if (!text.empty()) text += ' ';
    text += line_text;
    return sentence_end(text) != std::string::npos;
  };
  while (!source.empty()) {
    const auto newline = source.find('\n');
    const std::string_view line = trim(source.substr(0, newline));
    source = newline == std::string_view::npos ? std::string_view{} : source.substr(newline + 1);
    if (in_line_comment) {
      if (line.rfind("//", 0) != 0 || add(after_marks(line, "/!"))) break;
      continue;
    }
    if (!in_block) {
      if (line.empty() || line.front() == '#') continue;
      if (line.rfind("//", 0) == 0) {
        // An empty `//` line before any text: the text may be on the next.
        if (add(after_marks(line, "/!"))) break;
        in_line_comment = !text.empty();
        continue;
      }
      if (line.rfind("/*", 0) != 0) return {};  // code first: the file opens with no comment
      in_block = true;
    }
    // Inside a /* */ block.
    const auto end = line.find("*/");
    if (add(after_marks(line.substr(0, end), "/*!"))) break;
    if (end != std::string_view::npos) {
      if (!text.empty()) break;
      in_block = false;  // an empty block (/**/): the idea may be in the next comment
    }
  }
  if (const auto at = sentence_end(text); at != std::string::npos) text.resize(at);
  return shorten(text);
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
