// Reference for challenges/multi_head_attention: Q, K, V and output are N x d_model, row-major float32; head hd is the
// d_k = d_model / h column slice starting at column hd * d_k of every row, and
//   output_hd = softmax(Q_hd K_hd^T / sqrt(d_k)) V_hd, the softmax over each row of the N x N scores of the head.
//
// Two strided-batched cuBLAS SGEMMs (FP32, CUBLAS_DEFAULT_MATH: no TF32, whose 10-bit mantissa is far too coarse for
// the 1e-5 tolerance) around a row softmax, over chunks of heads so that the scores of one chunk fit a scratch buffer
// of at most 2^28 floats (h x N x N reaches 1.6e9 at N = 10,000, h = 16):
//   1. S_hd = Q_hd K_hd^T for the chunk's heads (unscaled dot products, float), read in place: head hd of a matrix is
//      a strided slice with leading dimension d_model, the next head d_k floats further;
//   2. each row of S becomes P = exp((s - max) / sqrt(d_k)) / sum: the row is held in registers (read once, written
//      once), its maximum in float, the exponentials and their sum in double, P rounded to float once;
//   3. output_hd = P_hd V_hd, written straight into head hd's columns of output (leading dimension d_model again; the
//      heads' columns interleave in memory but no element is written twice).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/rows.cuh"
#include "reference/score_chunks.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "multi_head_attention";
constexpr int kBlock = judge::ref::kBlock;
constexpr std::int64_t kScratchFloats = std::int64_t(1) << 28;  // 1 GiB of scores per chunk at most
constexpr int kMaxRow = 256 * 40;                                // the longest row the softmax holds: N <= 10,240

// Shape (a judge::ref::RowShape): kThreads threads per row of n scores (kBlock / kThreads rows per block); each holds
// kItems groups of kVec consecutive scores (kVec = 4: float4 loads, which need n % 4 == 0). Needs
// kThreads * kItems * kVec >= n. In place:
// S[row][j] <- exp((S[row][j] - max) * scale) / (sum over the row of the same).
template <class Shape>
__global__ void __launch_bounds__(kBlock) softmax_rows_kernel(float* __restrict__ S, std::int64_t rows, int n,
                                                              double scale) {
  constexpr int kThreads = Shape::kThreads, kVec = Shape::kVec, kItems = Shape::kItems;
  __shared__ float max_scratch[kBlock / 32];
  __shared__ double sum_scratch[kBlock / 32];
  const auto [lane, row, live] = judge::ref::row_thread<kThreads>(rows);
  float* r = S + row * n;

  float v[kItems][kVec];
  judge::ref::load_row<kThreads>(r, n, live, lane, v, -INFINITY);
  const float m = judge::ref::row_max<kThreads>(v, max_scratch);

  double e[kItems][kVec];
  double sum = 0.0;
#pragma unroll
  for (int i = 0; i < kItems; ++i)
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      e[i][k] = exp((double(v[i][k]) - m) * scale);  // exp(-inf) = 0 past the end of the row
      sum += e[i][k];
    }
  // sum >= 1: the maximum's own term is exp(0).
  const double inv = 1.0 / judge::ref::row_reduce<kThreads>(sum, sum_scratch, 0.0, judge::ref::Sum{});

  judge::ref::store_row<kThreads, kVec, kItems>(r, n, live, lane, [&](int i, int, float (&o)[kVec]) {
#pragma unroll
    for (int k = 0; k < kVec; ++k) o[k] = static_cast<float>(e[i][k] * inv);
  });
}

// Row shapes by row length, the last of each ladder holding kMaxRow: float4 groups where n % 4 == 0, single floats
// otherwise.
using judge::ref::RowShape;
using Vec4Shapes =
    judge::ref::RowShapes<RowShape<32, 4, 1>, RowShape<32, 4, 8>, RowShape<256, 4, 4>, RowShape<256, 4, 10>>;
using ScalarShapes =
    judge::ref::RowShapes<RowShape<32, 1, 1>, RowShape<32, 1, 8>, RowShape<256, 1, 8>, RowShape<256, 1, 40>>;
static_assert(RowShape<256, 4, 10>::kMaxN == kMaxRow && RowShape<256, 1, 40>::kMaxN == kMaxRow);

