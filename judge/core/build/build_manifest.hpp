#pragma once
// The record of a published build: manifest.json in the build's cache directory names the cache key the judge built
// it for and the SHA-256 and size of the solution.so it made. A cached build is used only when its manifest names
// the key that was looked up and the library still hashes to what was recorded; anything else (a library renamed
// over another build's, a directory swapped for another's, a build without a manifest) is not loaded but removed
// and built again. The digest travels on in BuildResult to the loader (verified_library.hpp), which checks the
// bytes it loads against it once more.
#include <cstdint>
#include <filesystem>
#include <string>

namespace judge {

inline constexpr const char* kBuildManifestName = "manifest.json";
inline constexpr const char* kBuildLibraryName = "solution.so";

struct BuildManifest {
  std::string key;             // the full cache key (SHA-256); the build's directory is named after its first half
  std::string library_sha256;  // of solution.so as the judge made it
  std::uintmax_t library_bytes = 0;
};

// Hashes build_dir/solution.so and writes build_dir/manifest.json. Throws Error naming the file when either cannot
// be read or written.
BuildManifest write_build_manifest(const std::filesystem::path& build_dir, const std::string& key);

// Reads build_dir/manifest.json and checks it against key and the library on disk. Returns the problem in a
// sentence ("its manifest.json names build X, not Y"), or an empty string with manifest filled when all is well.
std::string check_build_manifest(const std::filesystem::path& build_dir, const std::string& key,
                                 BuildManifest& manifest);

// A cache hit: true, with library_sha256 set, when the build in build_dir is intact. Otherwise removes build_dir,
// says why in note ("the cached build DIR was not used ...") and returns false, so the caller builds it again.
bool accept_cached_build(const std::filesystem::path& build_dir, const std::string& key, std::string& library_sha256,
                         std::string& note);

// Publishes a finished build: writes its manifest, then renames staging_dir to build_dir in one step, so a reader
// sees the whole build with its manifest or nothing. When another judge published the same key first, its build is
// used if intact (staging_dir is removed) and replaced otherwise. Returns the SHA-256 of the library now in
// build_dir. Throws Error naming the directory when it cannot be published.
std::string publish_build(const std::filesystem::path& staging_dir, const std::filesystem::path& build_dir,
                          const std::string& key, std::string& note);

}  // namespace judge
