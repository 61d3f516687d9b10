// Rung 3: the row in registers, float4 throughout, and a warp (not a block) per row when C <= 512.
// Rung 2 staged each row in shared memory and ran every row on a block of up to 256 threads with two block-wide
// reductions. Here each thread loads its share of the row straight into registers, all its loads issued together
// (C = 512: a warp per row, 16 floats per lane as 4 float4s, 8 rows per block, and the reductions are register
// shuffles with no barrier; C = 4096: a block of 256 per row, again 4 float4s per thread). The mean and then the sum
// of squared deviations from it (the two-pass variance) both come from those registers, so the input is read once,
// and weight and bias are read as float4 (L1/L2 hits after the first rows). Rows with C % 4 != 0 are not 16-byte
// aligned and load scalars. C <= 4096 (the constraints) always fits.
#include <cuda_runtime.h>

#include <stdint.h>

#define WARP_ROWS 8  // rows per 256-thread block when a warp owns a row

// Sum over the TPR threads that own a row: a warp (TPR = 32) or the whole block (TPR = blockDim.x); every one of
// them gets the result. With TPR > 32 it holds a barrier: every thread of the block must call it, and each
// `exchange` array is used once.
template <int TPR>
__device__ float row_sum(float v, float* exchange) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  if (TPR == 32) return v;
  if (threadIdx.x % 32 == 0) exchange[threadIdx.x / 32] = v;
  __syncthreads();
  v = exchange[0];
  for (int w = 1; w < TPR / 32; ++w) v += exchange[w];  // same order in every thread: identical results
  return v;
}

// TPR threads per row (32: a warp per row, WARP_ROWS rows per block; otherwise the block is TPR threads and owns one
// row). Each thread holds V float4s (VEC) or V scalars: rows up to TPR * V * (VEC ? 4 : 1) floats fit. Thread t's
// k-th load is float4 (or float) number t + k * TPR of the row.
template <int TPR, int V, bool VEC>
__global__ void __launch_bounds__(TPR == 32 ? 32 * WARP_ROWS : TPR)
    layer_norm_regs(const float* input, const float* weight, const float* bias, float* output, int N, int C,
                    float eps) {
  constexpr int W = VEC ? 4 : 1;
  constexpr int E = V * W;
  __shared__ float exchange_mean[TPR / 32], exchange_var[TPR / 32];
  const int t = TPR == 32 ? threadIdx.x % 32 : threadIdx.x;
  const long long row = TPR == 32 ? (long long)blockIdx.x * WARP_ROWS + threadIdx.x / 32 : blockIdx.x;
  if (row >= N) return;  // TPR = 32: whole warps only; TPR > 32: never (the grid has N blocks)
  const float* x = input + row * C;
  float* y = output + row * C;
  const int loads = VEC ? C / 4 : C;

  float v[E];
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = t + k * TPR;
    if (VEC) {
      float4 q = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (i < loads) q = reinterpret_cast<const float4*>(x)[i];
      v[4 * k] = q.x, v[4 * k + 1] = q.y, v[4 * k + 2] = q.z, v[4 * k + 3] = q.w;
    } else {
      v[k] = i < loads ? x[i] : 0.0f;
    }
  }
#pragma unroll
  for (int e = 0; e < E; ++e) sum += v[e];  // out-of-row entries are 0
  const float mean = row_sum<TPR>(sum, exchange_mean) / C;

  float squares = 0.0f;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    if (t + k * TPR < loads) {  // out-of-row entries would add mean^2
#pragma unroll
      for (int w = 0; w < W; ++w) {
        const float d = v[W * k + w] - mean;
        squares += d * d;
      }
    }
  }
  const float inv_std = rsqrtf(row_sum<TPR>(squares, exchange_var) / C + eps);

#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = t + k * TPR;
    if (i < loads) {
      if (VEC) {
        const float4 g = reinterpret_cast<const float4*>(weight)[i];
        const float4 b = reinterpret_cast<const float4*>(bias)[i];
        float4 o;
        o.x = (v[4 * k] - mean) * inv_std * g.x + b.x;
        o.y = (v[4 * k + 1] - mean) * inv_std * g.y + b.y;
        o.z = (v[4 * k + 2] - mean) * inv_std * g.z + b.z;
        o.w = (v[4 * k + 3] - mean) * inv_std * g.w + b.w;
        reinterpret_cast<float4*>(y)[i] = o;
      } else {
        y[i] = (v[k] - mean) * inv_std * weight[i] + bias[i];
      }
    }
  }
}

template <int TPR, int V, bool VEC>
static void launch(const float* input, const float* weight, const float* bias, float* output, int N, int C, float eps) {
  if (TPR == 32)
    layer_norm_regs<TPR, V, VEC>
        <<<(N + WARP_ROWS - 1) / WARP_ROWS, 32 * WARP_ROWS>>>(input, weight, bias, output, N, C, eps);
  else
    layer_norm_regs<TPR, V, VEC><<<N, TPR>>>(input, weight, bias, output, N, C, eps);
}

static bool aligned16(const void* p) { return (uintptr_t)p % 16 == 0; }

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int N, int C,
                      float eps) {
  // Every row starts on a 16-byte boundary only if C is a multiple of 4 (and the matrix itself is aligned).
  const bool vec4 = C % 4 == 0 && aligned16(input) && aligned16(weight) && aligned16(bias) && aligned16(output);
  if (vec4) {
    if (C <= 128)
      launch<32, 1, true>(input, weight, bias, output, N, C, eps);
    else if (C <= 256)
      launch<32, 2, true>(input, weight, bias, output, N, C, eps);
    else if (C <= 512)
      launch<32, 4, true>(input, weight, bias, output, N, C, eps);  // benchmark 65536 x 512
    else if (C <= 1024)
      launch<64, 4, true>(input, weight, bias, output, N, C, eps);
    else if (C <= 2048)
      launch<128, 4, true>(input, weight, bias, output, N, C, eps);
    else
      launch<256, 4, true>(input, weight, bias, output, N, C, eps);  // C <= 4096; benchmark 8192 x 4096
  } else {
    if (C <= 32)
      launch<32, 1, false>(input, weight, bias, output, N, C, eps);
    else if (C <= 128)
      launch<32, 4, false>(input, weight, bias, output, N, C, eps);
    else if (C <= 512)
      launch<32, 16, false>(input, weight, bias, output, N, C, eps);
    else
      launch<256, 16, false>(input, weight, bias, output, N, C, eps);  // C <= 4096
  }
  cudaDeviceSynchronize();
}
