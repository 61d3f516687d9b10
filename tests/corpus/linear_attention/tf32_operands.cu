// expect: wrong_answer
// expect-message: elements wrong
// submissions/linear_attention/1_two_kernels.cu with every operand of both products rounded to TF32 (10-bit
// mantissa, as tensor cores in TF32 mode take them) and float accumulation: what an mma.sync .tf32 kernel computes.
// Each operand then carries a relative error up to 2^-11 = 4.9e-4, five times rtol: the outputs miss by 10x to 16x
// the tolerance on large_1000x64 (values in [-100, 100)) and by about 2x on the example, whose e^-1 and e^-2 lose
// their low bits; the other tests, with values in [-1, 1), pass.
#include <cuda_runtime.h>

#include <math.h>

#define MAX_D 128  // the constraints' largest d

__device__ float g_kv[MAX_D * (MAX_D + 1)];  // [S | z], row-major d x (d + 1): column d is z

__device__ float phi(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

// Round to nearest TF32, ties away from zero: the conversion tensor-core kernels apply to their operands.
__device__ float tf32(float x) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return __uint_as_float(r);
}

__global__ void kv_kernel(const float* K, const float* V, int M, int d) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= d * (d + 1)) return;
  const int a = e / (d + 1), c = e % (d + 1);
  float acc = 0.0f;
  for (int j = 0; j < M; ++j) {
    const float k = tf32(phi(K[j * d + a]));
    acc += c < d ? k * tf32(V[j * d + c]) : k;
  }
  g_kv[e] = acc;
}

__global__ void output_kernel(const float* Q, float* output, int M, int d) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= M * d) return;
  const int i = e / d, c = e % d;
  float num = 0.0f, den = 0.0f;
  for (int a = 0; a < d; ++a) {
    const float q = tf32(phi(Q[i * d + a]));
    num += q * tf32(g_kv[a * (d + 1) + c]);
    den += q * tf32(g_kv[a * (d + 1) + d]);
  }
  output[e] = num / den;
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d) {
  const int threads = 256;
  kv_kernel<<<(d * (d + 1) + threads - 1) / threads, threads>>>(K, V, M, d);
  output_kernel<<<(M * d + threads - 1) / threads, threads>>>(Q, output, M, d);
  cudaDeviceSynchronize();
}
