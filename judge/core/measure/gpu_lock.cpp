#include "judge/core/measure/gpu_lock.hpp"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fmt/format.h>

#include "judge/core/base/error.hpp"

namespace judge {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPoll = std::chrono::milliseconds(10);
// Judging a holder reads /proc/locks, which lists every lock on the machine: often enough to notice a foreign
// holder well within the grace period, rarely enough to cost nothing.
constexpr auto kExamineEvery = std::chrono::milliseconds(100);
// How long a waiter waits for the holder's record before it says it waits without naming the holder.
constexpr auto kNameWithin = std::chrono::milliseconds(500);
// The second line of a holder's record: who it is, in terms a waiter can check against /proc.
constexpr const char* kRecordTag = "judge-lock-holder";

[[noreturn]] void fail(const fs::path& file, const std::string& what) {
  JUDGE_THROW(Error, "cannot {} the GPU lock file {}: {}; check that the cache directory is writable "
              "(JUDGE_CACHE_DIR chooses another)", what, file.string(), std::strerror(errno));
}

// Only the judge's user may create, replace or lock files here: others could otherwise hold or forge the lock.
void make_lock_dir(const fs::path& file) {
  std::error_code ec;
  fs::create_directories(file.parent_path().parent_path(), ec);
  if (::mkdir(file.parent_path().c_str(), 0700) != 0 && errno != EEXIST) fail(file, "create the directory of");
}

// Generation 0 is the file itself; a broken lock moves on to <file>.1, <file>.2, ... Names are never removed or
// replaced, so each names one inode for good, and generations are contiguous: each is created only by a waiter
// that saw the one before it held by a foreign process.
fs::path generation_path(const fs::path& file, std::uint64_t generation) {
  if (generation == 0) return file;
  fs::path p = file;
  p += "." + std::to_string(generation);
  return p;
}

std::uint64_t newest_generation(const fs::path& file) {
  const std::string base = file.filename().string();
  std::uint64_t newest = 0;
  if (DIR* dir = ::opendir(file.parent_path().c_str())) {
    while (const dirent* e = ::readdir(dir)) {
      const std::string name = e->d_name;
      if (name.size() <= base.size() + 1 || name.compare(0, base.size(), base) != 0 || name[base.size()] != '.')
        continue;
      const std::string digits = name.substr(base.size() + 1);
      if (digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
      newest = std::max<std::uint64_t>(newest, std::stoull(digits));
    }
    ::closedir(dir);
  }
  // readdir may miss a name created while it ran; the holder's final check catches that, this only saves a retry.
  for (struct stat st {}; ::stat(generation_path(file, newest + 1).c_str(), &st) == 0;) ++newest;
  return newest;
}

bool try_lock(int fd, const fs::path& file) {
  for (;;) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) return false;
    fail(file, "lock");
  }
}

// The flock on fd is the lock only while fd's file is still the newest generation under its name.
bool still_current(int fd, const fs::path& file, std::uint64_t generation) {
  struct stat mine {}, named {}, next {};
  if (::fstat(fd, &mine) != 0 || ::stat(generation_path(file, generation).c_str(), &named) != 0) return false;
  if (mine.st_dev != named.st_dev || mine.st_ino != named.st_ino) return false;
  if (::stat(generation_path(file, generation + 1).c_str(), &next) == 0) return false;
  if (errno != ENOENT) fail(generation_path(file, generation + 1), "look for");
  return true;
}

std::string clock_time() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
  return buf;
}

std::string read_proc(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Field 22 of /proc/<pid>/stat: when it started, in clock ticks since boot. A pid that was reused has another.
std::optional<unsigned long long> start_time(pid_t pid) {
  const std::string stat = read_proc(fmt::format("/proc/{}/stat", pid));
  const auto paren = stat.rfind(')');  // the command name before it may hold spaces and parentheses
  if (paren == std::string::npos) return std::nullopt;
  std::istringstream fields(stat.substr(paren + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) return std::stoull(field);
  return std::nullopt;
}

std::string own_executable() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).string();
}

// Two lines: the description waiters show, then who wrote it. Replaces whatever the last holder wrote.
void write_holder(int fd, const std::string& holder) {
  const pid_t pid = ::getpid();
  const std::string text = fmt::format("{} since {}\n{} pid={} start={} exe={}\n", holder, clock_time(), kRecordTag,
                                       pid, start_time(pid).value_or(0), own_executable());
  if (::ftruncate(fd, 0) == 0) {
    ssize_t written = ::pwrite(fd, text.data(), text.size(), 0);
    (void)written;  // a holder without a record is broken after the grace period: the same as a foreign one
  }
}

