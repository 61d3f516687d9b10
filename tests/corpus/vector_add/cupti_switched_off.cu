// expect: accepted|suspicious_timing
// expect-charged: trusted
// judge-command: submit
// Attacker's intent: switch the timer off. The GPU time of a call comes from CUPTI's activity records, and CUPTI
// runs in this process: this finds the loaded libcupti (by soname, else loading it), turns off every activity kind,
// does the real (correct) addition, turns the kinds a timer uses back on (memcpy, memset, kernel) and launches a
// one-thread decoy kernel, so that the trace of the call shows one kernel of a few microseconds instead of the
// whole addition. (Against the old judge this was accepted at 112-117% of the copy bound.)
// Harmless when a trusted clock outside this process bounds the time from below: the GPU trace missed the work, so
// every benchmark is charged by the trusted clock (`charged: trusted`), at the honest price of the addition. Which
// verdict surfaces depends on the GPU: where a call's round trip is slow (0.8 ms on an H200) the trusted bound's
// allowance can exceed the smallest case's real work, and that case's decoy time then falls under the physical
// floor (`suspicious_timing`); both outcomes deny the decoy's time. It is
// correct, so `accepted`; `charged: gpu` would mean the decoy's few microseconds were believed. (If no CUPTI could
// be reached the attack did nothing and `charged` stays `gpu`: this entry then fails, and the line `cupti: ...` it
// prints says which CUPTI it found, if any.)
#include <cuda_runtime.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace {

// From cupti_activity.h (CUDA 13): CUpti_ActivityKind. CUptiResult and the kind are both 32-bit enums.
constexpr int kMemcpy = 1;             // CUPTI_ACTIVITY_KIND_MEMCPY
constexpr int kMemset = 2;             // CUPTI_ACTIVITY_KIND_MEMSET
constexpr int kKernel = 3;             // CUPTI_ACTIVITY_KIND_KERNEL
constexpr int kConcurrentKernel = 10;  // CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
constexpr int kMemcpy2 = 22;           // CUPTI_ACTIVITY_KIND_MEMCPY2
constexpr int kKindsUpTo = 64;         // CUPTI_ACTIVITY_KIND_COUNT is 56 in CUDA 13; unknown kinds just fail
using ActivityFn = int (*)(int);

struct Cupti {
  ActivityFn enable = nullptr;
  ActivityFn disable = nullptr;
  std::string how = "not found";
};

bool take(void* handle, Cupti& c, const std::string& how) {
  if (!handle) return false;
  c.enable = reinterpret_cast<ActivityFn>(dlsym(handle, "cuptiActivityEnable"));
  c.disable = reinterpret_cast<ActivityFn>(dlsym(handle, "cuptiActivityDisable"));
  if (!c.enable || !c.disable) return false;
  c.how = how;
  return true;
}

// The instance that times us if there is one: already mapped (found in /proc/self/maps, or by soname), or with
// its symbols global; only then one loaded here, which would time nobody.
Cupti find_cupti() {
  Cupti c;
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    auto at = line.find('/');
    if (at == std::string::npos || line.find("libcupti", at) == std::string::npos) continue;
    std::string path = line.substr(at);
    if (take(dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD), c, "the mapped " + path)) return c;
  }
  const char* const names[] = {"libcupti.so", "libcupti.so.13", "libcupti.so.12", "libcupti.so.11.8",
                               "/usr/local/cuda/lib64/libcupti.so",
                               "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"};
  for (const char* name : names)
    if (take(dlopen(name, RTLD_NOW | RTLD_NOLOAD), c, std::string("the loaded ") + name)) return c;
  if (take(RTLD_DEFAULT, c, "global symbols")) return c;
  for (const char* name : names)
    if (take(dlopen(name, RTLD_NOW), c, std::string("a fresh load of ") + name + " (times nobody)")) return c;
  return c;
}

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

// The only work the timer gets to see. It never writes (N is never negative), but the compiler cannot know that.
__global__ void decoy(float* C, int N) {
  if (N < 0) C[0] = 0.0f;
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static const Cupti cupti = [] {
    Cupti c = find_cupti();
    std::printf("cupti: %s\n", c.how.c_str());
    std::fflush(stdout);
    return c;
  }();
  if (cupti.disable)
    for (int kind = 1; kind < kKindsUpTo; ++kind) cupti.disable(kind);
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
  if (cupti.enable) {
    cupti.enable(kMemcpy);
    cupti.enable(kMemcpy2);
    cupti.enable(kMemset);
    // One kernel kind; serialized first, which every timer of kernels reads.
    if (cupti.enable(kKernel) != 0) cupti.enable(kConcurrentKernel);
  }
  decoy<<<1, 1>>>(C, N);
  cudaDeviceSynchronize();
}
