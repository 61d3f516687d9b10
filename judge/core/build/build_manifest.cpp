#include "judge/core/build/build_manifest.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "judge/core/base/error.hpp"
#include "judge/core/base/sha256.hpp"
#include "judge/core/build/verified_library.hpp"

namespace judge {

namespace fs = std::filesystem;
using nlohmann::json;

BuildManifest write_build_manifest(const fs::path& build_dir, const std::string& key) {
  const std::string bytes = read_library(build_dir / kBuildLibraryName);
  BuildManifest m{key, sha256_hex(bytes), bytes.size()};
  const fs::path file = build_dir / kBuildManifestName;
  std::ofstream out(file, std::ios::binary);
  out << json{{"key", m.key}, {"library_sha256", m.library_sha256}, {"library_bytes", m.library_bytes}}.dump(2)
      << '\n';
  if (!out) JUDGE_THROW(Error, "cannot write {}: is the disk full or the build cache read-only?", file.string());
  return m;
}

std::string check_build_manifest(const fs::path& build_dir, const std::string& key, BuildManifest& manifest) {
  const fs::path file = build_dir / kBuildManifestName;
  std::ifstream in(file, std::ios::binary);
  if (!in) return fmt::format("it has no {} (an older judge's build, or not the judge's)", kBuildManifestName);
  std::ostringstream text;
  text << in.rdbuf();
  try {
    const json j = json::parse(text.str());
    manifest = BuildManifest{j.at("key").get<std::string>(), j.at("library_sha256").get<std::string>(),
                             j.at("library_bytes").get<std::uintmax_t>()};
  } catch (const json::exception& e) {
    return fmt::format("its {} is not one the judge wrote ({})", kBuildManifestName, e.what());
  }
  if (manifest.key != key)
    return fmt::format("its {} names build {}, not {}: the directory holds another build", kBuildManifestName,
                       manifest.key, key);
  std::string bytes;
  try {
    bytes = read_library(build_dir / kBuildLibraryName);
  } catch (const Error& e) {
    return e.what();
  }
  const std::string actual = sha256_hex(bytes);
  if (actual != manifest.library_sha256 || bytes.size() != manifest.library_bytes)
    return fmt::format("its {} has SHA-256 {} ({} bytes), but the judge recorded {} ({} bytes) when it built it",
                       kBuildLibraryName, actual, bytes.size(), manifest.library_sha256, manifest.library_bytes);
  return {};
}

bool accept_cached_build(const fs::path& build_dir, const std::string& key, std::string& library_sha256,
                         std::string& note) {
  BuildManifest manifest;
  const std::string problem = check_build_manifest(build_dir, key, manifest);
  if (problem.empty()) {
    library_sha256 = manifest.library_sha256;
    return true;
  }
  std::error_code ec;
  fs::remove_all(build_dir, ec);
  note = fmt::format("the cached build {} was not used, and was built again: {}", build_dir.string(), problem);
  return false;
}

std::string publish_build(const fs::path& staging_dir, const fs::path& build_dir, const std::string& key,
                          std::string& note) {
  const BuildManifest ours = write_build_manifest(staging_dir, key);
  std::error_code ec;
  // Twice at most: a build another judge published first that is not intact is removed, and ours takes its place.
  for (int attempt = 0; attempt < 2; ++attempt) {
    fs::rename(staging_dir, build_dir, ec);
    if (!ec) return ours.library_sha256;
    std::string theirs;
    if (accept_cached_build(build_dir, key, theirs, note)) {
      fs::remove_all(staging_dir, ec);
      return theirs;
    }
  }
  fs::remove_all(staging_dir, ec);
  JUDGE_THROW(Error, "cannot publish the build {}: {} (set JUDGE_CACHE_DIR to a directory only the judge writes)",
              build_dir.string(), ec ? ec.message() : "another build kept appearing in its place");
}

}  // namespace judge
