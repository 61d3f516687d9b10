#include "judge/core/sandbox/landlock.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <set>
#include <thread>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace judge {

namespace fs = std::filesystem;

namespace {

// Debian 12's <linux/landlock.h> stops at ABI 2, so the interface is spelled out here, from the kernel's UAPI.
#ifndef SYS_landlock_create_ruleset
constexpr long SYS_landlock_create_ruleset = 444;  // the same number on every architecture
constexpr long SYS_landlock_add_rule = 445;
constexpr long SYS_landlock_restrict_self = 446;
#endif

struct RulesetAttr {  // struct landlock_ruleset_attr; older kernels accept it whole when the fields they lack are 0
  std::uint64_t handled_access_fs;
  std::uint64_t handled_access_net;
  std::uint64_t scoped;
};
struct __attribute__((packed)) PathBeneathAttr {  // struct landlock_path_beneath_attr
  std::uint64_t allowed_access;
  std::int32_t parent_fd;
};
constexpr int kRulePathBeneath = 1;                // LANDLOCK_RULE_PATH_BENEATH
constexpr unsigned kCreateRulesetVersion = 1u << 0;
constexpr unsigned kRestrictSelfTsync = 1u << 3;  // ABI 8: every thread of the process at once

constexpr std::uint64_t kExecute = 1ull << 0, kWriteFile = 1ull << 1, kReadFile = 1ull << 2, kReadDir = 1ull << 3,
                        kRemoveDir = 1ull << 4, kRemoveFile = 1ull << 5, kMakeChar = 1ull << 6,
                        kMakeDir = 1ull << 7, kMakeReg = 1ull << 8, kMakeSock = 1ull << 9, kMakeFifo = 1ull << 10,
                        kMakeBlock = 1ull << 11, kMakeSym = 1ull << 12, kRefer = 1ull << 13,
                        kTruncate = 1ull << 14, kIoctlDev = 1ull << 15;
constexpr std::uint64_t kNetBindTcp = 1ull << 0, kNetConnectTcp = 1ull << 1;
constexpr std::uint64_t kScopeAbstractUnixSocket = 1ull << 0, kScopeSignal = 1ull << 1;

// Rights Landlock accepts on a rule for a file that is not a directory.
constexpr std::uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;

constexpr std::uint64_t kReadRights = kExecute | kReadFile | kReadDir;
constexpr std::uint64_t kWriteRights = kReadRights | kWriteFile | kRemoveDir | kRemoveFile | kMakeDir | kMakeReg |
                                       kMakeSym | kMakeSock | kMakeFifo | kRefer | kTruncate;
constexpr std::uint64_t kDeviceRights = kReadFile | kWriteFile | kIoctlDev | kTruncate;
// The confined process's own /proc/<pid>: the CUDA driver names its threads by writing .../task/<tid>/comm.
constexpr std::uint64_t kOwnProcRights = kReadFile | kReadDir | kWriteFile;

std::uint64_t fs_rights(int abi) {
  std::uint64_t r = 0;
  if (abi >= 1)
    r |= kExecute | kWriteFile | kReadFile | kReadDir | kRemoveDir | kRemoveFile | kMakeChar | kMakeDir | kMakeReg |
         kMakeSock | kMakeFifo | kMakeBlock | kMakeSym;
  if (abi >= 2) r |= kRefer;
  if (abi >= 3) r |= kTruncate;
  if (abi >= 5) r |= kIoctlDev;
  return r;
}

std::uint64_t rights_of(PathAccess access) {
  switch (access) {
    case PathAccess::read:
    case PathAccess::proc:
      return kReadRights;
    case PathAccess::write:
      return kWriteRights;
    case PathAccess::device:
      return kDeviceRights;
  }
  return 0;
}

long create_ruleset(const RulesetAttr* attr, std::size_t size, unsigned flags) {
  return ::syscall(SYS_landlock_create_ruleset, attr, size, flags);
}

int add_rule(int ruleset, int path_fd, std::uint64_t allowed) noexcept {
  PathBeneathAttr attr{allowed, path_fd};
  return static_cast<int>(::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &attr, 0));
}

// -----------------------------------------------------------------------------------------------------------------
// Restricting the other threads of this process, before ABI 8. Each thread restricts itself in a signal handler. The
// handler stays installed, armed with a ruleset of its own: a thread that blocked the signal restricts itself once it
// unblocks it, and a late delivery never meets a real-time signal's default action, which ends the process.

constexpr int kMaxThreads = 4096;
std::atomic<int> g_broadcast_fd{-1};
std::atomic<int> g_acknowledged{0};
std::atomic<pid_t> g_restricted_tids[kMaxThreads];

int broadcast_signal() { return SIGRTMAX - 3; }

