// expect: wrong_answer
// expect-message: 1 never written
// judge-args: --case n4097
// A float4 kernel that covers N / 4 whole vectors and forgets the last N % 4 elements. Right whenever N is a multiple
// of 4 (as in LeetGPU's performance size); n4097 leaves output[4096] holding the judge's poison.
#include <cuda_runtime.h>
__global__ void silu4(const float4* input, float4* output, int n4) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    const float4 v = input[i];
    output[i] = make_float4(v.x / (1.0f + expf(-v.x)), v.y / (1.0f + expf(-v.y)), v.z / (1.0f + expf(-v.z)),
                            v.w / (1.0f + expf(-v.w)));
  }
}
extern "C" void solve(const float* input, float* output, int N) {
  const int n4 = N / 4;
  if (n4 > 0)
    silu4<<<(n4 + 255) / 256, 256>>>(reinterpret_cast<const float4*>(input), reinterpret_cast<float4*>(output), n4);
  cudaDeviceSynchronize();
}
