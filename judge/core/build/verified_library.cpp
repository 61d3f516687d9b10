#include "judge/core/build/verified_library.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "judge/core/base/error.hpp"
#include "judge/core/base/sha256.hpp"

namespace judge {

namespace fs = std::filesystem;

namespace {

// Far above any solution.so nvcc makes (a few MiB with its fatbin), low enough that a file swapped for something
// huge is refused before it is read into memory.
constexpr off_t kMaxLibraryBytes = off_t{1} << 30;

// Linux 6.3+: a memfd that can never be made executable (it needs no exec permission: dlopen maps it, it does not
// execve it). Asking for it keeps memfd_create working where vm.memfd_noexec=2 refuses executable memfds, and
// spares the kernel's warning about memfds that say neither.
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif

UniqueFd sealed_memfd(const std::string& bytes, const fs::path& so) {
  UniqueFd fd(::memfd_create("judge-solution", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL));
  if (!fd && errno == EINVAL)  // a kernel older than MFD_NOEXEC_SEAL
    fd.reset(::memfd_create("judge-solution", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!fd)
    JUDGE_THROW(Error, "cannot create a memfd for {}: {} (a seccomp filter that blocks memfd_create must allow it)",
                so.string(), std::strerror(errno));
  for (std::size_t done = 0; done < bytes.size();) {
    ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      JUDGE_THROW(Error, "cannot copy {} into a memfd: {} (is memory or /dev/shm's limit exhausted?)", so.string(),
                  std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  if (::fcntl(fd.get(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0)
    JUDGE_THROW(Error, "cannot seal the memfd holding {}: {}", so.string(), std::strerror(errno));
  return fd;
}

}  // namespace

std::string read_library(const fs::path& so) {
  // O_NONBLOCK: a FIFO planted in the cache would otherwise hang the open; it is refused below as not a file.
  UniqueFd fd(::open(so.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!fd && errno == ELOOP)
    JUDGE_THROW(Error, "{} is a symbolic link, not a library the judge built: remove the build cache entry {}",
                so.string(), so.parent_path().string());
  if (!fd) JUDGE_THROW(Error, "cannot open the built library {}: {}", so.string(), std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
    JUDGE_THROW(Error, "{} is not a regular file, not a library the judge built: remove the build cache entry {}",
                so.string(), so.parent_path().string());
  if (st.st_size > kMaxLibraryBytes)
    JUDGE_THROW(Error, "{} is {} bytes, more than any build makes: remove the build cache entry {}", so.string(),
                st.st_size, so.parent_path().string());
  std::string bytes;
  bytes.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) JUDGE_THROW(Error, "cannot read the built library {}: {}", so.string(), std::strerror(errno));
    if (n == 0) break;
    bytes.append(buf, static_cast<std::size_t>(n));
    // It grew while being read: someone is writing it, and the judge never does after publishing a build.
    if (bytes.size() > static_cast<std::size_t>(kMaxLibraryBytes))
      JUDGE_THROW(Error, "{} kept growing while it was read: remove the build cache entry {}", so.string(),
                  so.parent_path().string());
  }
  return bytes;
}

UniqueFd open_verified_library(const fs::path& so, const std::string& expected_sha256) {
  const std::string bytes = read_library(so);
  const std::string actual = sha256_hex(bytes);
  if (actual != expected_sha256)
    JUDGE_THROW(Error,
                "the built library {} has SHA-256 {}, but the judge recorded {} when it built it: it changed after "
                "the build, so it is not loaded: remove the build cache entry {} (the next run rebuilds it) or set "
                "JUDGE_CACHE_DIR to a directory only the judge writes",
                so.string(), actual, expected_sha256.empty() ? "nothing" : expected_sha256,
                so.parent_path().string());
  return sealed_memfd(bytes, so);
}

std::string library_fd_path(int fd) { return fmt::format("/proc/self/fd/{}", fd); }

}  // namespace judge
