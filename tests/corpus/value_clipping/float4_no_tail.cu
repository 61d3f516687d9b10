// expect: wrong_answer
// expect-message: never written
// judge-args: --case n7 --case n4097
// A float4 kernel without the scalar tail: only the first 4 * floor(N / 4) elements are written, so N = 7 leaves the
// last 3 and N = 4097 the last one holding the judge's poison. (For N < 4 nothing at all is written, which is
// `output_not_written`; the cases named above have something to get right.)
#include <cuda_runtime.h>

__device__ float clip(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }

__global__ void clip_kernel(const float4* input, float4* output, float lo, float hi, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = input[i];
    output[i] = make_float4(clip(v.x, lo, hi), clip(v.y, lo, hi), clip(v.z, lo, hi), clip(v.w, lo, hi));
  }
}

extern "C" void solve(const float* input, float* output, float lo, float hi, int N) {
  const int n4 = N / 4;
  if (n4 > 0)
    clip_kernel<<<(n4 + 255) / 256, 256>>>(reinterpret_cast<const float4*>(input), reinterpret_cast<float4*>(output),
                                           lo, hi, n4);
  cudaDeviceSynchronize();
}
