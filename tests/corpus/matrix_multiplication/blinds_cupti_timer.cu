// expect: accepted|suspicious_timing
// expect-charged: honest
// judge-command: submit
// Attacks the timer itself. The judge times a call by CUPTI activity records, and CUPTI lives in the process that
// runs solve(): this looks up cuptiActivityDisable/Enable, switches kernel records off (both kinds: the judge's
// serialized one and the concurrent one), runs the (correct) cuBLAS GEMM, switches the serialized kind back on and
// adds a 4-byte memset so that the call is not empty. CUPTI then sees only the memset: a 4096^3 GEMM "in" a few
// microseconds. (Against the judge before the trust boundary this was caught only by the physical floor.)
// Harmless when a clock outside the submission's process bounds each call from below: where the trace missed the
// work, the benchmark is charged by the trusted clock (`charged: trusted`), at the GEMM's honest price, and the run is
// accepted (the GEMM is correct). CUPTI does not always miss it: on an H200 the 6000x3000x5000 case's GEMM showed in
// the trace (3.92 ms against the trusted 4.82 ms) and was charged by it, also honestly; hence `honest` (every
// benchmark charged at least half the trusted time) rather than `trusted`. Where a call's round trip is slow the
// trusted allowance can exceed a case's real work and the memset's time then falls under the physical floor
// (`suspicious_timing`); both deny the decoy. A charge of microseconds would mean the memset's time was believed.
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
