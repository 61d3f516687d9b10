// Reference for challenges/linear_attention: output[i] = phi(Q[i]) S / (phi(Q[i]) . z), where phi(x) = x + 1 for
// x > 0 and exp(x) otherwise (elu(x) + 1, element-wise), S = phi(K)^T V (d x d) and z = the sum over j of phi(K[j])
// (d); Q, K, V and output are M x d, row-major float32. Not causal: every query sees every key.
//
// The products are taken in the order that makes attention linear: S and z once, then each query against them, so
// nothing of size M x M is formed and the work is 4 M d (d + 1), not 4 M^2 d. Appending a column of ones to V turns
// S and z into one product, [S | z] = phi(K)^T [V | 1] (d x (d + 1)):
//   1. phi(K) and [V | 1] are written in double, in P chunks of R key rows (zero rows pad the last chunk);
//   2. a strided-batched DGEMM gives each chunk's phi(K)^T [V | 1], and a kernel adds the P parts in a fixed order.
//      One DGEMM over all M keys would have only a handful of d x (d + 1) output tiles to spread over the GPU; the
//      chunks are an explicit split of the key dimension. S is then rounded to float, z stays double;
//   3. a warp per query row computes phi(Q[i]) and its denominator phi(Q[i]) . z in double, and stores
//      phi(Q[i]) / denominator rounded to float once;
//   4. an SGEMM (CUBLAS_DEFAULT_MATH: full FP32, no TF32) gives output = (phi(Q) / denominator) S: sums of d float
//      products, so every M-term sum is in double and only d-term sums are in float. Simulated against double
//      precision this stays within 0.004 of the tolerance at every test and benchmark size.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "linear_attention";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kWarps = kBlock / 32;  // kernels that give a warp to each row
constexpr int kMaxChunks = 32;       // parts of the key dimension: 32 x d x (d + 1) doubles, 4.2 MB at d = 128

// elu(x) + 1 of a float input, in double (x + 1 is exact there).
__host__ __device__ inline double phi(float x) { return x > 0.0f ? double(x) + 1.0 : exp(double(x)); }

// Rows j < rows of phiK (rows x d) = phi(K) and V1 (rows x (d + 1)) = [V | 1], in double; rows past M are zeros.
__global__ void prepare_keys_kernel(const float* K, const float* V, double* phiK, double* V1, int M, int rows, int d) {
  const int lane = threadIdx.x % 32;
  for (int j = blockIdx.x * kWarps + threadIdx.x / 32; j < rows; j += gridDim.x * kWarps) {
    const bool key = j < M;
    const std::int64_t in = std::int64_t(j) * d, out = std::int64_t(j) * (d + 1);
    for (int c = lane; c < d; c += 32) {
      phiK[in + c] = key ? phi(K[in + c]) : 0.0;
      V1[out + c] = key ? double(V[in + c]) : 0.0;
    }
    if (lane == 0) V1[out + d] = key ? 1.0 : 0.0;
  }
}

// [S | z] = the sum of the chunks' parts (each d x (d + 1), row-major), added in chunk order; S rounded to float.
__global__ void sum_chunks_kernel(const double* parts, int chunks, int d, float* S, double* z) {
  const int count = d * (d + 1);
  for (int e = blockIdx.x * kBlock + threadIdx.x; e < count; e += gridDim.x * kBlock) {
    double acc = 0.0;
    for (int p = 0; p < chunks; ++p) acc += parts[std::int64_t(p) * count + e];
    const int a = e / (d + 1), c = e - a * (d + 1);
    if (c < d)
      S[a * d + c] = static_cast<float>(acc);
    else
      z[a] = acc;
  }
}

