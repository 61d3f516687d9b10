// Reference for challenges/softmax_attention_backward: the gradients of O = softmax(Q K^T / sqrt(d)) V with respect to
// Q, K and V, given dO = dL/dO; Q and dO are M x d, K and V are N x d, all row-major float32. With scale = 1/sqrt(d):
//   P  = softmax(scale * Q K^T)  (row-wise)        dV = P^T dO
//   dP = dO V^T                                    dS = P o (dP - rowsum(P o dP)) * scale
//   dQ = dS K                                      dK = dS^T Q
// (rowsum(P o dP) equals rowsum(dO o O), the form FlashAttention uses; this one needs no O.)
//
// Four cuBLAS SGEMMs in strict FP32 (CUBLAS_PEDANTIC_MATH, no TF32) plus the products' row kernels, over chunks of
// query rows so that each of the two M x N scratch matrices (P and dP, then dS) stays under 2^27 floats (M x N reaches
// 10^10). Per chunk of r query rows:
//   1. S = Q_chunk K^T (unscaled), then the shared row softmax (attention_softmax.cuh): E = exp(scale * (s - max)) in
//      double, rounded to float, and 1 / sum(E) per row; scale_rows_kernel turns E into P in place;
//   2. dV (+)= P^T dO_chunk (beta = 0 for the first chunk, 1 after: the sum over query rows spans the chunks);
//   3. dP = dO_chunk V^T, then ds_rows_kernel: D = rowsum(P o dP) in double and dS = P (dP - D) scale, in place;
//   4. dQ_chunk = dS K and dK (+)= dS^T Q_chunk.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/attention_softmax.cuh"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "softmax_attention_backward";
constexpr int kBlock = judge::ref::kBlock;
constexpr std::int64_t kScratchFloats = std::int64_t(1) << 27;  // 512 MiB per M x N scratch matrix at most

