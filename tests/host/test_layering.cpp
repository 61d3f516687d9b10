// judge/core is arranged by stage, one folder per stage (judge/core/README.md), and its includes point only down the
// pipeline: a folder includes its own files and those of the folders below it, never one above. This test reads
// every source file under judge/core and names each include that breaks the order: the file, the line, both folders.
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace judge {
namespace {

namespace fs = std::filesystem;

// The stages, bottom first. A folder may include the folders before it in this list, and no folder after it.
constexpr std::array<std::string_view, 9> kLayers = {
    "base",       // errors, file descriptors, where things live, hashing: what every stage uses
    "challenge",  // the challenge and its spec
    "sandbox",    // starting other programs, and the walls around them
    "build",      // building a submission
    "measure",    // what a run reports, and the instruments that measure it
    "run",        // running and judging a build across the trust boundary
    "store",      // the leaderboard
    "present",    // what the judge shows: console, JSON, HTML, charts
    "batch",      // many submissions at once, on this host's GPUs or a Slurm cluster
};

// Upward includes known and accepted for now, each with what removes it. Each must still be there: when the code
// no longer needs one, its line here goes too.
struct KnownUpward {
  std::string_view file;      // under judge/core
  std::string_view included;  // under judge/core
  std::string_view why;
};
constexpr std::array<KnownUpward, 0> kKnownUpward = {};

fs::path core_dir() { return judge::testing::source_dir() / "judge" / "core"; }

int rank_of(std::string_view folder) {
  auto it = std::find(kLayers.begin(), kLayers.end(), folder);
  return it == kLayers.end() ? -1 : static_cast<int>(it - kLayers.begin());
}

std::string order_text() {
  std::string s;
  for (auto layer : kLayers) s += (s.empty() ? "" : " < ") + std::string(layer);
  return s;
}

bool is_source(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".hpp" || ext == ".cpp" || ext == ".h" || ext == ".cu" || ext == ".cuh";
}

// Every source file under judge/core, as a path relative to it ("run/judging.cpp"), sorted.
std::vector<std::string> core_sources() {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(core_dir()))
    if (entry.is_regular_file() && is_source(entry.path()))
      files.push_back(entry.path().lexically_relative(core_dir()).generic_string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string folder_of(const std::string& relative) {
  auto slash = relative.find('/');
  return slash == std::string::npos ? std::string() : relative.substr(0, slash);
}

struct Include {
  int line = 0;
  std::string text;     // the line as written
  std::string target;   // under judge/core: "build/build.hpp"
};

std::vector<Include> core_includes(const fs::path& file) {
  static const std::regex kInclude(R"(^\s*#\s*include\s*["<]judge/core/([^">]+)[">])");
  std::vector<Include> found;
  std::ifstream in(file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (std::regex_search(line, m, kInclude)) found.push_back({n, line, m[1].str()});
  }
  return found;
}

bool known_upward(const std::string& file, const std::string& target) {
  return std::any_of(kKnownUpward.begin(), kKnownUpward.end(),
                     [&](const KnownUpward& k) { return k.file == file && k.included == target; });
}

TEST(Layering, FindsTheSources) {
  // A wrong path would make every other test here pass on nothing.
  EXPECT_GT(core_sources().size(), 50u) << "under " << core_dir();
}

TEST(Layering, EveryStageIsAFolderWithAReadme) {
  for (auto layer : kLayers) {
    const fs::path folder = core_dir() / std::string(layer);
    EXPECT_TRUE(fs::is_directory(folder)) << folder << " is declared in kLayers but missing";
    EXPECT_TRUE(fs::is_regular_file(folder / "README.md"))
        << folder / "README.md" << ": each stage says what it owns and which folders it may include";
  }
}

TEST(Layering, EverySourceIsInADeclaredStage) {
  for (const auto& file : core_sources()) {
    const std::string folder = folder_of(file);
    EXPECT_GE(rank_of(folder), 0) << "judge/core/" << file << " is in no stage folder (" << order_text()
                                  << "): move it into one, or declare its folder in kLayers";
  }
}

TEST(Layering, NoIncludePointsUpThePipeline) {
  for (const auto& file : core_sources()) {
    const std::string from = folder_of(file);
    const int from_rank = rank_of(from);
    if (from_rank < 0) continue;  // EverySourceIsInADeclaredStage names it
    for (const auto& inc : core_includes(core_dir() / file)) {
      const std::string to = folder_of(inc.target);
      const int to_rank = rank_of(to);
      if (to_rank < 0) {
        ADD_FAILURE() << "judge/core/" << file << ":" << inc.line << ": " << inc.text
                      << "\n  includes a file in no stage folder (" << order_text() << ")";
      } else if (to_rank > from_rank && !known_upward(file, inc.target)) {
        ADD_FAILURE() << "judge/core/" << file << ":" << inc.line << ": " << inc.text << "\n  " << from
                      << "/ includes " << to << "/, which is above it (" << order_text()
                      << "): a stage may include only itself and the stages below it";
      }
    }
  }
}

TEST(Layering, EveryKnownUpwardIncludeIsStillThere) {
  for (const auto& known : kKnownUpward) {
    const fs::path file = core_dir() / std::string(known.file);
    const auto includes = core_includes(file);
    const bool present = std::any_of(includes.begin(), includes.end(),
                                     [&](const Include& inc) { return inc.target == known.included; });
    EXPECT_TRUE(present) << "judge/core/" << known.file << " no longer includes judge/core/" << known.included
                         << ": remove its entry from kKnownUpward";
  }
}

}  // namespace
}  // namespace judge
