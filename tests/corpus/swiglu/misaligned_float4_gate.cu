// expect: runtime_error
// expect-message: cudaErrorMisalignedAddress
// Reads the gate half x2 = input + N/2 as float4 without checking its alignment. input itself is 16-byte aligned,
// but input + N/2 is only when N/2 is a multiple of 4: LeetGPU's performance size (N/2 = 50,000) is, n66 (N/2 = 33)
// is not, and the misaligned 16-byte load is a CUDA error. (example_4 and n2 have fewer than 4 outputs: no vectors.)
#include <cuda_runtime.h>
__device__ float swiglu(float a, float b) { return a / (1.0f + expf(-a)) * b; }
__global__ void swiglu4(const float* input, float* output, int halfN) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int n4 = halfN / 4;
  if (i < n4) {
    const float4 a = reinterpret_cast<const float4*>(input)[i];
    const float4 b = reinterpret_cast<const float4*>(input + halfN)[i];
    reinterpret_cast<float4*>(output)[i] =
        make_float4(swiglu(a.x, b.x), swiglu(a.y, b.y), swiglu(a.z, b.z), swiglu(a.w, b.w));
  }
  if (i < halfN - 4 * n4) {
    const int j = 4 * n4 + i;
    output[j] = swiglu(input[j], input[halfN + j]);
  }
}
extern "C" void solve(const float* input, float* output, int N) {
  const int halfN = N / 2;
  const int work = halfN / 4 > 0 ? halfN / 4 : 1;
  swiglu4<<<(work + 255) / 256, 256>>>(input, output, halfN);
  cudaDeviceSynchronize();
}