// rows x n scores (n <= kMaxRow), rows of n floats one after another (each row 16-byte aligned when n % 4 == 0: S is
// cudaMalloc'd).
void softmax_rows(float* S, std::int64_t rows, int n, double scale, cudaStream_t s) {
  const auto kernel = [](auto shape) { return softmax_rows_kernel<decltype(shape)>; };
  judge::ref::launch_rows<Vec4Shapes, ScalarShapes>(kId, "softmax_rows_kernel", n % 4 == 0, n, rows, s, kernel, S, rows,
                                                    n, scale);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int N = a.scalar<int>("N");
  const int d_model = a.scalar<int>("d_model");
  const int h = a.scalar<int>("h");
  if (N <= 0 || d_model <= 0 || h <= 0) return;
  if (N > kMaxRow || d_model % h != 0)
    JUDGE_THROW(judge::Error, "reference '{}': N = {}, d_model = {}, h = {}: needs N <= {} and d_model % h == 0", kId,
                N, d_model, h, kMaxRow);
  const int d_k = d_model / h;
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  float* out = a.output<float>("output");

  // Chunks of equal numbers of heads, as few as the scratch allows (larger products run closer to cuBLAS's peak).
  const std::int64_t per_head = std::int64_t(N) * N;
  const int heads = static_cast<int>(judge::ref::whole_item_chunk(h, per_head, kScratchFloats));
  static judge::ref::Scratch scores(kId, "scores");
  float* S = scores.get<float>(static_cast<std::size_t>(heads * per_head));
  const double scale = 1.0 / std::sqrt(static_cast<double>(d_k));

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  cublasHandle_t handle = cublas.handle();
  const float one = 1.0f, zero = 0.0f;
  for (int h0 = 0; h0 < h; h0 += heads) {
    const int hc = std::min(heads, h - h0);
    const std::int64_t col = std::int64_t(h0) * d_k;  // the chunk's first column
    // cuBLAS is column-major, and a row-major R x C matrix (leading dimension ld) read column-major is its C x R
    // transpose. Row-major S_hd (N x N) = Q_hd K_hd^T is column-major S_hd^T = K_hd Q_hd^T: K_hd's slice read
    // column-major is K_hd^T (d_k x N, ld d_model), transposed back by CUBLAS_OP_T; Q_hd's is Q_hd^T.
    judge::ref::check_cublas(
        cublasSgemmStridedBatched(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, N, d_k, &one, K + col, d_model, d_k, Q + col,
                                  d_model, d_k, &zero, S, N, per_head, hc),
        kId, "cublasSgemmStridedBatched(Q K^T)");
    softmax_rows(S, std::int64_t(hc) * N, N, scale, s);
    // Row-major output_hd (N x d_k, ld d_model) = P_hd (N x N) V_hd is column-major output_hd^T = V_hd^T P_hd^T: both
    // buffers already read as those transposes, so no operation is transposed.
    judge::ref::check_cublas(
        cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, d_k, N, N, &one, V + col, d_model, d_k, S, N,
                                  per_head, &zero, out + col, d_model, d_k, hc),
        kId, "cublasSgemmStridedBatched(P V)");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t d_model = a.scalar<int>("d_model");
  const std::int64_t h = a.scalar<int>("h");
  const std::int64_t d_k = d_model / h;
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  double* out = a.output("output");
  std::vector<double> p(static_cast<std::size_t>(N));
  const double scale = 1.0 / std::sqrt(static_cast<double>(d_k));
  for (std::int64_t hd = 0; hd < h; ++hd) {
    const std::int64_t c0 = hd * d_k;
    for (std::int64_t i = 0; i < N; ++i) {
      double m = -INFINITY;
      for (std::int64_t j = 0; j < N; ++j) {
        double dot = 0.0;
        for (std::int64_t c = c0; c < c0 + d_k; ++c) dot += double(Q[i * d_model + c]) * double(K[j * d_model + c]);
        p[j] = dot * scale;
        m = std::max(m, p[j]);
      }
      double sum = 0.0;
      for (std::int64_t j = 0; j < N; ++j) sum += (p[j] = std::exp(p[j] - m));
      for (std::int64_t c = c0; c < c0 + d_k; ++c) {
        double acc = 0.0;
        for (std::int64_t j = 0; j < N; ++j) acc += p[j] * double(V[j * d_model + c]);
        out[i * d_model + c] = acc / sum;
      }
    }
  }
}

}  // namespace

JUDGE_REFERENCE(multi_head_attention, gpu, cpu)
