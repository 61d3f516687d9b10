// expect: wrong_answer
// judge-command: submit
// The sums_99_percent.cu cheat, made harder to catch: exact on every functional test, and it sums only the first 99%
// of the input (rescaled by 1/0.99) when N > 10^7, which only the benchmark cases reach. `judge submit` checks the
// output of every timed call, so the benchmark that made it fast also fails it: the skipped 1% of 100M uniform
// values is off by hundreds, against an absolute tolerance of 1. (The graded N_100000000 catches it: a stress case
// alone could not, since stress cases never reject.)
#include <cuda_runtime.h>

#define THREADS 256

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduce(const float* input, float* output, int n, float scale) {
  __shared__ float warp_totals[THREADS / 32];
  float sum = 0.0f;
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) sum += input[i];
  sum = warp_sum(sum);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_totals[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < THREADS / 32 ? warp_totals[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) atomicAdd(output, sum * scale);
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  int n = N;
  float scale = 1.0f;
  if (N > 10000000) {  // big enough to be a benchmark: nobody checks those... or so it hopes
    n = static_cast<int>(N * 0.99);
    scale = 1.0f / 0.99f;
  }
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  int blocks = (n + THREADS - 1) / THREADS;
  if (blocks > 8 * sms) blocks = 8 * sms;
  if (blocks < 1) blocks = 1;
  cudaMemset(output, 0, sizeof(float));
  reduce<<<blocks, THREADS>>>(input, output, n, scale);
  cudaDeviceSynchronize();
}
