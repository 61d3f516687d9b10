// expect: wrong_answer
// expect-message: elements wrong
// submissions/linear_attention/1_two_kernels.cu with phi(x) = relu(x) + 1: right for x >= 0, but 1 instead of
// exp(x) for negative inputs. Caught by the example (Q[1][1] = -1, K[1][0] = -2) and by negative_qk_300x32, where
// every feature becomes 1 and the output the plain mean of V.
#include <cuda_runtime.h>

#include <math.h>

#define MAX_D 128  // the constraints' largest d

__device__ float g_kv[MAX_D * (MAX_D + 1)];  // [S | z], row-major d x (d + 1): column d is z

// The mistake: relu(x) + 1.
__device__ float phi(float x) { return fmaxf(x, 0.0f) + 1.0f; }

__global__ void kv_kernel(const float* K, const float* V, int M, int d) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= d * (d + 1)) return;
  const int a = e / (d + 1), c = e % (d + 1);
  float acc = 0.0f;
  for (int j = 0; j < M; ++j) {
    const float k = phi(K[j * d + a]);
    acc += c < d ? k * V[j * d + c] : k;  // column d: V's column of ones, the normaliser
  }
  g_kv[e] = acc;
}

__global__ void output_kernel(const float* Q, float* output, int M, int d) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= M * d) return;
  const int i = e / d, c = e % d;
  float num = 0.0f, den = 0.0f;
  for (int a = 0; a < d; ++a) {
    const float q = phi(Q[i * d + a]);
    num += q * g_kv[a * (d + 1) + c];
    den += q * g_kv[a * (d + 1) + d];
  }
  output[e] = num / den;
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d) {
  const int threads = 256;
  kv_kernel<<<(d * (d + 1) + threads - 1) / threads, threads>>>(K, V, M, d);
  output_kernel<<<(M * d + threads - 1) / threads, threads>>>(Q, output, M, d);
  cudaDeviceSynchronize();
}
