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
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/attention_softmax.cuh"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "attn_w_linear_bias";
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
  static judge::ref::Scratch scores(kId, "scores"), sums(kId, "row sums");
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  judge::ref::attention_in_chunks(kId, cublas.handle(), Q, K, V, out, M, N, d, kScratchFloats, scores, sums,
                                  [&](int r0) { return judge::ref::LinearBiasLogits{scale, alpha, r0}; }, s);
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
    // The bias: alpha times (query row - key row).
    const auto logit = [&](std::int64_t j, double dot) { return dot * scale + alpha * double(i - j); };
    judge::ref::attention_row_cpu(Q + i * d, K, d, V, d, N, d, logit, p.data(), out + i * d);
  }
}

}  // namespace

JUDGE_REFERENCE(attn_w_linear_bias, gpu, cpu)
