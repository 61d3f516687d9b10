// Reference for challenges/2d_convolution: output[i][j] = sum_{m,n} input[i + m][j + n] * kernel[m][n], the valid
// cross-correlation (kernel not flipped), all matrices row-major. Two paths:
//
// - Kernels of more than 9 weights (LeetGPU's benchmark has 15 x 15): accuracy first. The tolerance (LeetGPU's
//   1e-5 + 1e-5 |ref|) is tight enough that a float32 sum of 225 products uses up to three quarters of it, so the
//   reference must be exact to float rounding: every product and sum is a double FMA (a product of two floats is
//   exact in double). A block of 32 x 4 threads computes a 64 x 32 tile of outputs; it stages the input tile with
//   its halo in shared memory, converted to double once, and the kernel transposed (kT[n][m], rows zero-padded to a
//   multiple of MC). Each thread computes a column of RY = 16 outputs: for each kernel column n it slides a window
//   of RY + MC - 1 inputs down the column, MC kernel rows at a time, so MC new loads feed RY * MC FMAs. Lanes of a
//   warp read consecutive columns: no bank conflicts; kernel reads are broadcasts. H200: 0.255 ms at LeetGPU's size
//   (about half the FP64 FMA rate; a good float kernel is faster, see the statement).
// - At most 9 weights (3 x 3 and smaller): memory-bound, and a float sum of 9 products errs by under 3% of the
//   tolerance, so this path sums in float (see direct_kernel).
#include <algorithm>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/correlate2d.cuh"

