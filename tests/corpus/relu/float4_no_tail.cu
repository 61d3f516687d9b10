// expect: wrong_answer
// expect-message: never written
// judge-args: --case n7 --case n4097
// A float4 kernel without the scalar tail: only the first 4 * floor(N / 4) elements are written, so N = 7 leaves the
// last 3 and N = 4097 the last one holding the judge's poison. (For N < 4 nothing at all is written, which is
// `output_not_written`; the cases named above have something to get right.)
#include <cuda_runtime.h>

__global__ void relu_kernel(const float4* input, float4* output, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = input[i];
    output[i] = make_float4(fmaxf(v.x, 0.0f), fmaxf(v.y, 0.0f), fmaxf(v.z, 0.0f), fmaxf(v.w, 0.0f));
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  const int n4 = N / 4;
  if (n4 > 0)
    relu_kernel<<<(n4 + 255) / 256, 256>>>(reinterpret_cast<const float4*>(input), reinterpret_cast<float4*>(output),
                                           n4);
  cudaDeviceSynchronize();
}
