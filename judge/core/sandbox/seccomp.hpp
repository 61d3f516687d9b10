#pragma once
// The solver's system-call filter: a seccomp BPF program written by hand (no libseccomp: the GPU machines have no
// headers for it), installed by the untrusted solver on itself once its CUDA context exists, on every thread at once.
//
// It refuses with EPERM what a submission could use to reach beyond its own process: starting processes (fork, vfork,
// clone without CLONE_THREAD, or with namespace flags; clone3 answers ENOSYS, so the C library falls back to clone
// for threads), exec, ptrace and other processes' memory, signals to any process but its own, pidfds, sessions and
// process groups, mounts, namespaces and chroot, sockets other than AF_UNIX (no network), io_uring (which opens
// sockets without socket(2)), bpf, perf_event_open, keyrings, personality, kexec, kernel modules, reboot, swap,
// changes of uid or gid, scheduling or resource limits of other processes, and typing into a terminal (TIOCSTI).
// Everything the CUDA driver needs stays allowed: memfd_create, mmap/mprotect, ioctl, futex, threads, openat and the
// rest. (Checked on an H200 with driver 580 after cudaFree(0): kernels with lazy PTX JIT, managed memory, cuBLAS,
// CUDA from a new thread, a library dlopen'ed from a memfd and CUPTI's kernel records all work under this filter
// and Landlock, perf_event_open refused included.)
// A system call through another architecture's entry point (i386's int 0x80 on x86_64) ends the process; x32's are
// refused (ENOSYS).
#include <string>
#include <vector>

#include <linux/filter.h>
#include <sys/types.h>

namespace judge {

struct SeccompSupport {
  bool available = false;
  std::string why;  // "filter mode with SECCOMP_RET_ERRNO", or why not
};
SeccompSupport seccomp_support();

// The filter for a process whose pid (as it sees itself: 1 as the first process of a pid namespace) is own_pid:
// signals to own_pid and to 0 (its own process group) are allowed, so abort() and raise() still work.
std::vector<sock_filter> solver_filter(pid_t own_pid);

// Sets no_new_privs and installs solver_filter(getpid()) on every thread of this process (SECCOMP_FILTER_FLAG_TSYNC).
// Throws Error saying why when it cannot.
void install_solver_filter();

}  // namespace judge
