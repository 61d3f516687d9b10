// Reference for challenges/softmax_attention: output (M x d) = softmax(Q K^T / sqrt(d)) V, the softmax taken over each
// row of the M x N score matrix; Q is M x d, K and V are N x d, all row-major float32.
//
// Two cuBLAS SGEMMs in strict FP32 (CUBLAS_PEDANTIC_MATH, no TF32) around a row softmax kernel, over chunks of query
// rows so that the scores of one chunk fit a scratch buffer of at most 2^28 floats (M x N reaches 10^10):
//   1. S = Q_chunk K^T (unscaled dot products, float);
//   2. each row of S becomes E = exp((s - max) / sqrt(d)): max in float, the exponentials and their sum in double,
//      E rounded to float once; 1 / sum is kept per row;
//   3. output_chunk = E V, then each output row is multiplied by its 1 / sum (in double).
// Normalising after the second product instead of before saves a pass over the M x N scores.
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/attention_softmax.cuh"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "softmax_attention";
constexpr std::int64_t kScratchFloats = std::int64_t(1) << 28;  // 1 GiB of scores per chunk at most

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int d = a.scalar<int>("d");
  if (M <= 0 || N <= 0 || d <= 0) return;
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  float* out = a.output<float>("output");
  static judge::ref::Scratch scores(kId, "scores"), sums(kId, "row sums");
  const judge::ref::ScaledLogits logits{1.0 / std::sqrt(static_cast<double>(d))};
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_PEDANTIC_MATH, kId);
  judge::ref::attention_in_chunks(kId, cublas.handle(), Q, K, V, out, M, N, d, kScratchFloats, scores, sums,
                                  [&](int) { return logits; }, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t d = a.scalar<int>("d");
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  double* out = a.output("output");
  std::vector<double> p(static_cast<std::size_t>(N));
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  const auto logit = [&](std::int64_t, double dot) { return dot * scale; };
  for (std::int64_t i = 0; i < M; ++i)
    judge::ref::attention_row_cpu(Q + i * d, K, d, V, d, N, d, logit, p.data(), out + i * d);
}

}  // namespace

JUDGE_REFERENCE(softmax_attention, gpu, cpu)
