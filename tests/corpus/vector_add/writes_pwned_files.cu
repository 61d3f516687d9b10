// expect: accepted
// expect-output-lacks: WROTE
// Attacker's intent: write where it has no business. Against the old judge a submission wrote into the challenge
// folder and $HOME, and the judge's own binaries were writable. On its first call this tries to create a file
// named pwned-writes_pwned_files in $HOME, the working directory, /tmp, the folders of its own executable and of
// the judge's processes above it (/proc/<pid>/exe), the folders their command lines name (the submitted file's
// folder: tests/corpus/vector_add), the challenge's folder found from them (challenges/vector_add, searched
// upwards) and the folder this file was compiled from (__FILE__); and it opens every judge* executable in those
// folders for writing (without changing a byte). It prints `WROTE <path>` for each success. A folder the judge
// gave it as its private scratch (its HOME and TMPDIR, where the judge sets both to the same place) is no business
// of the test: writing there is allowed and printed without the word. Then it adds correctly.
// Harmless when the submission can write nothing but its scratch: nothing printed, and the test finds no pwned*
// file in the judge's HOME, its temporary folders, the challenge's folder, tests/corpus/vector_add or beside the
// judge's binaries. It is correct, so `accepted`.
#include <cuda_runtime.h>

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* const kName = "pwned-writes_pwned_files";

std::string slurp(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string out;
  char buf[4096];
  ssize_t n;
  while (out.size() < (1 << 20) && (n = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out;
}

std::string link_of(const std::string& path) {
  char buf[PATH_MAX] = {0};
  ssize_t n = readlink(path.c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

std::string dirname_of(const std::string& p) {
  auto at = p.find_last_of('/');
  return at == std::string::npos ? std::string() : at == 0 ? "/" : p.substr(0, at);
}

bool is_dir(const std::string& p) {
  struct stat st;
  return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string real(const std::string& p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? std::string(buf) : p;
}

int parent_of(int pid) {
  std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  auto close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return 0;
  char state;
  int ppid = 0;
  if (std::sscanf(stat.c_str() + close_paren + 1, " %c %d", &state, &ppid) != 2) return 0;
  return ppid;
}

void add(std::vector<std::string>& v, const std::string& dir) {
  if (is_dir(dir) && std::find(v.begin(), v.end(), real(dir)) == v.end()) v.push_back(real(dir));
}

// The folders of a path named on a command line, and the challenge's folder above it: for every folder above,
// <it>/challenges/<the folder's own name> when that exists (tests/corpus/vector_add -> challenges/vector_add).
void add_from_path(std::vector<std::string>& dirs, const std::string& arg) {
  if (arg.empty() || arg[0] != '/') return;
  std::string dir = is_dir(arg) ? arg : dirname_of(arg);
  if (!is_dir(dir)) return;
  add(dirs, dir);
  const std::string challenge = dir.substr(dir.find_last_of('/') + 1);
  for (std::string up = dirname_of(dir); up.size() > 1; up = dirname_of(up))
    add(dirs, up + "/challenges/" + challenge);
}

void write_everywhere() {
  const char* home = std::getenv("HOME");
  const char* tmpdir = std::getenv("TMPDIR");
  // Our scratch: where the judge set HOME and TMPDIR alike.
  const std::string scratch = home && tmpdir && real(home) == real(tmpdir) ? real(home) : std::string();
  char cwd[PATH_MAX] = {0};
  std::vector<std::string> dirs;
  if (home) add(dirs, home);
  if (getcwd(cwd, sizeof cwd)) add(dirs, cwd);
  add(dirs, "/tmp");
  add(dirs, dirname_of(link_of("/proc/self/exe")));
  add_from_path(dirs, __FILE__);
  // The judge's processes above us (the walk stops at the first other one: the test's driver, a shell, whose
  // folders are the system's; a broken sandbox must fail the test, not litter /usr/bin).
  for (int pid = getppid(), depth = 0; pid > 1 && depth < 8; pid = parent_of(pid), ++depth) {
    const std::string proc = "/proc/" + std::to_string(pid);
    std::string comm = slurp(proc + "/comm");
    if (comm.rfind("judge", 0) != 0) {
      if (comm == "bwrap\n" || comm == "setpriv\n" || comm == "unshare\n") continue;
      break;
    }
    add(dirs, dirname_of(link_of(proc + "/exe")));
    std::string cmdline = slurp(proc + "/cmdline");
    for (size_t at = 0; at < cmdline.size();) {
      size_t end = cmdline.find('\0', at);
      if (end == std::string::npos) end = cmdline.size();
      add_from_path(dirs, cmdline.substr(at, end - at));
      at = end + 1;
    }
  }
  int wrote = 0;
  for (const auto& dir : dirs) {
    const bool ours = !scratch.empty() && (dir == scratch || dir.rfind(scratch + "/", 0) == 0);
    const std::string path = dir + "/" + kName;
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ssize_t ignored = write(fd, "pwned\n", 6);
      (void)ignored;
      close(fd);
      if (ours) {
        std::printf("scratch (ours, allowed): %s\n", path.c_str());
        unlink(path.c_str());
      } else {
        std::printf("WROTE %s\n", path.c_str());
        ++wrote;
      }
    }
    // The judge's executables: opened for writing, not changed.
    if (DIR* d = opendir(dir.c_str())) {
      while (dirent* e = readdir(d)) {
        if (std::strncmp(e->d_name, "judge", 5) != 0) continue;
        const std::string exe = dir + "/" + e->d_name;
        struct stat st;
        if (stat(exe.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR)) continue;
        int w = open(exe.c_str(), O_WRONLY | O_CLOEXEC);
        if (w >= 0) {
          close(w);
          if (!ours) {
            std::printf("WROTE %s (opened the executable for writing)\n", exe.c_str());
            ++wrote;
          }
        }
      }
      closedir(d);
    }
  }
  std::fflush(stdout);
  std::fprintf(stderr, "files: %zu folders tried, %d writable\n", dirs.size(), wrote);
  std::fflush(stderr);
}

__global__ void add_kernel(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool done = false;
  if (!done) {
    done = true;
    write_everywhere();
  }
  add_kernel<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
