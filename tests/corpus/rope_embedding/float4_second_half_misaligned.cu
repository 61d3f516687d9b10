// expect: runtime_error
// expect-message: cudaErrorMisalignedAddress
// Vectorises with float4 whenever D % 4 == 0, but a float4 of the second half starts at element k + D/2, which is
// 16-byte aligned only when D/2 % 4 == 0, i.e. D % 8 == 0. LeetGPU's performance size (D = 128) is, and so are the
// earlier tests with D % 4 == 0 (rows of fewer than 4 pairs, and D = 2, 6, 130, take the scalar path); test 999x36
// (D = 36, second half at element 18 of each row) is not, and the misaligned 16-byte load is a CUDA error.
#include <cuda_runtime.h>

__global__ void rope4_kernel(const float* Q, const float* cos, const float* sin, float* output, int M, int D) {
  const int h = D / 2;
  const int per_row = (h + 3) / 4;  // groups of 4 pairs, the last one maybe partial
  const long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= (long long)M * per_row) return;
  const long long r = g / per_row;
  const int k = 4 * (int)(g - r * per_row);
  const long long lo = r * D + k;
  if (k + 4 <= h) {
    const float4 x1 = *reinterpret_cast<const float4*>(Q + lo);
    const float4 x2 = *reinterpret_cast<const float4*>(Q + lo + h);  // the mistake: aligned only if h % 4 == 0
    const float4 c = *reinterpret_cast<const float4*>(cos + lo);
    const float4 s = *reinterpret_cast<const float4*>(sin + lo);
    *reinterpret_cast<float4*>(output + lo) = make_float4(x1.x * c.x - x2.x * s.x, x1.y * c.y - x2.y * s.y,
                                                          x1.z * c.z - x2.z * s.z, x1.w * c.w - x2.w * s.w);
    *reinterpret_cast<float4*>(output + lo + h) = make_float4(x2.x * c.x + x1.x * s.x, x2.y * c.y + x1.y * s.y,
                                                              x2.z * c.z + x1.z * s.z, x2.w * c.w + x1.w * s.w);
  } else {
    for (int j = k; j < h; ++j) {
      const long long a = r * D + j, b = a + h;
      output[a] = Q[a] * cos[a] - Q[b] * sin[a];
      output[b] = Q[b] * cos[b] + Q[a] * sin[b];
    }
  }
}

__global__ void rope1_kernel(const float* Q, const float* cos, const float* sin, float* output, int M, int D) {
  const int h = D / 2;
  const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= (long long)M * h) return;
  const long long r = p / h;
  const long long a = r * D + (p - r * h), b = a + h;
  output[a] = Q[a] * cos[a] - Q[b] * sin[a];
  output[b] = Q[b] * cos[b] + Q[a] * sin[b];
}

extern "C" void solve(float* Q, float* cos, float* sin, float* output, int M, int D) {
  if (D % 4 == 0) {
    const long long groups = (long long)M * ((D / 2 + 3) / 4);
    rope4_kernel<<<(int)((groups + 255) / 256), 256>>>(Q, cos, sin, output, M, D);
  } else {
    const long long pairs = (long long)M * (D / 2);
    rope1_kernel<<<(int)((pairs + 255) / 256), 256>>>(Q, cos, sin, output, M, D);
  }
  cudaDeviceSynchronize();
}
