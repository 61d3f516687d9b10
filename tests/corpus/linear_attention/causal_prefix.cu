// expect: wrong_answer
// expect-message: elements wrong
// Causal linear attention: query i sums over the keys j <= i only, the autoregressive form of the same paper. This
// challenge is not causal: every query sees every key. Only the last row is right; the example (rows 0 and 1) and
// zeros_qk_500x16 (row i gets the mean of V's first i + 1 rows instead of all 500) fail.
#include <cuda_runtime.h>

#include <math.h>

__device__ float phi(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

// One thread per output element; weights phi(Q[i]) . phi(K[j]) formed for every key up to i.
__global__ void causal_kernel(const float* Q, const float* K, const float* V, float* output, int M, int d) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= M * d) return;
  const int i = e / d, c = e % d;
  float num = 0.0f, den = 0.0f;
  for (int j = 0; j <= i; ++j) {  // the mistake: j < M
    float w = 0.0f;
    for (int a = 0; a < d; ++a) w += phi(Q[i * d + a]) * phi(K[j * d + a]);
    num += w * V[j * d + c];
    den += w;
  }
  output[e] = num / den;
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d) {
  const int threads = 256;
  causal_kernel<<<(M * d + threads - 1) / threads, threads>>>(Q, K, V, output, M, d);
  cudaDeviceSynchronize();
}
