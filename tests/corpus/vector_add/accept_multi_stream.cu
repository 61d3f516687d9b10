// expect: accepted
// judge-command: submit
// expect-timer: cupti-concurrent
// Splits the vector into four chunks, one per stream (created once), and waits for all four before returning: a
// legitimate way to use streams, which the judge must accept and time like any other (its timer sees every stream).
// Its kernels may overlap, so the judge must time them with CUPTI's concurrent tracing, not serialized.
#include <cuda_runtime.h>

#define STREAMS 4

__global__ void add(const float* A, const float* B, float* C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static cudaStream_t streams[STREAMS] = {};
  if (!streams[0])
    for (auto& s : streams) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  const int chunk = (N + STREAMS - 1) / STREAMS;
  for (int k = 0; k < STREAMS; ++k) {
    const int begin = k * chunk;
    const int n = N - begin < chunk ? N - begin : chunk;
    if (n <= 0) break;
    add<<<(n + 255) / 256, 256, 0, streams[k]>>>(A + begin, B + begin, C + begin, n);
  }
  for (auto& s : streams) cudaStreamSynchronize(s);
}