std::string read_record(int fd) {
  char buf[4096];
  ssize_t n = ::pread(fd, buf, sizeof buf, 0);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

// Whatever a foreign holder wrote ends up on a waiter's terminal: no escape sequences, no screenfuls.
std::string description(const std::string& record) {
  std::string line;
  for (char c : record.substr(0, record.find('\n')))
    if (std::isprint(static_cast<unsigned char>(c))) line += c;
  return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

struct Record {
  pid_t pid = 0;
  unsigned long long start = 0;
};

std::optional<Record> parse_record(const std::string& record) {
  const auto nl = record.find('\n');
  if (nl == std::string::npos) return std::nullopt;
  std::istringstream in(record.substr(nl + 1));
  std::string tag, pid, start;
  if (!(in >> tag >> pid >> start) || tag != kRecordTag || pid.rfind("pid=", 0) != 0 || start.rfind("start=", 0) != 0)
    return std::nullopt;
  try {
    Record r{static_cast<pid_t>(std::stol(pid.substr(4))), std::stoull(start.substr(6))};
    if (r.pid > 0) return r;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// The pid /proc/locks gives for the flock on fd's file: who locked it, which the file's contents cannot forge.
// 0 when that process has exited (a child that inherited the descriptor holds the lock now) or lives in another
// PID namespace; nullopt when /proc/locks does not say (unreadable, or the lock went in the meantime).
std::optional<pid_t> flock_owner(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::nullopt;
  const std::string device = fmt::format("{:02x}:{:02x}:{}", major(st.st_dev), minor(st.st_dev), st.st_ino);
  std::istringstream locks(read_proc("/proc/locks"));
  for (std::string line; std::getline(locks, line);) {
    std::istringstream in(line);
    std::string ordinal, type, kind, mode, pid, dev;
    // Waiting requests are listed too, as "N: -> FLOCK ...": they hold nothing.
    if (!(in >> ordinal >> type >> kind >> mode >> pid >> dev) || type != "FLOCK" || dev != device) continue;
    try {
      return static_cast<pid_t>(std::stol(pid));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

bool is_judge_executable(const fs::path& exe, const GpuLockPolicy& policy) {
  for (const auto& allowed : policy.judge_executables) {
    if (allowed.find('/') == std::string::npos) {
      if (exe.filename() == allowed) return true;
    } else {
      std::error_code ec;
      if (fs::weakly_canonical(allowed, ec) == exe) return true;
    }
  }
  return false;
}

// Why the holder of the lock on fd is not a judge process, or empty when it is one.
std::string why_foreign(int fd, const GpuLockPolicy& policy) {
  const std::optional<Record> record = parse_record(read_record(fd));
  if (!record) return "it has not written who it is";
  const std::optional<pid_t> owner = flock_owner(fd);
  if (owner && *owner == 0)
    return fmt::format("the process that locked it (pid {} by its record) has exited, and one that inherited the lock "
                       "holds it, or it runs in another PID namespace",
                       record->pid);
  if (owner && *owner != record->pid)
    return fmt::format("its record names pid {}, but pid {} locked it", record->pid, *owner);
  const std::optional<unsigned long long> started = start_time(record->pid);
  if (!started && ::kill(record->pid, 0) != 0 && errno == ESRCH)
    return fmt::format("pid {}, which its record names, has exited", record->pid);
  // /proc hides it (hidepid, another user's process under a restricted /proc): what cannot be judged is waited for,
  // as every holder was before judging.
  if (!started) return {};
  if (*started != record->start)
    return fmt::format("pid {} is not the process its record names: that one has exited", record->pid);
  std::error_code ec;
  std::string exe = fs::read_symlink(fmt::format("/proc/{}/exe", record->pid), ec).string();
  if (ec) {
    // Another user's process: its comm (the file name, cut to 15 characters) is all /proc shows.
    exe = read_proc(fmt::format("/proc/{}/comm", record->pid));
    if (!exe.empty() && exe.back() == '\n') exe.pop_back();
    if (exe.empty()) return {};
    for (const auto& allowed : policy.judge_executables)
      if (fs::path(allowed).filename().string().substr(0, 15) == exe) return {};
    return fmt::format("pid {} runs {}, not a judge executable", record->pid, exe);
  }
  if (const std::string deleted = " (deleted)"; exe.size() > deleted.size() &&
                                                exe.compare(exe.size() - deleted.size(), deleted.size(), deleted) == 0)
    exe.resize(exe.size() - deleted.size());  // a judge rebuilt while it runs is still a judge
  if (!is_judge_executable(exe, policy)) return fmt::format("pid {} runs {}, not a judge executable", record->pid, exe);
  return {};
}

// One attempt at the newest generation. Held: fd is the holder's file, for judging who holds it.
struct Attempt {
  enum { acquired, held, moved } outcome;
  UniqueFd fd;
  std::uint64_t generation = 0;
};

Attempt attempt(const fs::path& file, const std::string& holder) {
  const std::uint64_t generation = newest_generation(file);
  const fs::path path = generation_path(file, generation);
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | (generation == 0 ? O_CREAT : 0), 0600));
  if (!fd && errno == ENOENT && generation > 0) return {Attempt::moved, {}, generation};
  if (!fd) fail(path, "open");
  if (!try_lock(fd.get(), path)) return {Attempt::held, std::move(fd), generation};
  // The record first, then the check: a waiter that judged the previous, foreign holder and breaks the lock after
  // this check must have decided before the record was there, a window of a few system calls.
  write_holder(fd.get(), holder);
  if (!still_current(fd.get(), file, generation)) return {Attempt::moved, {}, generation};
  return {Attempt::acquired, std::move(fd), generation};
}

// The next generation, created by exactly one waiter (O_EXCL), which then tries to lock it like anyone else. False
// when another waiter broke it first.
bool break_lock(const fs::path& file, std::uint64_t generation) {
  const fs::path next = generation_path(file, generation + 1);
  UniqueFd fd(::open(next.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd && errno != EEXIST) fail(next, "create");
  return static_cast<bool>(fd);
}

}  // namespace

fs::path GpuLock::file_for(const fs::path& cache_dir, const std::string& gpu_key) {
  std::string key;
  for (char c : gpu_key) key += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  if (key.empty()) key = "gpu";
  return cache_dir / "gpu-locks" / (key + ".lock");
}

std::string GpuLock::holder_of(const fs::path& file) {
  UniqueFd fd(::open(generation_path(file, newest_generation(file)).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  return fd ? description(read_record(fd.get())) : std::string();
}

std::optional<GpuLock> GpuLock::try_acquire(const fs::path& file, const std::string& holder) {
  make_lock_dir(file);
  for (;;) {
    Attempt a = attempt(file, holder);
    if (a.outcome == Attempt::acquired) return GpuLock(std::move(a.fd));
    if (a.outcome == Attempt::held) return std::nullopt;
  }
}

std::optional<GpuLock> GpuLock::acquire(const fs::path& file, const std::string& holder,
                                        const std::function<void(const std::string&)>& on_wait,
                                        const std::function<bool()>& give_up, const GpuLockPolicy& policy) {
  make_lock_dir(file);
  const auto start = Clock::now();
  bool told = false;
  // The holder being watched: a generation, judged foreign since foreign_since (when foreign is set).
  std::uint64_t watched = 0;
  bool foreign = false;
  Clock::time_point foreign_since{}, examined{};
  for (;;) {
    Attempt a = attempt(file, holder);
    if (a.outcome == Attempt::acquired) {
      GpuLock lock(std::move(a.fd));
      lock.waited_s_ = std::chrono::duration<double>(Clock::now() - start).count();
      return lock;
    }
    if (a.outcome == Attempt::moved) continue;
    const auto now = Clock::now();
    if (!told) {
      // A holder writes its record just after it takes the lock, so an empty record is a holder a few system calls
      // old: it is named on one of the next polls. Only a holder that never writes one is told as nobody in particular.
      const std::string who = description(read_record(a.fd.get()));
      if (!who.empty() || now - start >= kNameWithin) {
        told = true;
        if (on_wait) on_wait(who);
      }
    }
    if (a.generation != watched || now - examined >= kExamineEvery) {
      if (a.generation != watched) foreign = false;
      watched = a.generation;
      examined = now;
      const std::string why = why_foreign(a.fd.get(), policy);
      if (why.empty()) {
        foreign = false;
      } else if (!foreign) {
        foreign = true;
        foreign_since = now;
      } else if (now - foreign_since >= policy.grace) {
        if (break_lock(file, a.generation) && policy.on_break)
          policy.on_break(fmt::format("the GPU lock {} was held by a process that is not a judge: {}; it was broken",
                                      file.string(), why));
        continue;
      }
    }
    if (give_up && give_up()) return std::nullopt;
    std::this_thread::sleep_for(kPoll);
  }
}

}  // namespace judge
