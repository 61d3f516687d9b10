// What a worker loads is exactly what the judge built and hashed: a library that changed is refused with a message
// that says what to do, the memfd handed on holds the file's bytes and can no longer be written, and dlopen() of
// /proc/self/fd/N loads it, unaffected by what happens to the file afterwards. Needs g++ for the small library it
// loads; no GPU, no nvcc.
#include "judge/core/build/verified_library.hpp"

#include <cstdlib>
#include <string>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "judge/core/base/error.hpp"
#include "judge/core/base/sha256.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

using judge::testing::read_file;
using judge::testing::TempDir;
using judge::testing::write_file;

std::string contents_of(int fd) {
  std::string bytes;
  char buf[4096];
  for (ssize_t n; (n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(bytes.size()))) > 0;)
    bytes.append(buf, static_cast<std::size_t>(n));
  return bytes;
}

// A shared object whose answer() returns value, built with g++; empty when there is no g++.
std::filesystem::path shared_object(const TempDir& dir, const std::string& name, int value) {
  const auto source = dir / (name + ".cpp");
  const auto library = dir / (name + ".so");
  write_file(source, "extern \"C\" int answer() { return " + std::to_string(value) + "; }\n");
  const std::string command = "g++ -shared -fPIC -o '" + library.string() + "' '" + source.string() + "' 2>&1";
  return std::system(command.c_str()) == 0 ? library : std::filesystem::path();
}

TEST(VerifiedLibrary, TheMemfdHoldsTheFilesBytesSealedAndCloseOnExec) {
  TempDir dir;
  std::string bytes = "\x7f" "ELF not really, but any bytes will do";
  bytes += std::string(100000, 'x');  // more than one read
  write_file(dir / "solution.so", bytes);
  UniqueFd fd = open_verified_library(dir / "solution.so", sha256_hex(bytes));
  ASSERT_TRUE(fd);
  EXPECT_EQ(contents_of(fd.get()), bytes);
  EXPECT_TRUE(::fcntl(fd.get(), F_GETFD) & FD_CLOEXEC) << "a child gets it only when it is handed on on purpose";

  const int seals = ::fcntl(fd.get(), F_GET_SEALS);
  for (int seal : {F_SEAL_SHRINK, F_SEAL_GROW, F_SEAL_WRITE, F_SEAL_SEAL}) EXPECT_TRUE(seals & seal) << seal;
  EXPECT_EQ(::pwrite(fd.get(), "y", 1, 0), -1) << "a sealed memfd took a write";
  EXPECT_EQ(errno, EPERM);
  EXPECT_NE(::ftruncate(fd.get(), 1), 0) << "a sealed memfd shrank";
  EXPECT_NE(::ftruncate(fd.get(), static_cast<off_t>(bytes.size()) + 1), 0) << "a sealed memfd grew";
  // Reopened for writing through /proc, as the process that receives it could: still sealed.
  const int again = ::open(library_fd_path(fd.get()).c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(again, 0);
  EXPECT_EQ(::pwrite(again, "y", 1, 0), -1);
  ::close(again);
  EXPECT_EQ(contents_of(fd.get()), bytes);
}

TEST(VerifiedLibrary, AChangedLibraryIsRefusedNamingTheFileBothDigestsAndWhatToDo) {
  TempDir dir;
  const auto so = dir / "builds" / "0123abcd" / "solution.so";
  write_file(so, "the library the judge built");
  const std::string recorded = sha256_hex("the library the judge built");
  write_file(so, "a library someone renamed over it");
  try {
    open_verified_library(so, recorded);
    FAIL() << "a library that changed after the build was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(so.string()), std::string::npos) << what;
    EXPECT_NE(what.find(recorded), std::string::npos) << what;
    EXPECT_NE(what.find(sha256_hex("a library someone renamed over it")), std::string::npos) << what;
    EXPECT_NE(what.find("remove the build cache entry " + so.parent_path().string()), std::string::npos) << what;
    EXPECT_NE(what.find("JUDGE_CACHE_DIR"), std::string::npos) << what;
  }
  EXPECT_THROW(open_verified_library(so, ""), Error) << "no recorded digest is no match";
}

TEST(VerifiedLibrary, OnlyARegularFileIsRead) {
  TempDir dir;
  write_file(dir / "real.so", "bytes");
  std::filesystem::create_symlink(dir / "real.so", dir / "link.so");
  EXPECT_THROW(open_verified_library(dir / "link.so", sha256_hex("bytes")), Error);
  std::filesystem::create_directory(dir / "dir.so");
  EXPECT_THROW(open_verified_library(dir / "dir.so", sha256_hex("")), Error);
  // A FIFO would block a plain open() until someone writes to it.
  ASSERT_EQ(::mkfifo((dir / "fifo.so").c_str(), 0600), 0);
  EXPECT_THROW(open_verified_library(dir / "fifo.so", sha256_hex("")), Error);
  EXPECT_THROW(open_verified_library(dir / "missing.so", sha256_hex("")), Error);
}

TEST(VerifiedLibrary, DlopenOfTheMemfdLoadsWhatWasCheckedWhateverHappensToTheFileAfterwards) {
  TempDir dir;
  const auto library = shared_object(dir, "answer", 42);
  if (library.empty()) GTEST_SKIP() << "g++ is not installed here";
  UniqueFd fd = open_verified_library(library, sha256_hex(read_file(library)));
  ASSERT_TRUE(fd);
  // Swapped on disk after the check: a rename over the file, as the cache-poisoning submission did.
  const auto other = shared_object(dir, "other", 7);
  ASSERT_FALSE(other.empty());
  std::filesystem::rename(other, library);

  void* handle = ::dlopen(library_fd_path(fd.get()).c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << ::dlerror();
  auto answer = reinterpret_cast<int (*)()>(::dlsym(handle, "answer"));
  ASSERT_NE(answer, nullptr) << ::dlerror();
  EXPECT_EQ(answer(), 42);
  ::dlclose(handle);
}

}  // namespace
}  // namespace judge
