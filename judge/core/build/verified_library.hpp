#pragma once
// Load: the library a worker loads is exactly the one the judge built and hashed. The trusted side reads the built
// solution.so once, hashes those bytes against the digest recorded at build time (build_manifest.hpp), and copies
// them into a sealed memfd: no write, grow, shrink or unseal is possible any more, by anyone. The untrusted process
// gets that descriptor and dlopen()s "/proc/self/fd/N", so nothing done to the cache after the check (a rename over
// solution.so, a rewrite in place) can change what runs.
#include <filesystem>
#include <string>

#include "judge/core/base/unique_fd.hpp"

namespace judge {

// The whole file, read through one descriptor. Throws Error naming the file when it cannot be opened or read, is
// not a regular file, or is a symbolic link (the judge loads only files it wrote itself).
std::string read_library(const std::filesystem::path& so);

// A sealed, close-on-exec memfd holding so's bytes, whose SHA-256 (lowercase hex) is expected_sha256. Throws Error
// naming the file, both digests and what to do when they differ, and Error when the memfd cannot be made.
UniqueFd open_verified_library(const std::filesystem::path& so, const std::string& expected_sha256);

// The path that loads the library held by fd in the process that has fd open: "/proc/self/fd/<fd>".
std::string library_fd_path(int fd);

}  // namespace judge