namespace {

constexpr const char* kId = "2d_convolution";
constexpr int kTileCols = 32;  // = blockDim.x
constexpr int kThreadRows = 4;  // = blockDim.y
constexpr int kRY = 16;         // outputs per thread, down a column
constexpr int kTileRows = kThreadRows * kRY;

template <int MC>
__global__ void __launch_bounds__(kTileCols * kThreadRows)
    correlate2d_kernel(const float* __restrict__ x, const float* __restrict__ k, float* __restrict__ y, int H, int W,
                       int KH, int KW, int OH, int OW, int kh_pad) {
  extern __shared__ double shd[];
  const int tile_w = kTileCols + KW - 1;
  const int tile_h = kTileRows + kh_pad - 1;
  double* kT = shd;                     // KW x kh_pad
  double* tile = shd + KW * kh_pad;     // tile_h x tile_w
  const int r0 = blockIdx.y * kTileRows, c0 = blockIdx.x * kTileCols;
  const int tid = threadIdx.y * kTileCols + threadIdx.x;
  judge::ref::stage_kernel_transposed<kTileCols * kThreadRows>(k, kT, KH, KW, kh_pad, tid);
#pragma unroll 4
  for (int rr = threadIdx.y; rr < tile_h; rr += kThreadRows) {
    const int gr = r0 + rr;
    for (int cc = threadIdx.x; cc < tile_w; cc += kTileCols) {
      const int gc = c0 + cc;
      tile[rr * tile_w + cc] = gr < H && gc < W ? double(x[std::int64_t(gr) * W + gc]) : 0.0;
    }
  }
  __syncthreads();

  const int ty0 = threadIdx.y * kRY;  // this thread's outputs: rows r0 + ty0 + [0, kRY), column c0 + threadIdx.x
  double acc[kRY];
#pragma unroll
  for (int r = 0; r < kRY; ++r) acc[r] = 0.0;
  for (int n = 0; n < KW; ++n) {
    const double* col = tile + ty0 * tile_w + threadIdx.x + n;  // rows read: up to tile_h - 1
    judge::ref::slide_window<kRY, MC>([&](int q) { return col[q * tile_w]; }, kT + n * kh_pad, kh_pad, acc);
  }
  const int oc = c0 + threadIdx.x;
  if (oc >= OW) return;
#pragma unroll
  for (int r = 0; r < kRY; ++r) {
    const int orow = r0 + ty0 + r;
    if (orow < OH) y[std::int64_t(orow) * OW + oc] = static_cast<float>(acc[r]);
  }
}

// Small kernels (at most kDirectMaxTaps weights) are memory-bound. On an H200 the double path above reached only
// 0.7-1.9 TB/s on 8192 x 4096 inputs with 3 x 3 kernels (float-to-double conversions, barriers between loading and
// computing), and a double version of this kernel 2.0 TB/s. Here: no shared-memory tile, no conversions; each thread
// computes kDRY outputs down one column, sliding a window of inputs (read through L1, where neighbouring threads'
// reads meet) down each kernel column, in float. At most 9 products per output: under 3% of the tolerance.
constexpr int kDirectMaxTaps = 9;
constexpr int kDX = 128, kDY = 2, kDRY = 8;

template <int MC>
__global__ void __launch_bounds__(kDX * kDY)
    direct_kernel(const float* __restrict__ x, const float* __restrict__ k, float* __restrict__ y, int H, int W,
                  int KH, int KW, int OH, int OW, int kh_pad) {
  __shared__ float kT[kDirectMaxTaps * 8];  // KW x kh_pad, kh_pad <= KH + MC - 1 <= 8 when KH * KW <= 9
  const int tid = threadIdx.y * kDX + threadIdx.x;
  judge::ref::stage_kernel_transposed<kDX * kDY>(k, kT, KH, KW, kh_pad, tid);
  __syncthreads();
  const int j = blockIdx.x * kDX + threadIdx.x;
  const int i0 = (blockIdx.y * kDY + threadIdx.y) * kDRY;
  if (j >= OW || i0 >= OH) return;
  float acc[kDRY];
#pragma unroll
  for (int r = 0; r < kDRY; ++r) acc[r] = 0.0f;
  for (int n = 0; n < KW; ++n) {
    const float* col = x + (j + n);
    // Rows past the input (below a partial last tile) are clamped: they only feed outputs that are not written.
    auto at = [&](int q) {
      const int row = i0 + q;
      return __ldg(col + std::int64_t(row < H ? row : H - 1) * W);
    };
    judge::ref::slide_window<kDRY, MC>(at, kT + n * kh_pad, kh_pad, acc);
  }
#pragma unroll
  for (int r = 0; r < kDRY; ++r)
    if (i0 + r < OH) y[std::int64_t(i0 + r) * OW + j] = acc[r];
}

template <int MC>
void launch(const float* x, const float* k, float* y, int H, int W, int KH, int KW, cudaStream_t s) {
  const int OH = H - KH + 1, OW = W - KW + 1;
  const int kh_pad = (KH + MC - 1) / MC * MC;
  if (KH * KW <= kDirectMaxTaps) {
    const dim3 grid((OW + kDX - 1) / kDX, (OH + kDY * kDRY - 1) / (kDY * kDRY));
    direct_kernel<MC><<<grid, dim3(kDX, kDY), 0, s>>>(x, k, y, H, W, KH, KW, OH, OW, kh_pad);
    judge::ref::check_launch(kId, "direct_kernel");
    return;
  }
  const std::size_t smem =
      sizeof(double) * (std::size_t(KW) * kh_pad + std::size_t(kTileRows + kh_pad - 1) * (kTileCols + KW - 1));
  // Up to 54 KB (31 x 31 kernels): above the 48 KB a launch gets without asking.
  if (smem > 48 * 1024)
    judge::ref::check_cuda(cudaFuncSetAttribute(correlate2d_kernel<MC>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(smem)),
                           kId, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  const dim3 grid((OW + kTileCols - 1) / kTileCols, (OH + kTileRows - 1) / kTileRows);
  correlate2d_kernel<MC><<<grid, dim3(kTileCols, kThreadRows), smem, s>>>(x, k, y, H, W, KH, KW, OH, OW, kh_pad);
  judge::ref::check_launch(kId, "correlate2d_kernel");
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int H = a.scalar<int>("input_rows"), W = a.scalar<int>("input_cols");
  const int KH = a.scalar<int>("kernel_rows"), KW = a.scalar<int>("kernel_cols");
  if (KH <= 0 || KW <= 0 || KH > H || KW > W) return;
  const float* x = a.input<float>("input");
  const float* k = a.input<float>("kernel");
  float* y = a.output<float>("output");
  // Kernel rows MC at a time (judge::ref::pick_mc): KH = 15 and 5 take MC = 5, KH = 3 takes 3.
  judge::ref::with_mc(KH, [&](auto mc) { launch<decltype(mc)::value>(x, k, y, H, W, KH, KW, s); });
}

void cpu(judge::HostArgs& a) {
  const std::int64_t H = a.scalar<int>("input_rows"), W = a.scalar<int>("input_cols");
  const std::int64_t KH = a.scalar<int>("kernel_rows"), KW = a.scalar<int>("kernel_cols");
  const std::int64_t OH = H - KH + 1, OW = W - KW + 1;
  const float* x = a.input<float>("input");
  const float* k = a.input<float>("kernel");
  double* y = a.output("output");
  for (std::int64_t i = 0; i < OH; ++i)
    for (std::int64_t j = 0; j < OW; ++j) {
      double acc = 0.0;
      for (std::int64_t m = 0; m < KH; ++m)
        for (std::int64_t n = 0; n < KW; ++n) acc += double(x[(i + m) * W + j + n]) * double(k[m * KW + n]);
      y[i * OW + j] = acc;
    }
}

}  // namespace

JUDGE_REFERENCE(2d_convolution, gpu, cpu)