// One block per query row r of the chunk: D = sum over j of P[r][j] dP[r][j] (double), then dP[r][j] becomes
// dS[r][j] = P[r][j] (dP[r][j] - D) scale, computed in double from the float P and dP and rounded once.
__global__ void ds_rows_kernel(const float* P, float* dP, std::int64_t N, double scale) {
  __shared__ double row_dot;
  const std::int64_t r = blockIdx.x;
  const float* p = P + r * N;
  float* g = dP + r * N;
  double acc = 0.0;
  for (std::int64_t j = threadIdx.x; j < N; j += kBlock) acc += double(p[j]) * double(g[j]);
  acc = judge::ref::block_reduce(acc, judge::ref::Sum{});
  if (threadIdx.x == 0) row_dot = acc;
  __syncthreads();
  const double D = row_dot;
  for (std::int64_t j = threadIdx.x; j < N; j += kBlock)
    g[j] = static_cast<float>(double(p[j]) * (double(g[j]) - D) * scale);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int d = a.scalar<int>("d");
  if (M <= 0 || N <= 0 || d <= 0) return;
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  const float* dO = a.input<float>("dO");
  float* dQ = a.output<float>("dQ");
  float* dK = a.output<float>("dK");
  float* dV = a.output<float>("dV");
  const int rows = static_cast<int>(judge::ref::equal_chunk(M, N, kScratchFloats));
  static judge::ref::Scratch probs(kId, "P"), grads(kId, "dP and dS"), sums(kId, "row sums");
  float* P = probs.get<float>(static_cast<std::size_t>(rows) * N);
  float* G = grads.get<float>(static_cast<std::size_t>(rows) * N);
  double* inv_sum = sums.get<double>(static_cast<std::size_t>(rows));
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_PEDANTIC_MATH, kId);
  cublasHandle_t h = cublas.handle();
  const float one = 1.0f, zero = 0.0f;
  for (int r0 = 0; r0 < M; r0 += rows) {
    const int r = std::min(rows, M - r0);
    const float* Qc = Q + std::int64_t(r0) * d;
    const float* dOc = dO + std::int64_t(r0) * d;
    const float* beta = r0 == 0 ? &zero : &one;  // dK and dV sum over every chunk's query rows
    // S = Q_chunk K^T, its rows made E in place, then E -> P. cuBLAS is column-major, and a row-major R x C matrix
    // read column-major is its C x R transpose (leading dimension C).
    judge::ref::attention_scores(kId, h, Qc, K, r, N, d, P, judge::ref::ScaledLogits{scale}, inv_sum, s);
    judge::ref::launch_scale_rows(kId, P, inv_sum, std::int64_t(r) * N, N, s);
    // Row-major dV (N x d) = P^T dO_chunk is column-major dV^T (d x N) = dO_chunk^T (d x r: its buffer, OP_N, ld d)
    // times P (r x N: P's buffer reads as P^T, N x r with ld N, so OP_T).
    judge::ref::check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, d, N, r, &one, dOc, d, P, N, beta, dV, d), kId,
                             "cublasSgemm(P^T dO)");
    // dP (r x N) = dO_chunk V^T: the same shapes as S.
    judge::ref::check_cublas(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, N, r, d, &one, V, d, dOc, d, &zero, G, N), kId,
                             "cublasSgemm(dO V^T)");
    ds_rows_kernel<<<r, kBlock, 0, s>>>(P, G, N, scale);
    judge::ref::check_launch(kId, "ds_rows_kernel");
    // Row-major dQ_chunk (r x d) = dS K is column-major dQ_chunk^T (d x r) = K^T (d x N, ld d) dS^T (N x r, ld N):
    // both buffers already read as those, so no operation is transposed.
    judge::ref::check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, d, r, N, &one, K, d, G, N, &zero,
                                         dQ + std::int64_t(r0) * d, d),
                             kId, "cublasSgemm(dS K)");
    // dK (N x d) += dS^T Q_chunk: the same shapes as dV.
    judge::ref::check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, d, N, r, &one, Qc, d, G, N, beta, dK, d), kId,
                             "cublasSgemm(dS^T Q)");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t d = a.scalar<int>("d");
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  const float* dO = a.input<float>("dO");
  double* dQ = a.output("dQ");
  double* dK = a.output("dK");
  double* dV = a.output("dV");
  std::fill(dQ, dQ + M * d, 0.0);
  std::fill(dK, dK + N * d, 0.0);
  std::fill(dV, dV + N * d, 0.0);
  std::vector<double> p(static_cast<std::size_t>(N)), dp(static_cast<std::size_t>(N));
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  for (std::int64_t i = 0; i < M; ++i) {
    const float* q = Q + i * d;
    const float* g = dO + i * d;
    double m = -INFINITY;
    for (std::int64_t j = 0; j < N; ++j) {
      double dot = 0.0;
      for (std::int64_t c = 0; c < d; ++c) dot += double(q[c]) * double(K[j * d + c]);
      p[j] = dot * scale;
      m = std::max(m, p[j]);
    }
    double sum = 0.0;
    for (std::int64_t j = 0; j < N; ++j) sum += (p[j] = std::exp(p[j] - m));
    double D = 0.0;  // rowsum(P o dP)
    for (std::int64_t j = 0; j < N; ++j) {
      p[j] /= sum;
      double dot = 0.0;
      for (std::int64_t c = 0; c < d; ++c) dot += double(g[c]) * double(V[j * d + c]);
      dp[j] = dot;
      D += p[j] * dot;
    }
    for (std::int64_t j = 0; j < N; ++j) {
      const double ds = p[j] * (dp[j] - D) * scale;
      for (std::int64_t c = 0; c < d; ++c) {
        dQ[i * d + c] += ds * double(K[j * d + c]);
        dK[j * d + c] += ds * double(q[c]);
        dV[j * d + c] += p[j] * double(g[c]);
      }
    }
  }
}

}  // namespace

JUDGE_REFERENCE(softmax_attention_backward, gpu, cpu)
