// expect: suspicious_timing
// judge-command: submit
// Attacks the timer itself. The judge times a call by CUPTI activity records, and CUPTI lives in the same process:
// this looks up cuptiActivityDisable/Enable, switches kernel records off (both kinds: the judge's serialized one and
// the concurrent one), runs the (correct) cuBLAS GEMM, switches the serialized kind back on and adds a 4-byte memset
// so that the call is not empty. The timer then sees only the memset: a
// 4096^3 GEMM "in" a few microseconds, hundreds of times faster than the GPU's arithmetic allows. In-process code can
// tamper with any in-process probe; what catches it is the physical floor (flops / peak rate): `suspicious_timing`.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <dlfcn.h>

namespace {
constexpr int kKernel = 3;             // CUPTI_ACTIVITY_KIND_KERNEL
constexpr int kConcurrentKernel = 10;  // CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
using ActivityFn = int (*)(int);
}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    cublasCreate(&h);
    return h;
  }();
  static auto disable = reinterpret_cast<ActivityFn>(dlsym(RTLD_DEFAULT, "cuptiActivityDisable"));
  static auto enable = reinterpret_cast<ActivityFn>(dlsym(RTLD_DEFAULT, "cuptiActivityEnable"));
  static float* token = [] {
    float* p = nullptr;
    cudaMalloc(&p, sizeof(float));
    return p;
  }();
  const float one = 1.0f, zero = 0.0f;
  if (disable) {
    disable(kKernel);
    disable(kConcurrentKernel);
  }
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K);
  cudaDeviceSynchronize();
  if (enable) enable(kKernel);
  cudaMemsetAsync(token, 0, sizeof(float));  // the only activity the timer gets to see
  cudaDeviceSynchronize();
}
