// Reference for challenges/decaying_causal_attention (RetNet's retention, parallel form): output[n] = sum over m <= n
// of gamma^(n - m) * (Q[n] . K[m] / sqrt(d_model)) * V[m]; Q, K, V and output are seq_len x d_model, row-major
// float32. No softmax, no normalisation: the weights are the raw scaled scores times a geometric decay.
//
// gpu(): everything in double, rounded to float once at the end. Q, K and V are widened to double; then, over chunks
// of query rows whose weights fit a scratch buffer of at most 2^26 doubles (one chunk for every seq_len the
// constraints allow):
//   1. W = Q_chunk K^T by cuBLAS DGEMM, against only the keys the chunk's last row can see;
//   2. W[n][m] *= gamma^(n - m) / sqrt(d_model) for m <= n (pow in double of the float gamma), 0 for m > n;
//   3. out_chunk = W V by DGEMM.
// cpu(): the recurrent form of the same sum, in double: the d_model x d_model state S_n = gamma S_{n-1} + K[n]^T V[n]
// gives output[n] = Q[n] S_n / sqrt(d_model), 4 seq_len d_model^2 operations; where that is more than the direct
// quadratic sum (2 seq_len^2 d_model, when seq_len < 2 d_model) the quadratic sum is taken instead. The GPU suite so
// checks two different orders of the same formula against each other.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "decaying_causal_attention";
constexpr int kBlock = judge::ref::kBlock;
constexpr std::int64_t kScratchDoubles = std::int64_t(1) << 26;  // 512 MiB of weights per chunk at most

__global__ void widen_kernel(const float* in, double* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kBlock)
    out[i] = in[i];
}

__global__ void narrow_kernel(const double* in, float* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kBlock)
    out[i] = static_cast<float>(in[i]);
}

// W is rows x cols (row-major, ld cols); its row r is query row0 + r, its column m is key m.
__global__ void decay_mask_kernel(double* W, int rows, int cols, int row0, double gamma, double scale) {
  const std::int64_t count = std::int64_t(rows) * cols;
  for (std::int64_t e = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; e < count;
       e += std::int64_t(gridDim.x) * kBlock) {
    const int n = row0 + static_cast<int>(e / cols);
    const int m = static_cast<int>(e % cols);
    W[e] = m <= n ? W[e] * (pow(gamma, double(n - m)) * scale) : 0.0;
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int S = a.scalar<int>("seq_len");
  const int d = a.scalar<int>("d_model");
  const double gamma = a.scalar<float>("gamma");  // the float solve() receives, exact in double
  if (S <= 0 || d <= 0) return;
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  float* out = a.output<float>("output");
  const std::int64_t elems = std::int64_t(S) * d;
  const int chunk_rows = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(S, kScratchDoubles / S)));

  static judge::ref::Scratch q_s(kId, "Q in double"), k_s(kId, "K in double"), v_s(kId, "V in double"),
      w_s(kId, "decayed scores"), o_s(kId, "output in double");
  double* Qd = q_s.get<double>(elems);
  double* Kd = k_s.get<double>(elems);
  double* Vd = v_s.get<double>(elems);
  double* W = w_s.get<double>(std::size_t(chunk_rows) * S);
  double* Od = o_s.get<double>(elems);
  widen_kernel<<<judge::ref::grid_for(elems), kBlock, 0, s>>>(Q, Qd, elems);
  widen_kernel<<<judge::ref::grid_for(elems), kBlock, 0, s>>>(K, Kd, elems);
  widen_kernel<<<judge::ref::grid_for(elems), kBlock, 0, s>>>(V, Vd, elems);
  judge::ref::check_launch(kId, "widen_kernel");

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  cublasHandle_t h = cublas.handle();
  const double one = 1.0, zero = 0.0, scale = 1.0 / std::sqrt(double(d));
  for (int row0 = 0; row0 < S; row0 += chunk_rows) {
    const int rows = std::min(chunk_rows, S - row0);
    const int cols = row0 + rows;  // keys 0 .. the chunk's last row
    // cuBLAS is column-major; a row-major R x C buffer reads as its C x R transpose. Row-major W (rows x cols) =
    // Q_chunk K^T is column-major W^T (cols x rows) = K Q_chunk^T: K's buffer reads as K^T (d x S, ld d), turned back
    // by CUBLAS_OP_T; Q_chunk's reads as Q_chunk^T (d x rows, ld d) as it is.
    judge::ref::check_cublas(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, cols, rows, d, &one, Kd, d,
                                         Qd + std::int64_t(row0) * d, d, &zero, W, cols),
                             kId, "cublasDgemm(Q K^T)");
    decay_mask_kernel<<<judge::ref::grid_for(std::int64_t(rows) * cols), kBlock, 0, s>>>(W, rows, cols, row0, gamma,
                                                                                        scale);
    judge::ref::check_launch(kId, "decay_mask_kernel");
    // Row-major out_chunk (rows x d) = W V is column-major out_chunk^T (d x rows) = V^T W^T: V's buffer reads as V^T
    // (d x S, ld d; only its first cols columns are used) and W's as W^T (cols x rows, ld cols).
    judge::ref::check_cublas(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, d, rows, cols, &one, Vd, d, W, cols, &zero,
                                         Od + std::int64_t(row0) * d, d),
                             kId, "cublasDgemm(W V)");
  }
  narrow_kernel<<<judge::ref::grid_for(elems), kBlock, 0, s>>>(Od, out, elems);
  judge::ref::check_launch(kId, "narrow_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t S = a.scalar<int>("seq_len");
  const std::int64_t d = a.scalar<int>("d_model");
  const double gamma = a.scalar<float>("gamma");
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  double* out = a.output("output");
  const double scale = 1.0 / std::sqrt(double(d));
  if (S < 2 * d) {  // the quadratic sum is cheaper
    for (std::int64_t n = 0; n < S; ++n) {
      double* o = out + n * d;
      std::fill(o, o + d, 0.0);
      double decay = 1.0;  // gamma^(n - m)
      for (std::int64_t m = n; m >= 0; --m, decay *= gamma) {
        double score = 0.0;
        for (std::int64_t c = 0; c < d; ++c) score += double(Q[n * d + c]) * double(K[m * d + c]);
        const double w = decay * score * scale;
        for (std::int64_t c = 0; c < d; ++c) o[c] += w * double(V[m * d + c]);
      }
    }
    return;
  }
  std::vector<double> state(static_cast<std::size_t>(d * d), 0.0);  // state[r][c] = sum gamma^(n-m) K[m][r] V[m][c]
  for (std::int64_t n = 0; n < S; ++n) {
    for (std::int64_t r = 0; r < d; ++r) {
      const double k = K[n * d + r];
      double* row = state.data() + r * d;
      for (std::int64_t c = 0; c < d; ++c) row[c] = gamma * row[c] + k * double(V[n * d + c]);
    }
    double* o = out + n * d;
    std::fill(o, o + d, 0.0);
    for (std::int64_t r = 0; r < d; ++r) {
      const double q = double(Q[n * d + r]) * scale;
      const double* row = state.data() + r * d;
      for (std::int64_t c = 0; c < d; ++c) o[c] += q * row[c];
    }
  }
}

}  // namespace

JUDGE_REFERENCE(decaying_causal_attention, gpu, cpu)