void restrict_this_thread(int) {
  int saved = errno;
  int fd = g_broadcast_fd.load();
  if (fd >= 0) {
    pid_t tid = static_cast<pid_t>(::syscall(SYS_gettid));
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && ::syscall(SYS_landlock_restrict_self, fd, 0) == 0) {
      int slot = g_acknowledged.fetch_add(1);
      if (slot < kMaxThreads) g_restricted_tids[slot].store(tid);
    }
  }
  errno = saved;
}

std::vector<pid_t> thread_ids() {
  std::vector<pid_t> tids;
  DIR* dir = ::opendir("/proc/self/task");
  if (!dir) return tids;
  while (dirent* e = ::readdir(dir))
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9') tids.push_back(static_cast<pid_t>(std::atoi(e->d_name)));
  ::closedir(dir);
  return tids;
}

// Whether thread `tid` blocks `signal` (SigBlk of its status), or has gone.
bool blocks_or_gone(pid_t tid, int signal) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/status");
  if (!in) return true;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("SigBlk:", 0) == 0) {
      unsigned long long mask = std::strtoull(line.c_str() + 7, nullptr, 16);
      return (mask >> (signal - 1)) & 1u;
    }
  return false;
}

bool thread_exists(pid_t tid) { return ::access(("/proc/self/task/" + std::to_string(tid)).c_str(), F_OK) == 0; }

bool acknowledged(pid_t tid) {
  int n = std::min(g_acknowledged.load(), kMaxThreads);
  for (int i = 0; i < n; ++i)
    if (g_restricted_tids[i].load() == tid) return true;
  return false;
}

}  // namespace

LandlockSupport landlock_support() {
  long abi = create_ruleset(nullptr, 0, kCreateRulesetVersion);
  if (abi > 0) return {static_cast<int>(abi), fmt::format("ABI {}", abi)};
  if (errno == EOPNOTSUPP)
    return {0, "Landlock is built into this kernel but disabled at boot: add landlock to the lsm= kernel parameter"};
  return {0, fmt::format("kernel has no Landlock ({}; it needs Linux 5.13 or later built with "
                         "CONFIG_SECURITY_LANDLOCK)",
                         std::strerror(errno))};
}

LandlockRuleset::LandlockRuleset(const SandboxPolicy& policy) {
  LandlockSupport support = landlock_support();
  if (support.abi == 0) JUDGE_THROW(Error, "cannot sandbox the {} with Landlock: {}", policy.name, support.why);
  abi_ = support.abi;
  RulesetAttr attr{fs_rights(abi_), abi_ >= 4 ? kNetBindTcp | kNetConnectTcp : 0,
                   abi_ >= 6 ? kScopeAbstractUnixSocket | kScopeSignal : 0};
  long fd = create_ruleset(&attr, sizeof attr, 0);
  if (fd < 0)
    JUDGE_THROW(Error, "cannot create a Landlock ruleset for the {} (ABI {}): {}", policy.name, abi_,
                std::strerror(errno));
  fd_ = static_cast<int>(fd);
  ::fcntl(fd_, F_SETFD, FD_CLOEXEC);
  try {
    add_rules(policy);
  } catch (...) {
    ::close(fd_);  // no destructor runs for an object that was never made
    throw;
  }
}

void LandlockRuleset::add_rules(const SandboxPolicy& policy) {
  for (const PathRule& rule : policy.rules) {
    if (rule.access != PathAccess::proc) {
      add(rule.path, rule.access);
      continue;
    }
    // Every entry that is not a process: a rule on /proc itself would let the sandbox read the command lines of every
    // process of the host. Symlinks (self, mounts, net, ...) point into a process's directory and are left out.
    own_proc_ = true;
    DIR* dir = ::opendir(rule.path.c_str());
    if (!dir) {
      skipped_.push_back(rule.path.string());
      continue;
    }
    std::vector<std::string> names;
    while (dirent* e = ::readdir(dir)) {
      std::string name = e->d_name;
      if (name == "." || name == ".." || (name[0] >= '0' && name[0] <= '9')) continue;
      names.push_back(name);
    }
    ::closedir(dir);
    for (const auto& name : names) {
      struct stat st;
      fs::path entry = rule.path / name;
      if (::lstat(entry.c_str(), &st) == 0 && !S_ISLNK(st.st_mode)) add(entry, PathAccess::read);
    }
  }
}

void LandlockRuleset::add(const fs::path& path, PathAccess access) {
  int path_fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (path_fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR || errno == EACCES) {
      skipped_.push_back(path.string());
      return;
    }
    JUDGE_THROW(Error, "cannot open {} to allow it in the Landlock ruleset: {}", path.string(), std::strerror(errno));
  }
  struct stat st;
  std::uint64_t allowed = rights_of(access) & fs_rights(abi_);
  if (::fstat(path_fd, &st) == 0 && !S_ISDIR(st.st_mode)) allowed &= kFileRights;
  int r = allowed ? add_rule(fd_, path_fd, allowed) : 0;
  int error = errno;
  ::close(path_fd);
  if (r != 0)
    JUDGE_THROW(Error, "cannot add {} to the Landlock ruleset (rights {:#x}, ABI {}): {}", path.string(), allowed, abi_,
                std::strerror(error));
}

