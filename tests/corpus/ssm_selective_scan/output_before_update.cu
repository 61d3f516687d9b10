// expect: wrong_answer
// expect-message: elements wrong
// submissions/ssm_selective_scan/1_thread_per_channel.cu reading the output from the state before this step's update
// (y[t] = C[t] . h[t-1] + skip u[t]), the classic off-by-one between the state and the output. The statement's
// example catches it at once: y[0] would be [0, 0] instead of [1, 0].
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
      acc = fmaf(C[bt * N + n], h[n], acc);  // the state of step t - 1
      h[n] = fmaf(expf(de * A[d * N + n]), h[n], de * B[bt * N + n] * uu);
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
