// Rung 2: the input is read once instead of three times. The block copies its row into shared memory (float4 loads
// when rows are 16-byte aligned) while summing it; the variance and the output are computed from that copy, so a call
// moves 8 bytes per element instead of 12. Block sums use warp shuffles and one exchange through shared memory, and
// the block is sized to the row (32 to 256 threads), so short rows no longer leave most threads idle.
#include <cuda_runtime.h>

#include <stdint.h>

#define MAX_THREADS 256

// Sum of v over the block (blockDim.x a multiple of 32); every thread gets the result. Holds barriers.
__device__ float block_sum(float v, float* warp_sums) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  float total = 0.0f;
  for (int w = 0; w < blockDim.x / 32; ++w) total += warp_sums[w];
  __syncthreads();  // warp_sums is reused by the next call
  return total;
}

__global__ void layer_norm_kernel(const float* input, const float* weight, const float* bias, float* output, int C,
                                  float eps, bool vec4) {
  extern __shared__ float row[];  // C floats
  __shared__ float warp_sums[MAX_THREADS / 32];
  const float* x = input + (size_t)blockIdx.x * C;
  float* y = output + (size_t)blockIdx.x * C;

  float sum = 0.0f;
  if (vec4) {
    for (int q = threadIdx.x; q < C / 4; q += blockDim.x) {
      const float4 v = reinterpret_cast<const float4*>(x)[q];
      reinterpret_cast<float4*>(row)[q] = v;
      sum += (v.x + v.y) + (v.z + v.w);
    }
  } else {
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
      row[j] = x[j];
      sum += row[j];
    }
  }
  // block_sum's barriers also make every thread's part of row[] visible to the others.
  const float mean = block_sum(sum, warp_sums) / C;

  float squares = 0.0f;
  for (int j = threadIdx.x; j < C; j += blockDim.x) {
    const float d = row[j] - mean;
    squares += d * d;
  }
  const float inv_std = rsqrtf(block_sum(squares, warp_sums) / C + eps);

  if (vec4) {
    for (int q = threadIdx.x; q < C / 4; q += blockDim.x) {
      const float4 v = reinterpret_cast<const float4*>(row)[q];
      const float4 w = reinterpret_cast<const float4*>(weight)[q];
      const float4 b = reinterpret_cast<const float4*>(bias)[q];
      float4 o;
      o.x = (v.x - mean) * inv_std * w.x + b.x;
      o.y = (v.y - mean) * inv_std * w.y + b.y;
      o.z = (v.z - mean) * inv_std * w.z + b.z;
      o.w = (v.w - mean) * inv_std * w.w + b.w;
      reinterpret_cast<float4*>(y)[q] = o;
    }
  } else {
    for (int j = threadIdx.x; j < C; j += blockDim.x) y[j] = (row[j] - mean) * inv_std * weight[j] + bias[j];
  }
}

static bool aligned16(const void* p) { return (uintptr_t)p % 16 == 0; }

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int N, int C,
                      float eps) {
  // Every row starts on a 16-byte boundary only if C is a multiple of 4 (and the matrix itself is aligned).
  const bool vec4 =
      C % 4 == 0 && aligned16(input) && aligned16(weight) && aligned16(bias) && aligned16(output);
  const int work = vec4 ? C / 4 : C;  // loads per row
  int threads = (work + 31) / 32 * 32;
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  layer_norm_kernel<<<N, threads, C * sizeof(float)>>>(input, weight, bias, output, C, eps, vec4);
  cudaDeviceSynchronize();
}
