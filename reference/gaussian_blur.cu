// Reference for challenges/gaussian_blur: output[i][j] = sum_{m,n} input[i + m - kernel_rows/2][j + n - kernel_cols/2]
// * kernel[m][n], a same-size cross-correlation (kernel not flipped) with zero padding outside the image, all
// matrices row-major: PyTorch's conv2d with padding (kernel_rows/2, kernel_cols/2), as LeetGPU computes it.
//
// A block of 64 x 4 threads computes a 64-column x (4 * RY)-row tile of outputs. It stages the input tile with its
// halo (kernel_rows/2 rows above and below, kernel_cols/2 columns left and right) in shared memory, zero where the
// halo leaves the image, so the padding needs no test in the inner loop, and the kernel transposed (kT[n][m], rows
// zero-padded to a multiple of MC). Each thread computes a column of RY outputs: for each kernel column n it slides a
// window of RY + MC - 1 inputs down the column, MC kernel rows at a time (MC new loads feed RY * MC FMAs), summing
// that kernel column in float, then adds the column sums. Lanes of a warp read consecutive columns: no bank
// conflicts; kernel reads are broadcasts.
//
// Accuracy: the tests and benchmarks have non-negative inputs and kernels that sum to 1 (or inputs in [-1, 1)), so
// no sum cancels. Simulated against double precision (see the statement), this order (float column sums, added in
// float) erred by at most 0.031 of the tolerance at 21 x 21 kernels and 0.021 at 7 x 7, against 0.15 for a plain
// float sum: the reference uses at most a fifth of what it leaves the submission. Double accumulation would cost a
// float-to-double conversion per column sum (16 per clock per SM on Hopper), which at 7 x 7 would make the
// reference compute-bound where a float kernel is memory-bound.
#include <algorithm>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/correlate2d.cuh"

namespace {

constexpr const char* kId = "gaussian_blur";
constexpr int kTileCols = 64;   // = blockDim.x
constexpr int kThreadRows = 4;  // = blockDim.y
constexpr int kThreads = kTileCols * kThreadRows;

template <int MC, int RY>
__global__ void __launch_bounds__(kThreads)
    blur_kernel(const float* __restrict__ x, const float* __restrict__ k, float* __restrict__ y, int H, int W, int KH,
                int KW, int kh_pad) {
  extern __shared__ float sh[];
  constexpr int kTileRows = kThreadRows * RY;
  const int tile_w = kTileCols + KW - 1;
  const int tile_h = kTileRows + kh_pad - 1;  // rows past kTileRows + KH - 1 only meet zero weights
  const int live_h = kTileRows + KH - 1;
  float* kT = sh;                  // KW x kh_pad
  float* tile = sh + KW * kh_pad;  // tile_h x tile_w
  const int r0 = blockIdx.y * kTileRows, c0 = blockIdx.x * kTileCols;
  const int top = r0 - KH / 2, left = c0 - KW / 2;  // image coordinates of tile[0][0]
  const int tid = threadIdx.y * kTileCols + threadIdx.x;
  judge::ref::stage_kernel_transposed<kThreads>(k, kT, KH, KW, kh_pad, tid);
#pragma unroll 4
  for (int rr = threadIdx.y; rr < tile_h; rr += kThreadRows) {
    const int gr = top + rr;
    const bool row_in = rr < live_h && gr >= 0 && gr < H;
    for (int cc = threadIdx.x; cc < tile_w; cc += kTileCols) {
      const int gc = left + cc;
      tile[rr * tile_w + cc] = row_in && gc >= 0 && gc < W ? __ldg(x + std::int64_t(gr) * W + gc) : 0.0f;
    }
  }
  __syncthreads();

  const int ty0 = threadIdx.y * RY;  // this thread's outputs: rows r0 + ty0 + [0, RY), column c0 + threadIdx.x
  float acc[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) acc[r] = 0.0f;
  for (int n = 0; n < KW; ++n) {
    const float* col = tile + ty0 * tile_w + threadIdx.x + n;  // rows read: up to tile_h - 1
    float part[RY];
#pragma unroll
    for (int r = 0; r < RY; ++r) part[r] = 0.0f;
    judge::ref::slide_window<RY, MC>([&](int q) { return col[q * tile_w]; }, kT + n * kh_pad, kh_pad, part);
#pragma unroll
    for (int r = 0; r < RY; ++r) acc[r] += part[r];
  }
  const int oc = c0 + threadIdx.x;
  if (oc >= W) return;
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    const int orow = r0 + ty0 + r;
    if (orow < H) y[std::int64_t(orow) * W + oc] = acc[r];
  }
}

