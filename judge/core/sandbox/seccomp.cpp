#include "judge/core/sandbox/seccomp.hpp"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <initializer_list>

#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "judge/core/base/error.hpp"

namespace judge {

namespace {

#if defined(__x86_64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_X86_64;
constexpr const char* kArchName = "x86_64";
#elif defined(__aarch64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_AARCH64;
constexpr const char* kArchName = "aarch64";
#else
constexpr std::uint32_t kNativeArch = 0;  // no filter for other architectures: seccomp_support() says so
constexpr const char* kArchName = "this architecture";
#endif
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "arguments' low halves are read at their own offset");

// x32 system calls arrive with x86_64's audit arch and this bit in their number; they are refused (ENOSYS) before any
// rule, so that no rule can be sidestepped through their other numbers.
constexpr std::uint32_t kX32Bit = 0x40000000u;

// Namespaces a clone must not create, even with CLONE_THREAD (the kernel refuses most combinations, but a rule
// should not rest on that).
constexpr std::uint32_t kNamespaceFlags =
    CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET;

constexpr std::uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr std::uint32_t kDeny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
constexpr std::uint32_t kNoSys = SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA);

// What the CUDA driver and a timed solve() call most, decided first: the filter runs on every system call, and
// these need not walk the lists below.
constexpr long kHot[] = {SYS_futex,  SYS_sched_yield, SYS_read,     SYS_write, SYS_mmap,       SYS_munmap,
                         SYS_mprotect, SYS_madvise,   SYS_ppoll,    SYS_epoll_pwait, SYS_clock_nanosleep,
                         SYS_getpid, SYS_gettid};

// Refused whatever their arguments.
constexpr long kDenied[] = {
#ifdef SYS_fork
    SYS_fork,
#endif
#ifdef SYS_vfork
    SYS_vfork,
#endif
    SYS_execve, SYS_execveat,
    // other processes: debugging, memory, handles, comparisons
    SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev, SYS_kcmp, SYS_process_madvise,
    SYS_process_mrelease, SYS_pidfd_open, SYS_pidfd_send_signal, SYS_pidfd_getfd,
    // sessions and groups: a daemon leaves the group that kill_group() ends
    SYS_setsid, SYS_setpgid,
    // mounts, namespaces, root
    SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot, SYS_unshare, SYS_setns, SYS_fsopen, SYS_fsconfig,
    SYS_fsmount, SYS_fspick, SYS_move_mount, SYS_open_tree, SYS_mount_setattr, SYS_open_by_handle_at,
    // io_uring performs socket, connect and open without those system calls
    SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,
    // performance counters: CUPTI's activity records do not need them (checked on an H200, driver 580: with
    // perf_event_open refused, CUPTI recorded every kernel and no perf_event descriptor was open)
    SYS_perf_event_open,
    // the kernel's own business
    SYS_bpf, SYS_keyctl, SYS_add_key, SYS_request_key, SYS_personality, SYS_kexec_load, SYS_kexec_file_load,
    SYS_init_module, SYS_finit_module, SYS_delete_module, SYS_reboot, SYS_swapon, SYS_swapoff, SYS_acct,
    SYS_quotactl, SYS_syslog, SYS_settimeofday, SYS_clock_settime, SYS_sethostname, SYS_setdomainname,
    SYS_vhangup,
#ifdef SYS_iopl
    SYS_iopl, SYS_ioperm,
#endif
#ifdef SYS_uselib
    SYS_uselib,
#endif
    // identity
    SYS_setuid, SYS_setgid, SYS_setreuid, SYS_setregid, SYS_setresuid, SYS_setresgid, SYS_setfsuid, SYS_setfsgid,
    SYS_setgroups, SYS_capset,
    // other processes' priorities: `who` may name a whole user's processes
    SYS_setpriority, SYS_ioprio_set,
};

// Allowed only on the process itself: the first argument is 0 or its own pid. For the signals, 0 is its own process
// group, which holds nothing else once it cannot fork. (A thread named by its own tid is refused: the C library
// signals threads with tgkill(getpid(), tid), which passes.)
constexpr long kOwnProcessOnly[] = {
    SYS_kill,          SYS_tkill,         SYS_tgkill,          SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo,
    SYS_prlimit64,     SYS_sched_setaffinity, SYS_sched_setscheduler, SYS_sched_setparam, SYS_sched_setattr,
    SYS_migrate_pages, SYS_move_pages,
};

class Assembler {
 public:
  std::vector<sock_filter> code;

