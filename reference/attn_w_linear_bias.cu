// Reference for challenges/attn_w_linear_bias: output (M x d) = softmax(Q K^T / sqrt(d) + alpha * (i - j)) V (ALiBi),
// the softmax taken over each row of the M x N logits, i the query's row and j the key's; Q is M x d, K and V are
// N x d, all row-major float32.
//
// The approach of reference/softmax_attention.cu with the linear bias added in the softmax kernel. Over chunks of
// query rows whose scores fit a scratch buffer of at most 2^28 floats (one chunk for every size the constraints allow):
//   1. S = Q_chunk K^T (unscaled dot products, float) by cuBLAS SGEMM;
//   2. each row of S becomes E = exp(x - max x) with x = s / sqrt(d) + alpha * (i - j), the logits, their maximum,
//      the exponentials and their sum all in double (x reaches 2047 in magnitude, where a float logit is only good to
//      6e-5), E rounded to float once; 1 / sum is kept per row;
//   3. output_chunk = E V by cuBLAS SGEMM, then each output row is multiplied by its 1 / sum (in double).
// The SGEMMs run with CUBLAS_DEFAULT_MATH, which for float data never uses TF32 (that takes CUBLAS_TF32_TENSOR_OP_MATH).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/attention_softmax.cuh"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "attn_w_linear_bias";
constexpr int kBlock = judge::ref::kBlock;
constexpr std::int64_t kScratchFloats = std::int64_t(1) << 28;  // 1 GiB of scores per chunk at most

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int d = a.scalar<int>("d");
  const double alpha = a.scalar<float>("alpha");  // the float solve() receives, then exact in double
  if (M <= 0 || N <= 0 || d <= 0) return;
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  float* out = a.output<float>("output");
  // Chunks of equal size, as few as the scratch allows (larger products run closer to cuBLAS's peak).
  const std::int64_t chunks = (std::int64_t(M) * N + kScratchFloats - 1) / kScratchFloats;
  const int rows = static_cast<int>((M + chunks - 1) / chunks);
  static judge::ref::Scratch scores(kId, "scores"), sums(kId, "row sums");
  float* S = scores.get<float>(static_cast<std::size_t>(rows) * N);
  double* inv_sum = sums.get<double>(static_cast<std::size_t>(rows));
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  cublasHandle_t h = cublas.handle();
  const float one = 1.0f, zero = 0.0f;
  for (int r0 = 0; r0 < M; r0 += rows) {
    const int r = std::min(rows, M - r0);
    // cuBLAS is column-major, and a row-major R x C matrix read column-major is its C x R transpose. Row-major
    // S (r x N) = Q_chunk (r x d) K^T is column-major S^T (N x r) = K Q_chunk^T: K's buffer read column-major is
    // K^T (d x N, ld d), transposed back by CUBLAS_OP_T; Q_chunk's is Q_chunk^T (d x r, ld d).
    judge::ref::check_cublas(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, N, r, d, &one, K, d,
                                         Q + std::int64_t(r0) * d, d, &zero, S, N),
                             kId, "cublasSgemm(Q K^T)");
    judge::ref::softmax_rows_kernel<<<r, kBlock, 0, s>>>(S, N, N, judge::ref::LinearBiasLogits{scale, alpha, r0},
                                                         inv_sum);
    judge::ref::check_launch(kId, "softmax_rows_kernel");
    // Row-major out_chunk (r x d) = E (r x N) V (N x d) is column-major out^T (d x r) = V^T (d x N, ld d) E^T (N x r,
    // ld N): both buffers already read as those transposes, so no operation is transposed.
    float* out_chunk = out + std::int64_t(r0) * d;
    judge::ref::check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, d, r, N, &one, V, d, S, N, &zero, out_chunk, d),
                             kId, "cublasSgemm(E V)");
    const std::int64_t count = std::int64_t(r) * d;
    judge::ref::scale_rows_kernel<<<judge::ref::grid_for(count), kBlock, 0, s>>>(out_chunk, inv_sum, count, d);
    judge::ref::check_launch(kId, "scale_rows_kernel");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t d = a.scalar<int>("d");
  const double alpha = a.scalar<float>("alpha");
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  double* out = a.output("output");
  std::vector<double> p(static_cast<std::size_t>(N));
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  for (std::int64_t i = 0; i < M; ++i) {
    double m = -INFINITY;
    for (std::int64_t j = 0; j < N; ++j) {
      double dot = 0.0;
      for (std::int64_t k = 0; k < d; ++k) dot += double(Q[i * d + k]) * double(K[j * d + k]);
      p[j] = dot * scale + alpha * double(i - j);  // the bias: alpha times (query row - key row)
      m = p[j] > m ? p[j] : m;
    }
    double sum = 0.0;
    for (std::int64_t j = 0; j < N; ++j) sum += (p[j] = std::exp(p[j] - m));
    for (std::int64_t k = 0; k < d; ++k) out[i * d + k] = 0.0;
    for (std::int64_t j = 0; j < N; ++j)
      for (std::int64_t k = 0; k < d; ++k) out[i * d + k] += p[j] / sum * double(V[j * d + k]);
  }
}

}  // namespace

JUDGE_REFERENCE(attn_w_linear_bias, gpu, cpu)
