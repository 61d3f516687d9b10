// expect: wrong_answer
// expect-message: elements wrong
// submissions/ssm_selective_scan/1_thread_per_channel.cu indexing B and C by the step alone (B[t][n]), as if they were
// shared by the whole batch rather than by the channels of one sequence. Every batch-1 test passes (the example
// included); layout_3x37x12x5 and every later test with batch > 1 give sequences b > 0 the projections of sequence 0.
#include <cuda_runtime.h>
#include <math.h>

#define MAX_STATE 64  // the constraints' largest d_state

__global__ void scan_channel(const float* u, const float* delta, const float* A, const float* B, const float* C,
                             const float* skip, float* y, int batch, int T, int D, int N) {
  const int ch = blockIdx.x * blockDim.x + threadIdx.x;
  if (ch >= batch * D) return;
  const int b = ch / D, d = ch % D;
  float h[MAX_STATE];
  for (int n = 0; n < N; ++n) h[n] = 0.0f;
  const float sk = skip[d];
  for (int t = 0; t < T; ++t) {
    const size_t bt = (size_t)b * T + t;
    const float de = delta[bt * D + d], uu = u[bt * D + d];
    float acc = 0.0f;
    for (int n = 0; n < N; ++n) {
      h[n] = fmaf(expf(de * A[d * N + n]), h[n], de * B[(size_t)t * N + n] * uu);
      acc = fmaf(C[(size_t)t * N + n], h[n], acc);
    }
    y[bt * D + d] = fmaf(sk, uu, acc);
  }
}

extern "C" void solve(const float* u, const float* delta, const float* A, const float* B, const float* C,
                      const float* skip, float* y, int batch, int seq_len, int d_model, int d_state) {
  const int threads = 128;
  const int channels = batch * d_model;
  scan_channel<<<(channels + threads - 1) / threads, threads>>>(u, delta, A, B, C, skip, y, batch, seq_len, d_model,
                                                                 d_state);
  cudaDeviceSynchronize();
}