LandlockRuleset::LandlockRuleset(LandlockRuleset&& other) noexcept { *this = std::move(other); }

LandlockRuleset& LandlockRuleset::operator=(LandlockRuleset&& other) noexcept {
  if (this == &other) return *this;
  if (fd_ >= 0) ::close(fd_);
  fd_ = std::exchange(other.fd_, -1);
  abi_ = other.abi_;
  own_proc_ = other.own_proc_;
  skipped_ = std::move(other.skipped_);
  return *this;
}

LandlockRuleset::~LandlockRuleset() {
  if (fd_ >= 0) ::close(fd_);
}

LandlockRuleset::Coverage LandlockRuleset::restrict_self() {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    JUDGE_THROW(Error, "cannot set no_new_privs before Landlock: {}", std::strerror(errno));
  if (own_proc_) {
    int self = ::open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (self >= 0) {
      int r = add_rule(fd_, self, kOwnProcRights);
      int error = errno;
      ::close(self);
      if (r != 0) JUDGE_THROW(Error, "cannot allow /proc/self in the Landlock ruleset: {}", std::strerror(error));
    }
  }

  Coverage c;
  if (abi_ >= 8 && ::syscall(SYS_landlock_restrict_self, fd_, kRestrictSelfTsync) == 0) {
    c.threads = c.restricted = static_cast<int>(thread_ids().size());
    return c;
  }

  // One thread at a time otherwise: the others first, while this one can still read their status, then this one.
  // The handler keeps a ruleset of its own, armed for good: a thread that blocks the signal now gets it still, and
  // restricts itself whenever it unblocks it.
  const pid_t self_tid = static_cast<pid_t>(::syscall(SYS_gettid));
  const int signal = broadcast_signal();
  {
    // A ruleset armed by an earlier call stays open: a handler may be reading it right now.
    int armed = ::fcntl(fd_, F_DUPFD_CLOEXEC, 3);
    if (armed < 0)
      JUDGE_THROW(Error, "cannot keep the Landlock ruleset for the other threads: {}", std::strerror(errno));
    g_acknowledged.store(0);
    g_broadcast_fd.store(armed);
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = restrict_this_thread;
    action.sa_flags = SA_RESTART;
    sigfillset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
  std::set<pid_t> signalled{self_tid};
  std::set<pid_t> blocking;
  // A thread that is starting has every signal blocked for a moment (the C library's pthread_create does so), so one
  // that blocks the signal is looked at again for a while before it counts as blocking it. Threads started meanwhile
  // (by a thread not yet restricted) are found on a later round.
  for (int round = 0; round < 25; ++round) {
    std::vector<pid_t> sent;
    blocking.clear();
    for (pid_t tid : thread_ids()) {
      if (signalled.count(tid)) continue;
      if (blocks_or_gone(tid, signal) && round < 24) {
        if (thread_exists(tid)) blocking.insert(tid);
        continue;
      }
      if (::syscall(SYS_tgkill, ::getpid(), tid, signal) == 0) {
        signalled.insert(tid);
        sent.push_back(tid);
      }
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    for (pid_t tid : sent)
      while (!acknowledged(tid) && thread_exists(tid) && !blocks_or_gone(tid, signal) &&
             std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    if (sent.empty() && blocking.empty()) break;
    if (!blocking.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }

  if (::syscall(SYS_landlock_restrict_self, fd_, 0) != 0)
    JUDGE_THROW(Error, "cannot restrict this process with Landlock (ABI {}): {}", abi_, std::strerror(errno));
  int unconfined = 0, blocked = 0;
  for (pid_t tid : thread_ids()) {
    ++c.threads;
    if (tid == self_tid || acknowledged(tid)) continue;
    ++unconfined;
    if (blocks_or_gone(tid, signal)) ++blocked;
  }
  c.restricted = c.threads - unconfined;
  if (unconfined > 0)
    c.why = fmt::format("{} of {} threads stay unconfined ({} block signals; they restrict themselves if they ever "
                        "unblock them): Landlock ABI 8 (Linux 7.0) restricts every thread at once",
                        unconfined, c.threads, blocked);
  return c;
}

int landlock_restrict_child(int ruleset_fd, bool allow_own_proc) noexcept {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
  if (allow_own_proc) {
    int self = ::open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (self < 0) return errno;
    int r = add_rule(ruleset_fd, self, kOwnProcRights);
    int error = errno;
    ::close(self);
    if (r != 0) return error;
  }
  if (::syscall(SYS_landlock_restrict_self, ruleset_fd, 0) != 0) return errno;
  return 0;
}

}  // namespace judge
