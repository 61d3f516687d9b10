// Rung 1: two kernels, no M x M matrix. The first forms [S | z] = phi(K)^T [V | 1] (S = phi(K)^T V and the
// normaliser z = sum over keys of phi(K[j]) as one extra column), one thread per entry, each looping over all M keys.
// The second gives every output element a thread: output[i][c] = phi(Q[i]) . S[:, c] / phi(Q[i]) . z.
#include <cuda_runtime.h>

#include <math.h>

#define MAX_D 128  // the constraints' largest d

__device__ float g_kv[MAX_D * (MAX_D + 1)];  // [S | z], row-major d x (d + 1): column d is z

// elu(x) + 1: positive for every x, so the denominator never vanishes.
__device__ float phi(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

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