template <int MC, int RY>
void launch(const float* x, const float* k, float* y, int H, int W, int KH, int KW, cudaStream_t s) {
  const int kh_pad = (KH + MC - 1) / MC * MC;
  const std::size_t smem =
      sizeof(float) * (std::size_t(KW) * kh_pad + std::size_t(kThreadRows * RY + kh_pad - 1) * (kTileCols + KW - 1));
  // At most 31 KB (21 x 21 kernels, RY = 16): within the 48 KB a launch gets without asking.
  const dim3 grid((W + kTileCols - 1) / kTileCols, (H + kThreadRows * RY - 1) / (kThreadRows * RY));
  blur_kernel<MC, RY><<<grid, dim3(kTileCols, kThreadRows), smem, s>>>(x, k, y, H, W, KH, KW, kh_pad);
  judge::ref::check_launch(kId, "blur_kernel");
}

// 16 outputs per thread (64 x 64 tiles) amortise the halo and the window loads; images too small to give every SM
// two such tiles (LeetGPU's 512 x 512 gives 64) take 4 per thread instead.
template <int MC>
void launch_ry(const float* x, const float* k, float* y, int H, int W, int KH, int KW, cudaStream_t s) {
  static const int sms = judge::ref::multiprocessors(kId);
  const std::int64_t big_tiles = std::int64_t((W + kTileCols - 1) / kTileCols) * ((H + 63) / 64);
  if (big_tiles >= 2 * sms)
    launch<MC, 16>(x, k, y, H, W, KH, KW, s);
  else
    launch<MC, 4>(x, k, y, H, W, KH, KW, s);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int H = a.scalar<int>("input_rows"), W = a.scalar<int>("input_cols");
  const int KH = a.scalar<int>("kernel_rows"), KW = a.scalar<int>("kernel_cols");
  if (H <= 0 || W <= 0 || KH <= 0 || KW <= 0) return;
  const float* x = a.input<float>("input");
  const float* k = a.input<float>("kernel");
  float* y = a.output<float>("output");
  // Kernel rows MC at a time (judge::ref::pick_mc): KH = 3, 5, 7 take MC = KH; 21 takes 7.
  judge::ref::with_mc(KH, [&](auto mc) { launch_ry<decltype(mc)::value>(x, k, y, H, W, KH, KW, s); });
}

void cpu(judge::HostArgs& a) {
  const std::int64_t H = a.scalar<int>("input_rows"), W = a.scalar<int>("input_cols");
  const std::int64_t KH = a.scalar<int>("kernel_rows"), KW = a.scalar<int>("kernel_cols");
  const float* x = a.input<float>("input");
  const float* k = a.input<float>("kernel");
  double* y = a.output("output");
  for (std::int64_t i = 0; i < H; ++i)
    for (std::int64_t j = 0; j < W; ++j) {
      double acc = 0.0;
      for (std::int64_t m = 0; m < KH; ++m) {
        const std::int64_t r = i + m - KH / 2;
        if (r < 0 || r >= H) continue;
        for (std::int64_t n = 0; n < KW; ++n) {
          const std::int64_t c = j + n - KW / 2;
          if (c >= 0 && c < W) acc += double(x[r * W + c]) * double(k[m * KW + n]);
        }
      }
      y[i * W + j] = acc;
    }
}

}  // namespace

JUDGE_REFERENCE(gaussian_blur, gpu, cpu)
