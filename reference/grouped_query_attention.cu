// Reference for challenges/grouped_query_attention: for every query head g, output[g] (seq_len x head_dim) =
// softmax(Q[g] K[h]^T / sqrt(head_dim)) V[h] with h = g / (num_q_heads / num_kv_heads), the softmax over each row of
// scores; Q and output are [num_q_heads, seq_len, head_dim], K and V [num_kv_heads, seq_len, head_dim], row-major.
//
// The query heads of one group are consecutive, so the group's G = num_q_heads / num_kv_heads heads of Q are one
// row-major (G * seq_len) x head_dim matrix, and so are their outputs: K, V head h serves exactly those G * seq_len
// query rows. The problem is then num_kv_heads independent single-head attentions, run as strided-batched cuBLAS
// SGEMMs (CUBLAS_DEFAULT_MATH: full FP32, no TF32) around a row softmax, as in reference/softmax_attention.cu:
//   1. S = Q_h K_h^T, unscaled, for a chunk of K, V heads (or of one head's query rows) whose scores fit the scratch;
//   2. each row of S becomes E = exp((s - max) / sqrt(head_dim)): max in float, the exponentials and their sum in
//      double, E rounded to float once; 1 / sum is kept per row;
//   3. output = E V_h, then each output row is multiplied by its 1 / sum (in double).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/attention_softmax.cuh"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "grouped_query_attention";
constexpr std::int64_t kScratchFloats = std::int64_t(1) << 28;  // 1 GiB of scores per chunk at most

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int Hq = a.scalar<int>("num_q_heads");
  const int Hkv = a.scalar<int>("num_kv_heads");
  const int L = a.scalar<int>("seq_len");
  const int d = a.scalar<int>("head_dim");
  if (Hq <= 0 || Hkv <= 0 || L <= 0 || d <= 0) return;
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  float* out = a.output<float>("output");
  const std::int64_t R = std::int64_t(Hq / Hkv) * L;  // query rows per K, V head: the group's heads stacked
  const std::int64_t head_scores = R * L;
  // A chunk is `heads` whole K, V heads, or (when one head's scores exceed the scratch) `rows` of one head's query
  // rows, in equal parts as few as the scratch allows (larger products run closer to cuBLAS's peak).
  int heads = 1;
  std::int64_t rows = R;
  if (head_scores <= kScratchFloats)
    heads = static_cast<int>(judge::ref::whole_item_chunk(Hkv, head_scores, kScratchFloats));
  else
    rows = judge::ref::equal_chunk(R, L, kScratchFloats);
  static judge::ref::Scratch scores(kId, "scores"), sums(kId, "row sums");
  float* S = scores.get<float>(static_cast<std::size_t>(heads * rows * L));
  double* inv_sum = sums.get<double>(static_cast<std::size_t>(heads * rows));
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  cublasHandle_t h = cublas.handle();
  const float one = 1.0f, zero = 0.0f;
  const std::int64_t kv_stride = std::int64_t(L) * d;  // K, V: one head
  const std::int64_t q_stride = R * d;                  // Q, output: one group of query heads
  for (int h0 = 0; h0 < Hkv; h0 += heads) {
    const int nb = std::min(heads, Hkv - h0);
    for (std::int64_t r0 = 0; r0 < R; r0 += rows) {
      const int r = static_cast<int>(std::min(rows, R - r0));
      const std::int64_t s_stride = std::int64_t(r) * L;
      const float* Qc = Q + h0 * q_stride + r0 * d;
      float* Oc = out + h0 * q_stride + r0 * d;
      // cuBLAS is column-major, and a row-major R x C matrix read column-major is its C x R transpose. Row-major
      // S (r x L) = Q_chunk (r x d) K_h^T is column-major S^T (L x r) = K_h Q_chunk^T: K_h's buffer read column-major
      // is K_h^T (d x L, ld d), transposed back by CUBLAS_OP_T; Q_chunk's is Q_chunk^T (d x r, ld d).
      judge::ref::check_cublas(
          cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, L, r, d, &one, K + h0 * kv_stride, d, kv_stride, Qc,
                                    d, q_stride, &zero, S, L, s_stride, nb),
          kId, "cublasSgemmStridedBatched(Q K^T)");
      judge::ref::launch_softmax_rows(kId, S, L, L, nb * r, judge::ref::ScaledLogits{scale}, inv_sum, s);
      // Row-major out_chunk (r x d) = E (r x L) V_h (L x d) is column-major out^T (d x r) = V_h^T (d x L, ld d)
      // E^T (L x r, ld L): both buffers already read as those transposes, so no operation is transposed.
      judge::ref::check_cublas(
          cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, d, r, L, &one, V + h0 * kv_stride, d, kv_stride, S,
                                    L, s_stride, &zero, Oc, d, q_stride, nb),
          kId, "cublasSgemmStridedBatched(E V)");
      // The chunk's outputs are contiguous (nb > 1 only with whole heads, r == R), in the order of S's rows.
      judge::ref::launch_scale_rows(kId, Oc, inv_sum, std::int64_t(nb) * r * d, d, s);
    }
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t Hq = a.scalar<int>("num_q_heads");
  const std::int64_t Hkv = a.scalar<int>("num_kv_heads");
  const std::int64_t L = a.scalar<int>("seq_len");
  const std::int64_t d = a.scalar<int>("head_dim");
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  double* out = a.output("output");
  const std::int64_t group = Hq / Hkv;
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  std::vector<double> p(static_cast<std::size_t>(L));
  const auto logit = [&](std::int64_t, double dot) { return dot * scale; };
  for (std::int64_t g = 0; g < Hq; ++g) {
    const std::int64_t h = g / group;  // the K, V head this query head reads
    const float* Kh = K + h * L * d;
    const float* Vh = V + h * L * d;
    for (std::int64_t i = 0; i < L; ++i)
      judge::ref::attention_row_cpu(Q + (g * L + i) * d, Kh, d, Vh, d, L, d, logit, p.data(), out + (g * L + i) * d);
  }
}

}  // namespace

JUDGE_REFERENCE(grouped_query_attention, gpu, cpu)