// Qs[i] = phi(Q[i]) / (phi(Q[i]) . z), a warp per row, in double until the one rounding to float.
__global__ void prepare_queries_kernel(const float* Q, const double* z, float* Qs, int M, int d) {
  const int lane = threadIdx.x % 32;
  for (int i = blockIdx.x * kWarps + threadIdx.x / 32; i < M; i += gridDim.x * kWarps) {
    const float* q = Q + std::int64_t(i) * d;
    double den = 0.0;
    for (int c = lane; c < d; c += 32) den += phi(q[c]) * z[c];
    // A butterfly: both lanes of a pair add the same two values, so every lane ends with the same bits.
    for (int off = 16; off > 0; off >>= 1) den += __shfl_xor_sync(0xffffffffu, den, off);
    const double inv = 1.0 / den;  // den > 0: every phi and every z[c] is positive
    for (int c = lane; c < d; c += 32) Qs[std::int64_t(i) * d + c] = static_cast<float>(phi(q[c]) * inv);
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int d = a.scalar<int>("d");
  if (M <= 0 || d <= 0) return;
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  float* out = a.output<float>("output");
  const int chunks = std::min(kMaxChunks, M);
  const int R = (M + chunks - 1) / chunks;  // key rows per chunk
  const int rows = chunks * R;               // M rounded up to whole chunks
  const int width = d + 1;                   // columns of [V | 1] and of [S | z]

  static judge::ref::Scratch keys(kId, "phi(K)"), values(kId, "[V | 1]"), parts(kId, "chunk parts of [S | z]"),
      kv(kId, "S"), norm(kId, "z"), queries(kId, "phi(Q) / denominator");
  double* phiK = keys.get<double>(std::size_t(rows) * d);
  double* V1 = values.get<double>(std::size_t(rows) * width);
  double* P = parts.get<double>(std::size_t(chunks) * d * width);
  float* S = kv.get<float>(std::size_t(d) * d);
  double* z = norm.get<double>(std::size_t(d));
  float* Qs = queries.get<float>(std::size_t(M) * d);

  prepare_keys_kernel<<<judge::ref::grid_for(rows, kWarps), kBlock, 0, s>>>(K, V, phiK, V1, M, rows, d);
  judge::ref::check_launch(kId, "prepare_keys_kernel");

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  cublasHandle_t h = cublas.handle();
  // cuBLAS is column-major: a row-major R x C buffer read column-major is the C x R transpose. Row-major part p
  // (d x width) = phiK_p^T V1_p (phiK_p: R x d, V1_p: R x width) is column-major part^T (width x d) = V1_p^T phiK_p:
  // V1_p's buffer already reads as V1_p^T (width x R, ld width); phiK_p's reads as phiK_p^T (d x R, ld d), turned
  // back by CUBLAS_OP_T.
  const double one = 1.0, zero = 0.0;
  judge::ref::check_cublas(
      cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_T, width, d, R, &one, V1, width,
                                static_cast<long long>(R) * width, phiK, d, static_cast<long long>(R) * d, &zero, P,
                                width, static_cast<long long>(d) * width, chunks),
      kId, "cublasDgemmStridedBatched(phi(K)^T [V | 1])");
  sum_chunks_kernel<<<judge::ref::grid_for(std::int64_t(d) * width), kBlock, 0, s>>>(P, chunks, d, S, z);
  judge::ref::check_launch(kId, "sum_chunks_kernel");

  prepare_queries_kernel<<<judge::ref::grid_for(M, kWarps), kBlock, 0, s>>>(Q, z, Qs, M, d);
  judge::ref::check_launch(kId, "prepare_queries_kernel");
  // Row-major output (M x d) = Qs (M x d) S (d x d) is column-major output^T (d x M) = S^T Qs^T: both buffers already
  // read as those transposes, so no operation is transposed.
  const float onef = 1.0f, zerof = 0.0f;
  judge::ref::check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, d, M, d, &onef, S, d, Qs, d, &zerof, out, d), kId,
                           "cublasSgemm((phi(Q) / denominator) S)");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t d = a.scalar<int>("d");
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  double* out = a.output("output");
  std::vector<double> S(static_cast<std::size_t>(d * d), 0.0), z(static_cast<std::size_t>(d), 0.0),
      q(static_cast<std::size_t>(d));
  for (std::int64_t j = 0; j < M; ++j)
    for (std::int64_t r = 0; r < d; ++r) {
      const double k = phi(K[j * d + r]);
      z[r] += k;
      for (std::int64_t c = 0; c < d; ++c) S[r * d + c] += k * double(V[j * d + c]);
    }
  for (std::int64_t i = 0; i < M; ++i) {
    double den = 0.0;
    for (std::int64_t r = 0; r < d; ++r) den += (q[r] = phi(Q[i * d + r])) * z[r];
    for (std::int64_t c = 0; c < d; ++c) {
      double num = 0.0;
      for (std::int64_t r = 0; r < d; ++r) num += q[r] * S[r * d + c];
      out[i * d + c] = num / den;
    }
  }
}

}  // namespace

JUDGE_REFERENCE(linear_attention, gpu, cpu)
