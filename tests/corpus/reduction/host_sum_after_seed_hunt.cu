// expect: accepted
// judge-command: submit
// expect-output-lacks: SEED-FOUND
// expect-output-lacks: {seed}
// Attacker's intent: work on the CPU, helped by the seed. Against the old judge a submission read the job's secret
// seed, regenerated the inputs on the host, summed them there and had the GPU only store the sum: "116% of speed of
// light". This one first hunts for the seed wherever this run might keep it (its own and its ancestors' command
// lines and environments, the files its ancestors hold open, job files under every cache folder it can guess:
// $JUDGE_CACHE_DIR/jobs, ~/.cache/judge/jobs, /root/.cache/judge/jobs, /tmp) and prints `SEED-FOUND <where>` for
// each find; then it does the work on the host anyway: one copy of the input to host memory (the only GPU work the
// trace sees) and the sum in double precision on four host threads.
// Harmless when the seed is out of reach (nothing printed, and the report's seed appears nowhere in the output) and
// host work inside solve() is paid for. It is either way: the host sum lies between the copy out and the copy of
// the sum back, both in the GPU trace, so the GPU span holds it (measured on an H200: 136 ms charged for 2^28
// floats, `charged: gpu`); had the trace missed it, the trusted clock would charge it. The sum is right, so
// `accepted`, at the honest price of a host reduction.
#include <cuda_runtime.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

// ---- looking around: small POSIX helpers (no exceptions, no std::filesystem: every failure is just "not found")
std::string slurp(const std::string& path, size_t limit = 1 << 20) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string out;
  char buf[65536];
  ssize_t n;
  while (out.size() < limit && (n = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out.size() > limit ? out.substr(0, limit) : out;
}

bool is_dir(const std::string& p) {
  struct stat st;
  return lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const std::string& p) {
  struct stat st;
  return lstat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d))
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) out.push_back(e->d_name);
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

