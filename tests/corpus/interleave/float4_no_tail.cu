// expect: wrong_answer
// expect-message: never written
// judge-args: --case n7 --case n4097
// A float4 kernel without the scalar tail: each thread reads four elements of A and four of B and writes the eight
// outputs they make as two float4s, for the first floor(N / 4) groups only. N = 7 leaves the last 3 pairs (6 outputs)
// and N = 4097 the last pair holding the judge's poison. (For N < 4 nothing at all is written, which is
// `output_not_written`; the cases named above have something to get right.)
#include <cuda_runtime.h>

__global__ void interleave_kernel(const float4* A, const float4* B, float4* output, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 a = A[i], b = B[i];
    output[2 * i] = make_float4(a.x, b.x, a.y, b.y);
    output[2 * i + 1] = make_float4(a.z, b.z, a.w, b.w);
  }
}

extern "C" void solve(const float* A, const float* B, float* output, int N) {
  const int n4 = N / 4;
  if (n4 > 0)
    interleave_kernel<<<(n4 + 255) / 256, 256>>>(reinterpret_cast<const float4*>(A), reinterpret_cast<const float4*>(B),
                                                 reinterpret_cast<float4*>(output), n4);
  cudaDeviceSynchronize();
}