  void load(std::uint32_t offset) { code.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset)); }
  void load_nr() { load(offsetof(seccomp_data, nr)); }
  void load_arg(int i) { load(offsetof(seccomp_data, args) + 8 * i); }  // its low 32 bits
  void ret(std::uint32_t action) { code.push_back(BPF_STMT(BPF_RET | BPF_K, action)); }
  void jump(std::uint16_t op, std::uint32_t k, std::uint8_t if_true, std::uint8_t if_false) {
    code.push_back(BPF_JUMP(BPF_JMP | op | BPF_K, k, if_true, if_false));
  }
  // if (nr == syscall) return action;
  void on(long syscall, std::uint32_t action) {
    jump(BPF_JEQ, static_cast<std::uint32_t>(syscall), 0, 1);
    ret(action);
  }
  // if (nr == syscall) { body, which returns on every path } -- the accumulator holds nr again after it.
  void block(long syscall, const std::vector<sock_filter>& body) {
    jump(BPF_JEQ, static_cast<std::uint32_t>(syscall), 0, static_cast<std::uint8_t>(body.size()));
    code.insert(code.end(), body.begin(), body.end());
  }
};

// Decides on one argument's low 32 bits: `if_listed` when it is one of `values`, else `otherwise`.
std::vector<sock_filter> on_argument(int arg, std::initializer_list<std::uint32_t> values, std::uint32_t if_listed,
                                     std::uint32_t otherwise) {
  Assembler a;
  a.load_arg(arg);
  const auto n = static_cast<std::uint8_t>(values.size());
  std::uint8_t i = 0;
  for (std::uint32_t v : values) a.jump(BPF_JEQ, v, static_cast<std::uint8_t>(n - i++), 0);  // to the last ret
  a.ret(otherwise);
  a.ret(if_listed);
  return a.code;
}

std::vector<sock_filter> threads_only() {
  Assembler a;
  a.load_arg(0);
  a.jump(BPF_JSET, kNamespaceFlags, 2, 0);  // any namespace -> deny
  a.jump(BPF_JSET, CLONE_THREAD, 0, 1);     // a thread -> allow, else deny
  a.ret(kAllow);
  a.ret(kDeny);
  return a.code;
}

}  // namespace

SeccompSupport seccomp_support() {
  if (kNativeArch == 0) return {false, fmt::format("the judge has no system-call filter for {}", kArchName)};
  if (::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0)
    return {false, fmt::format("kernel has no seccomp ({}; it needs CONFIG_SECCOMP_FILTER)", std::strerror(errno))};
  std::uint32_t action = SECCOMP_RET_ERRNO;
  if (::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0)
    return {false, fmt::format("kernel's seccomp lacks SECCOMP_RET_ERRNO ({})", std::strerror(errno))};
  action = SECCOMP_RET_KILL_PROCESS;
  if (::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0)
    return {false, fmt::format("kernel's seccomp lacks SECCOMP_RET_KILL_PROCESS ({}; it needs Linux 4.14)",
                               std::strerror(errno))};
  return {true, fmt::format("filter mode, {}", kArchName)};
}

std::vector<sock_filter> solver_filter(pid_t own_pid) {
  Assembler a;
  a.load(offsetof(seccomp_data, arch));
  a.jump(BPF_JEQ, kNativeArch, 1, 0);
  a.ret(SECCOMP_RET_KILL_PROCESS);
  a.load_nr();
#if defined(__x86_64__)
  a.jump(BPF_JGE, kX32Bit, 0, 1);
  a.ret(kNoSys);
#endif
  for (long nr : kHot) a.on(nr, kAllow);
  a.block(SYS_ioctl, on_argument(1, {TIOCSTI, TIOCLINUX}, kDeny, kAllow));  // no typing into a terminal
  for (long nr : kDenied) a.on(nr, kDeny);
  a.on(SYS_clone3, kNoSys);
  a.block(SYS_clone, threads_only());
  for (long nr : kOwnProcessOnly) a.block(nr, on_argument(0, {0, static_cast<std::uint32_t>(own_pid)}, kAllow, kDeny));
  a.block(SYS_socket, on_argument(0, {AF_UNIX}, kAllow, kDeny));
  a.ret(kAllow);
  return a.code;
}

void install_solver_filter() {
  SeccompSupport support = seccomp_support();
  if (!support.available) JUDGE_THROW(Error, "cannot filter the solver's system calls: {}", support.why);
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    JUDGE_THROW(Error, "cannot set no_new_privs before the seccomp filter: {}", std::strerror(errno));
  std::vector<sock_filter> code = solver_filter(::getpid());
  sock_fprog program{static_cast<unsigned short>(code.size()), code.data()};
  long r = ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program);
  if (r < 0) JUDGE_THROW(Error, "cannot install the solver's seccomp filter: {}", std::strerror(errno));
  if (r > 0)
    JUDGE_THROW(Error, "cannot install the solver's seccomp filter on every thread: thread {} has a filter of its own",
                r);
}

}  // namespace judge
