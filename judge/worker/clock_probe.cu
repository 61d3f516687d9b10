#include "judge/worker/clock_probe.hpp"

#include "judge/worker/cuda_check.hpp"

namespace judge {

namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void clock_kernel(unsigned long long* out, unsigned long long span_ns) {
  unsigned long long t0 = global_ns();
  long long c0 = clock64();
  unsigned long long t1 = t0;
  while (t1 - t0 < span_ns) t1 = global_ns();
  long long c1 = clock64();
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

}  // namespace

void ClockProbe::Free::operator()(unsigned long long* p) const { JUDGE_CUDA_NOTHROW(cudaFree(p)); }

ClockProbe::ClockProbe(int device) {
  int khz = 0;
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  max_mhz_ = khz / 1000.0;
  JUDGE_CUDA_CHECK(cudaMalloc(&result_, 2 * sizeof(unsigned long long)));
  owner_.reset(result_);
}

double ClockProbe::measure_mhz(cudaStream_t stream) {
  clock_kernel<<<1, 1, 0, stream>>>(result_, 50'000);
  JUDGE_CUDA_CHECK(cudaGetLastError());
  unsigned long long host[2] = {0, 0};
  JUDGE_CUDA_CHECK(cudaMemcpyAsync(host, result_, sizeof host, cudaMemcpyDeviceToHost, stream));
  JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host[1] ? static_cast<double>(host[0]) / static_cast<double>(host[1]) * 1e3 : 0.0;
}

}  // namespace judge
