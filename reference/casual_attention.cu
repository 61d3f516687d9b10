// Reference for challenges/casual_attention (LeetGPU's spelling of "causal"): output (M x d) = softmax(mask(Q K^T /
// sqrt(d))) V, where query row i sees keys 0..i only; Q, K, V and output are M x d, row-major float32.
//
// The approach of reference/softmax_attention.cu with the causal mask applied in the softmax kernel. Over chunks of
// query rows whose scores fit a scratch buffer of at most 2^28 floats (one chunk for every M the constraints allow):
//   1. S = Q K^T (unscaled, float) by cuBLAS SGEMM, in blocks of kStairRows query rows, each against only the keys its
//      last row can see: the blocks form a staircase over the lower triangle instead of the whole square;
//   2. row i of S becomes E = exp((s - max) / sqrt(d)) for keys j <= i, exactly 0 for j > i: the logits, their max,
//      the exponentials and their sum in double, E rounded to float once; 1 / sum is kept per row (the shared
//      kernel of reference/attention_softmax.cuh with its causal mask);
//   3. output = E V by one SGEMM per chunk (the zeros make the masked keys contribute nothing), then each output row is
//      multiplied by its 1 / sum (in double).
// The SGEMMs run with CUBLAS_DEFAULT_MATH, which for float data never uses TF32 (that needs
// CUBLAS_TF32_TENSOR_OP_MATH).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/attention_softmax.cuh"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "casual_attention";
constexpr std::int64_t kScratchFloats = std::int64_t(1) << 28;  // 1 GiB of scores per chunk at most
constexpr int kStairRows = 1024;  // query rows per staircase step; the steps cover (1 + 1/steps) x the triangle

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int d = a.scalar<int>("d");
  if (M <= 0 || d <= 0) return;
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  float* out = a.output<float>("output");
  const std::int64_t ld = (std::int64_t(M) + 3) / 4 * 4;
  const int rows = static_cast<int>(judge::ref::equal_chunk(M, ld, kScratchFloats));
  static judge::ref::Scratch scores(kId, "scores"), sums(kId, "row sums");
  float* S = scores.get<float>(static_cast<std::size_t>(rows) * ld);
  double* inv_sum = sums.get<double>(static_cast<std::size_t>(rows));
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  cublasHandle_t h = cublas.handle();
  const float one = 1.0f, zero = 0.0f;
  for (int r0 = 0; r0 < M; r0 += rows) {
    const int r = std::min(rows, M - r0);
    const int keys = r0 + r;  // the chunk's last query sees keys 0..keys-1
    // cuBLAS is column-major, and a row-major R x C matrix read column-major is its C x R transpose. Row-major
    // S_step (n rows x k keys, ld) = Q_step K[0:k]^T is column-major S_step^T (k x n) = K[0:k] Q_step^T: K's buffer
    // read column-major is K^T (d x M, ld d), transposed back by CUBLAS_OP_T; Q_step's is Q_step^T (d x n, ld d).
    const int steps = (r + kStairRows - 1) / kStairRows;
    const int step_rows = (r + steps - 1) / steps;
    for (int b0 = 0; b0 < r; b0 += step_rows) {
      const int n = std::min(step_rows, r - b0);
      const int k = r0 + b0 + n;  // keys the step's last row sees
      judge::ref::check_cublas(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, k, n, d, &one, K, d,
                                           Q + std::int64_t(r0 + b0) * d, d, &zero, S + std::int64_t(b0) * ld, ld),
                               kId, "cublasSgemm(Q K^T)");
    }
    // Query row r0 + i sees keys 0..r0 + i; columns past them become 0 (the staircase left some uncomputed).
    judge::ref::launch_softmax_rows(kId, S, ld, keys, r, judge::ref::CausalScaledLogits{scale, r0}, inv_sum, s);
    // out_chunk = E V[0:keys], scaled by the row sums.
    judge::ref::attention_output(kId, h, S, ld, keys, V, out + std::int64_t(r0) * d, r, d, inv_sum, s);
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t d = a.scalar<int>("d");
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  double* out = a.output("output");
  std::vector<double> p(static_cast<std::size_t>(M));
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  const auto logit = [&](std::int64_t, double dot) { return dot * scale; };
  // The causal mask: keys after i do not exist for query i.
  for (std::int64_t i = 0; i < M; ++i)
    judge::ref::attention_row_cpu(Q + i * d, K, d, V, d, i + 1, d, logit, p.data(), out + i * d);
}

}  // namespace

JUDGE_REFERENCE(casual_attention, gpu, cpu)