std::string dirname_of(const std::string& p) {
  auto at = p.find_last_of('/');
  return at == std::string::npos ? "." : at == 0 ? "/" : p.substr(0, at);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < s.size()) {
    size_t end = s.find(sep, at);
    if (end == std::string::npos) end = s.size();
    if (end > at) out.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

using Env = std::map<std::string, std::string>;

Env parse_environ(const std::string& text) {
  Env env;
  for (const auto& kv : split(text, '\0')) {
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
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

std::string comm_of(int pid) {
  std::string c = slurp("/proc/" + std::to_string(pid) + "/comm", 256);
  while (!c.empty() && (c.back() == '\n' || c.back() == '\0')) c.pop_back();
  return c;
}

// This judge run's processes above us (judge, judge-worker, ...; sandbox wrappers are passed over). The walk stops
// at the first other process: a test driver or a shell, whose environment is the host's, not this run's. (A real
// attacker would not stop there; this one does so that a broken sandbox fails the test, not the machine's owner.)
std::vector<int> judge_ancestors() {
  std::vector<int> out;
  int pid = getppid();
  for (int depth = 0; depth < 8 && pid > 1; ++depth) {
    std::string c = comm_of(pid);
    if (c.rfind("judge", 0) == 0)
      out.push_back(pid);
    else if (!(c == "bwrap" || c == "setpriv" || c == "unshare" || c == "nsenter"))
      break;
    pid = parent_of(pid);
  }
  return out;
}

// Our own environment and those of the judge's processes above us.
std::vector<Env> judge_environments() {
  std::vector<Env> out;
  Env own;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) own[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  out.push_back(own);
  for (int pid : judge_ancestors()) {
    Env env = parse_environ(slurp("/proc/" + std::to_string(pid) + "/environ"));
    if (!env.empty()) out.push_back(env);
  }
  return out;
}

// Where this run's records could be: what the judge's environment names (or implies by the XDG defaults), and the
// judge's folders in the system's temporary directories (tests keep everything in /tmp/judge-*).
struct Places {
  std::vector<std::string> caches, databases, calibrations, temps;
};

void walk(const std::string& dir, int depth, Places& p) {
  if (depth < 0) return;
  for (const auto& name : list_dir(dir)) {
    std::string path = dir + "/" + name;
    if (is_dir(path)) {
      if (name == "cache" || is_dir(path + "/builds") || is_dir(path + "/gpu-locks")) add_unique(p.caches, path);
      walk(path, depth - 1, p);
    } else if (is_file(path)) {
      if (name.size() > 7 && name.compare(name.size() - 7, 7, ".sqlite") == 0) add_unique(p.databases, path);
      if (name.rfind("calibration", 0) == 0 && name.find(".json") != std::string::npos)
        add_unique(p.calibrations, path);
    }
  }
}

Places find_places() {
  Places p;
  for (const Env& env : judge_environments()) {
    auto get = [&](const char* key) {
      auto it = env.find(key);
      return it == env.end() ? std::string() : it->second;
    };
    const std::string home = get("HOME"), xdg_cache = get("XDG_CACHE_HOME"), xdg_data = get("XDG_DATA_HOME");
    add_unique(p.caches, get("JUDGE_CACHE_DIR"));
    if (!xdg_cache.empty()) add_unique(p.caches, xdg_cache + "/judge");
    if (!home.empty()) add_unique(p.caches, home + "/.cache/judge");
    const std::string db = get("JUDGE_DB");
    if (!db.empty()) {
      add_unique(p.databases, db);
      add_unique(p.calibrations, dirname_of(db) + "/calibration.json");
    }
    if (!xdg_data.empty()) {
      add_unique(p.databases, xdg_data + "/judge/leaderboard.sqlite");
      add_unique(p.calibrations, xdg_data + "/judge/calibration.json");
    }
    if (!home.empty()) {
      add_unique(p.databases, home + "/.local/share/judge/leaderboard.sqlite");
      add_unique(p.calibrations, home + "/.local/share/judge/calibration.json");
    }
    add_unique(p.calibrations, get("JUDGE_CALIBRATION"));
    add_unique(p.temps, get("TMPDIR"));
  }
  for (const char* t : {"/tmp", "/var/tmp", "/dev/shm"}) add_unique(p.temps, t);
  for (const auto& base : p.temps)
    for (const auto& name : list_dir(base))
      if (name.rfind("judge", 0) == 0 && is_dir(base + "/" + name)) walk(base + "/" + name, 3, p);
  return p;
}

void say(const std::string& line) {
  std::fprintf(stdout, "%s\n", line.c_str());
  std::fflush(stdout);
}
// ---- end of the helpers

// The number after `"seed":`, `--seed` or `SEED=` in a text, if it is long enough to be a secret seed.
std::string seed_in(const std::string& text) {
  for (const char* key : {"\"seed\"", "--seed", "SEED="}) {
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
      size_t i = at + std::strlen(key);
      while (i < text.size() && (text[i] == ' ' || text[i] == ':' || text[i] == '=' || text[i] == '\0' ||
                                 text[i] == '"' || text[i] == '\n'))
        ++i;
      size_t j = i;
      while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
      if (j - i >= 10) return text.substr(i, j - i);  // a random 64-bit seed, not a small setting
    }
  }
  return {};
}

int finds = 0;

void look(const std::string& what, const std::string& text) {
  std::string seed = seed_in(text);
  if (seed.empty()) return;
  ++finds;
  say("SEED-FOUND " + what + " seed=" + seed);
}

void look_at_job_files(const std::string& dir) {
  for (const auto& name : list_dir(dir))
    if (name.find(".json") != std::string::npos) look(dir + "/" + name, slurp(dir + "/" + name, 1 << 16));
}

void hunt_for_the_seed() {
  look("/proc/self/cmdline", slurp("/proc/self/cmdline"));
  look("/proc/self/environ", slurp("/proc/self/environ"));
  // Every ancestor (reading hurts nobody): command line, environment, and the files it holds open.
  for (int pid = getppid(), depth = 0; pid > 1 && depth < 10; pid = parent_of(pid), ++depth) {
    const std::string proc = "/proc/" + std::to_string(pid);
    look(proc + "/cmdline", slurp(proc + "/cmdline"));
    look(proc + "/environ", slurp(proc + "/environ"));
    for (const auto& fd : list_dir(proc + "/fd")) {
      char target[4096] = {0};
      ssize_t n = readlink((proc + "/fd/" + fd).c_str(), target, sizeof target - 1);
      if (n > 0 && std::strstr(target, ".json"))
        look(proc + "/fd/" + fd + " -> " + target, slurp(proc + "/fd/" + fd));
    }
  }
  Places places = find_places();
  std::vector<std::string> job_dirs;
  for (const auto& cache : places.caches) add_unique(job_dirs, cache + "/jobs");
  for (const char* guess : {"/root/.cache/judge/jobs", "/tmp", "/var/tmp"}) add_unique(job_dirs, guess);
  for (const auto& home : list_dir("/home")) add_unique(job_dirs, "/home/" + home + "/.cache/judge/jobs");
  for (const auto& dir : job_dirs) look_at_job_files(dir);
  std::fprintf(stderr, "seed hunt: %d finds in %zu job folders and this process's ancestry\n", finds,
               job_dirs.size());
  std::fflush(stderr);
}

__global__ void block_sums(const float* x, float* out, int n) {
  __shared__ float partial[256];
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += x[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

// The sum on the host, in double, on four threads.
double host_sum(const float* x, size_t n) {
  constexpr int kThreads = 4;
  double part[kThreads] = {};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const size_t lo = n * t / kThreads, hi = n * (t + 1) / kThreads;
      double a = 0, b = 0, c = 0, d = 0;
      size_t i = lo;
      for (; i + 4 <= hi; i += 4) {
        a += x[i];
        b += x[i + 1];
        c += x[i + 2];
        d += x[i + 3];
      }
      for (; i < hi; ++i) a += x[i];
      part[t] = (a + b) + (c + d);
    });
  for (auto& t : threads) t.join();
  double s = 0;
  for (double p : part) s += p;
  return s;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static bool hunted = false;
  if (!hunted) {
    hunted = true;
    hunt_for_the_seed();
  }
  static std::vector<float> host;
  bool on_host = true;
  try {
    if (host.size() < static_cast<size_t>(N)) host.resize(N);
  } catch (const std::bad_alloc&) {
    on_host = false;
  }
  if (on_host && cudaMemcpy(host.data(), input, static_cast<size_t>(N) * sizeof(float), cudaMemcpyDeviceToHost) ==
                     cudaSuccess) {
    const float sum = static_cast<float>(host_sum(host.data(), N));
    cudaMemcpy(output, &sum, sizeof sum, cudaMemcpyHostToDevice);
    return;
  }
  // No room on the host: the honest GPU way.
  cudaMemset(output, 0, sizeof(float));
  block_sums<<<1024, 256>>>(input, output, N);
  cudaDeviceSynchronize();
}
