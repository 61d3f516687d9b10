// Reference for challenges/multi_head_cross_attention: for every head h, output_h = softmax(Q_h K_h^T / sqrt(D)) V_h,
// the softmax over each row of the M x N scores. Q and output are M x H x D, K and V are N x H x D, row-major float32:
// head h of a tensor is the D-column slice starting at column h * D of its rows of H * D floats.
//
// The softmax_attention reference, batched over heads with strided-batched cuBLAS SGEMMs (FP32, CUBLAS_DEFAULT_MATH:
// no TF32, whose 10-bit mantissa is too coarse for the tolerance) around a row softmax, over chunks of heads so that
// the scores of one chunk fit a scratch buffer of at most 2^28 floats (H x M x N reaches 2^30):
//   1. S_h = Q_h K_h^T for the chunk's heads (unscaled dot products, float);
//   2. each row of S becomes E = exp((s - max) / sqrt(D)): max in float, the exponentials and their sum in double,
//      E rounded to float once; 1 / sum is kept per (head, query);
//   3. O_h = E_h V_h into a head-major scratch O (H x M x D, each head's M x D block contiguous);
// and at the end one pass writes output[i][h][c] = O[h][i][c] * (1 / sum of row (h, i)), the product in double.
// The queries, keys and values are read in place (head h is a strided slice: leading dimension H * D, the next head D
// floats further); only the output goes through O, so that no cuBLAS call writes matrices interleaved column by
// column with those of other batch entries.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/attention_softmax.cuh"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "multi_head_cross_attention";
constexpr int kBlock = judge::ref::kBlock;
constexpr std::int64_t kScratchFloats = std::int64_t(1) << 28;  // 1 GiB of scores per chunk at most

// output[i][h][c] = O[h][i][c] * inv_sum[h * M + i] over all M x H x D outputs (O and inv_sum are head-major, as the
// rows of S; output is query-major).
__global__ void gather_scale_kernel(const float* O, const double* inv_sum, float* out, std::int64_t count, int M,
                                    int H, int D) {
  for (std::int64_t k = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; k < count;
       k += std::int64_t(gridDim.x) * kBlock) {
    const std::int64_t c = k % D, row = k / D;  // row = i * H + h
    const std::int64_t hm = (row % H) * M + row / H;  // h * M + i
    out[k] = static_cast<float>(double(O[hm * D + c]) * inv_sum[hm]);
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int H = a.scalar<int>("H");
  const int D = a.scalar<int>("D");
  if (M <= 0 || N <= 0 || H <= 0 || D <= 0) return;
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  float* out = a.output<float>("output");
  const int ld = H * D;  // the model dimension, at most 64 * 256: the row length of every tensor
  const std::int64_t scores = std::int64_t(M) * N;  // of one head; at most 2^24 < kScratchFloats
  const int heads = static_cast<int>(judge::ref::equal_chunk(H, scores, kScratchFloats));
  static judge::ref::Scratch score_buf(kId, "scores"), head_out(kId, "head-major output"), sums(kId, "row sums");
  float* S = score_buf.get<float>(static_cast<std::size_t>(heads * scores));
  float* O = head_out.get<float>(static_cast<std::size_t>(M) * ld);
  double* inv_sum = sums.get<double>(static_cast<std::size_t>(H) * M);
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  cublasHandle_t h = cublas.handle();
  const float one = 1.0f, zero = 0.0f;
  for (int h0 = 0; h0 < H; h0 += heads) {
    const int hc = std::min(heads, H - h0);
    // cuBLAS is column-major, and a row-major R x C matrix read column-major is its C x R transpose. Head h of K is
    // the row-major N x D matrix at K + h * D with row stride ld, so read column-major it is K_h^T (D x N, leading
    // dimension ld); the next head starts D floats further. Row-major S_h (M x N) = Q_h K_h^T is column-major
    // S_h^T (N x M, ld N) = K_h Q_h^T: K_h^T transposed back by CUBLAS_OP_T, times Q_h^T (D x M, ld ld).
    judge::ref::check_cublas(
        cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, D, &one, K + std::int64_t(h0) * D, ld, D,
                                  Q + std::int64_t(h0) * D, ld, D, &zero, S, N, scores, hc),
        kId, "cublasSgemmStridedBatched(Q K^T)");
    judge::ref::launch_softmax_rows(kId, S, N, N, std::int64_t(hc) * M, judge::ref::ScaledLogits{scale},
                                    inv_sum + std::int64_t(h0) * M, s);
    // Row-major O_h (M x D, contiguous) = E_h (M x N) V_h (N x D, row stride ld) is column-major O_h^T (D x M, ld D)
    // = V_h^T (D x N, ld ld) E_h^T (N x M, ld N): every buffer already reads as that transpose.
    judge::ref::check_cublas(
        cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, D, M, N, &one, V + std::int64_t(h0) * D, ld, D, S, N,
                                  scores, &zero, O + std::int64_t(h0) * M * D, D, std::int64_t(M) * D, hc),
        kId, "cublasSgemmStridedBatched(E V)");
  }
  const std::int64_t count = std::int64_t(M) * ld;
  gather_scale_kernel<<<judge::ref::grid_for(count), kBlock, 0, s>>>(O, inv_sum, out, count, M, H, D);
  judge::ref::check_launch(kId, "gather_scale_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t H = a.scalar<int>("H");
  const std::int64_t D = a.scalar<int>("D");
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  double* out = a.output("output");
  const std::int64_t ld = H * D;
  std::vector<double> p(static_cast<std::size_t>(N));
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));
  const auto logit = [&](std::int64_t, double dot) { return dot * scale; };
  for (std::int64_t h = 0; h < H; ++h)  // head h: the D columns from h * D of every row (row length ld)
    for (std::int64_t i = 0; i < M; ++i)
      judge::ref::attention_row_cpu(Q + i * ld + h * D, K + h * D, ld, V + h * D, ld, N, D, logit, p.data(),
                                    out + i * ld + h * D);
}

}  // namespace

JUDGE_REFERENCE(multi_head_cross_attention, gpu, cpu)
