// Reference for challenges/gpt2_block: one pre-norm GPT-2 (124M) transformer block over seq_len tokens of 768
// features, float32, all parameters packed in one weights buffer (offsets below, LeetGPU's layout):
//   xn   = LN1(x)                                     (eps 1e-5, biased variance)
//   qkv  = xn W_qkv + b_qkv                           (seq_len x 2304: Q, K, V side by side)
//   attn = concat over 12 heads of softmax(Q_h K_h^T / 8) V_h      (no causal mask; head h = columns 64h..64h+63)
//   hid  = x + attn W_attn + b_attn
//   out  = hid + gelu_tanh(LN2(hid) W_fc + b_fc) W_proj + b_proj
//
// GPU: every product is cuBLAS in strict FP32 (CUBLAS_PEDANTIC_MATH: no TF32), each bias (and residual) written into
// the product's destination first and the product added with beta = 1. The attention scores of all heads are two
// strided-batched SGEMMs reading Q, K and V in place in qkv (leading dimension 2304) around the shared row softmax
// of attention_softmax.cuh (logits, max, exponentials and their sum in double); P V is written straight into each
// head's columns of attn and then scaled by 1 / sum. LayerNorm takes its mean and variance in double, GELU is the
// tanh form in float. Heads are processed in chunks so that the scores stay within 2^28 floats (seq_len <= 4096 takes
// one chunk of 12 heads, 805 MB).
//
// CPU: the same block with every product, sum and function in double.
//
// Also the challenge's generator "gpt2_weights": the packed buffer drawn as LeetGPU draws it (LayerNorm gains uniform
// in [0.8, 1.2), LayerNorm biases uniform in [-0.1, 0.1), matrices normal with standard deviation args.std), except
// that the four linear biases are uniform in [-args.bias, args.bias) instead of LeetGPU's zeros when args.bias > 0.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "judge/worker/generate.hpp"
#include "judge/worker/generators/fill.cuh"
#include "judge/worker/reference.hpp"
#include "reference/attention_softmax.cuh"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"
#include "reference/weight_draws.cuh"

namespace {

constexpr const char* kId = "gpt2_block";
constexpr int kBlock = judge::ref::kBlock;

constexpr std::int64_t D = 768, H = 12, DH = 64, FFN = 3072;
constexpr std::int64_t O_LN1_W = 0;
constexpr std::int64_t O_LN1_B = O_LN1_W + D;
constexpr std::int64_t O_WQKV = O_LN1_B + D;
constexpr std::int64_t O_BQKV = O_WQKV + D * 3 * D;
constexpr std::int64_t O_WAPROJ = O_BQKV + 3 * D;
constexpr std::int64_t O_BAPROJ = O_WAPROJ + D * D;
constexpr std::int64_t O_LN2_W = O_BAPROJ + D;
constexpr std::int64_t O_LN2_B = O_LN2_W + D;
constexpr std::int64_t O_WFC = O_LN2_B + D;
constexpr std::int64_t O_BFC = O_WFC + D * FFN;
constexpr std::int64_t O_WPROJ = O_BFC + FFN;
constexpr std::int64_t O_BPROJ = O_WPROJ + FFN * D;
constexpr std::int64_t TOTAL_WEIGHTS = O_BPROJ + D;
static_assert(TOTAL_WEIGHTS == 7087872, "LeetGPU's packed size");
constexpr double kEps = 1e-5;
constexpr std::int64_t kScratchScores = std::int64_t(1) << 28;

// out[r] = (in[r] - mean) / sqrt(var + eps) * g + b for one row of D per block; mean and variance in double.
__global__ void layernorm_kernel(const float* __restrict__ in, const float* __restrict__ g,
                                 const float* __restrict__ b, float* __restrict__ out) {
  __shared__ double stat;
  const float* row = in + blockIdx.x * D;
  double s = 0.0;
  for (int j = threadIdx.x; j < D; j += kBlock) s += row[j];
  s = judge::ref::block_reduce(s, judge::ref::Sum{});
  if (threadIdx.x == 0) stat = s / D;
  __syncthreads();
  const double mean = stat;
  double q = 0.0;
  for (int j = threadIdx.x; j < D; j += kBlock) {
    const double d = row[j] - mean;
    q += d * d;
  }
  q = judge::ref::block_reduce(q, judge::ref::Sum{});
  __syncthreads();  // every thread has read stat (mean) before thread 0 overwrites it
  if (threadIdx.x == 0) stat = 1.0 / sqrt(q / D + kEps);
  __syncthreads();
  const double inv = stat;
  for (int j = threadIdx.x; j < D; j += kBlock)
    out[blockIdx.x * D + j] = static_cast<float>((row[j] - mean) * inv * g[j] + b[j]);
}

// out[i][j] = bias[j] (+ res[i][j] where res is given), rows of `cols`: the addend of a product run with beta = 1.
__global__ void bias_rows_kernel(float* __restrict__ out, const float* __restrict__ bias, const float* __restrict__ res,
                                 std::int64_t count, int cols) {
  for (std::int64_t k = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; k < count;
       k += std::int64_t(gridDim.x) * kBlock)
    out[k] = res ? res[k] + bias[k % cols] : bias[k % cols];
}

// In place, the tanh form: 0.5 z (1 + tanh(sqrt(2 / pi) (z + 0.044715 z^3))).
__global__ void gelu_kernel(float* v, std::int64_t count) {
  for (std::int64_t k = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; k < count;
       k += std::int64_t(gridDim.x) * kBlock) {
    const float z = v[k];
    v[k] = 0.5f * z * (1.0f + tanhf(0.7978845608028654f * (z + 0.044715f * z * z * z)));
  }
}

// attn[i][h0 * DH + c] *= inv_sum[h * n + i] over the chunk's heads (c < hc * DH): the softmax's 1 / sum, applied
// after P V. inv_sum holds the chunk's rows head after head.
__global__ void scale_heads_kernel(float* attn, const double* inv_sum, int n, int h0, int hc) {
  const std::int64_t cols = std::int64_t(hc) * DH;
  const std::int64_t count = std::int64_t(n) * cols;
  for (std::int64_t k = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; k < count;
       k += std::int64_t(gridDim.x) * kBlock) {
    const std::int64_t i = k / cols, c = k % cols;
    float* p = attn + i * D + h0 * DH + c;
    *p = static_cast<float>(double(*p) * inv_sum[(c / DH) * n + i]);
  }
}

void gemm(cublasHandle_t handle, const float* U, const float* V, float* P, int R, int K, int C, const char* what) {
  // Row-major P (R x C) += U (R x K) V (K x C), i.e. column-major P^T += V^T U^T.
  const float one = 1.0f;
  judge::ref::check_cublas(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, C, R, K, &one, V, C, U, K, &one, P, C), kId,
                           what);
}

void bias_rows(float* out, const float* bias, const float* res, std::int64_t rows, int cols, cudaStream_t s) {
  const std::int64_t count = rows * cols;
  bias_rows_kernel<<<judge::ref::grid_for(count), kBlock, 0, s>>>(out, bias, res, count, cols);
  judge::ref::check_launch(kId, "bias_rows_kernel");
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int n = a.scalar<int>("seq_len");
  if (n <= 0) return;
  const float* x = a.input<float>("x");
  const float* w = a.input<float>("weights");
  float* out = a.output<float>("output");

  const std::int64_t per_head = std::int64_t(n) * n;
  const int heads = static_cast<int>(judge::ref::whole_item_chunk(H, per_head, kScratchScores));

  // One scratch: xn / hn (n x D, LN1 then LN2), qkv (n x 3D), attn (n x D), hid (n x D), fc (n x FFN), the scores
  // (heads x n x n) and the chunk's 1 / sums (heads x n doubles, first so that they are 8-byte aligned).
  const std::int64_t rows = n;
  // The doubles' region is rounded up to 256 bytes, so every float array after it stays 16-byte aligned (the softmax
  // reads rows of scores as float4).
  const std::int64_t floats = rows * (D + 3 * D + D + D + FFN) + heads * per_head;
  const std::int64_t double_bytes = (heads * rows * 8 + 255) / 256 * 256;
  static judge::ref::Scratch scratch(kId, "the block's intermediates and the attention scores");
  char* base = scratch.get<char>(static_cast<std::size_t>(double_bytes + floats * 4));
  double* inv_sum = reinterpret_cast<double*>(base);
  float* xn = reinterpret_cast<float*>(base + double_bytes);
  float* qkv = xn + rows * D;
  float* attn = qkv + rows * 3 * D;
  float* hid = attn + rows * D;
  float* fc = hid + rows * D;
  float* S = fc + rows * FFN;

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_PEDANTIC_MATH, kId);
  cublasHandle_t handle = cublas.handle();

  layernorm_kernel<<<n, kBlock, 0, s>>>(x, w + O_LN1_W, w + O_LN1_B, xn);
  judge::ref::check_launch(kId, "layernorm_kernel (LN1)");
  bias_rows(qkv, w + O_BQKV, nullptr, rows, 3 * D, s);
  gemm(handle, xn, w + O_WQKV, qkv, n, D, 3 * D, "cublasSgemm(LN1(x) W_qkv)");

  const float one = 1.0f, zero = 0.0f;
  const int ld = 3 * D;
  for (int h0 = 0; h0 < H; h0 += heads) {
    const int hc = std::min<int>(heads, H - h0);
    const float* Q = qkv + h0 * DH;
    const float* K = qkv + D + h0 * DH;
    const float* V = qkv + 2 * D + h0 * DH;
    // Row-major S_h (n x n) = Q_h K_h^T is column-major S_h^T = K_h Q_h^T (see multi_head_attention.cu).
    judge::ref::check_cublas(cublasSgemmStridedBatched(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, DH, &one, K, ld, DH, Q,
                                                       ld, DH, &zero, S, n, per_head, hc),
                             kId, "cublasSgemmStridedBatched(Q K^T)");
    judge::ref::launch_softmax_rows(kId, S, n, n, hc * rows, judge::ref::ScaledLogits{0.125}, inv_sum, s);
    // Row-major attn_h (n x DH, ld D) = E_h V_h is column-major attn_h^T = V_h^T E_h^T.
    judge::ref::check_cublas(cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, DH, n, n, &one, V, ld, DH, S,
                                                       n, per_head, &zero, attn + h0 * DH, D, DH, hc),
                             kId, "cublasSgemmStridedBatched(E V)");
    scale_heads_kernel<<<judge::ref::grid_for(rows * hc * DH), kBlock, 0, s>>>(attn, inv_sum, n, h0, hc);
    judge::ref::check_launch(kId, "scale_heads_kernel");
  }

  bias_rows(hid, w + O_BAPROJ, x, rows, D, s);
  gemm(handle, attn, w + O_WAPROJ, hid, n, D, D, "cublasSgemm(attn W_attn)");
  layernorm_kernel<<<n, kBlock, 0, s>>>(hid, w + O_LN2_W, w + O_LN2_B, xn);
  judge::ref::check_launch(kId, "layernorm_kernel (LN2)");
  bias_rows(fc, w + O_BFC, nullptr, rows, FFN, s);
  gemm(handle, xn, w + O_WFC, fc, n, D, FFN, "cublasSgemm(LN2(hid) W_fc)");
  gelu_kernel<<<judge::ref::grid_for(rows * FFN), kBlock, 0, s>>>(fc, rows * FFN);
  judge::ref::check_launch(kId, "gelu_kernel");
  bias_rows(out, w + O_BPROJ, hid, rows, D, s);
  gemm(handle, fc, w + O_WPROJ, out, n, FFN, D, "cublasSgemm(gelu W_proj)");
}

// ---- CPU, double precision ----

void layernorm_cpu(const double* in, const float* g, const float* b, double* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const double* r = in + i * D;
    double mean = 0.0;
    for (std::int64_t j = 0; j < D; ++j) mean += r[j];
    mean /= D;
    double var = 0.0;
    for (std::int64_t j = 0; j < D; ++j) var += (r[j] - mean) * (r[j] - mean);
    const double inv = 1.0 / std::sqrt(var / D + kEps);
    for (std::int64_t j = 0; j < D; ++j) out[i * D + j] = (r[j] - mean) * inv * double(g[j]) + double(b[j]);
  }
}

// P (n x C) = U (n x K) W (K x C) + bias, W row-major float; k outer so that the inner loop is contiguous.
void linear_cpu(const double* U, const float* W, const float* bias, double* P, std::int64_t n, std::int64_t K,
                std::int64_t C) {
  for (std::int64_t i = 0; i < n; ++i) {
    double* p = P + i * C;
    for (std::int64_t c = 0; c < C; ++c) p[c] = bias[c];
    for (std::int64_t k = 0; k < K; ++k) {
      const double u = U[i * K + k];
      const float* wk = W + k * C;
      for (std::int64_t c = 0; c < C; ++c) p[c] += u * double(wk[c]);
    }
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("seq_len");
  const float* xf = a.input<float>("x");
  const float* w = a.input<float>("weights");
  double* out = a.output("output");
  std::vector<double> x(static_cast<std::size_t>(n * D)), xn(x.size()), attn(x.size()), hid(x.size());
  std::vector<double> qkv(static_cast<std::size_t>(n * 3 * D)), fc(static_cast<std::size_t>(n * FFN));
  std::vector<double> p(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = xf[k];

  layernorm_cpu(x.data(), w + O_LN1_W, w + O_LN1_B, xn.data(), n);
  linear_cpu(xn.data(), w + O_WQKV, w + O_BQKV, qkv.data(), n, D, 3 * D);
  for (std::int64_t h = 0; h < H; ++h)
    for (std::int64_t i = 0; i < n; ++i) {
      const double* q = &qkv[i * 3 * D + h * DH];
      double m = -INFINITY;
      for (std::int64_t j = 0; j < n; ++j) {
        const double* k = &qkv[j * 3 * D + D + h * DH];
        double dot = 0.0;
        for (std::int64_t c = 0; c < DH; ++c) dot += q[c] * k[c];
        p[j] = dot / 8.0;  // sqrt(64)
        m = std::max(m, p[j]);
      }
      double sum = 0.0;
      for (std::int64_t j = 0; j < n; ++j) sum += (p[j] = std::exp(p[j] - m));
      double* o = &attn[i * D + h * DH];
      for (std::int64_t c = 0; c < DH; ++c) o[c] = 0.0;
      for (std::int64_t j = 0; j < n; ++j) {
        const double* v = &qkv[j * 3 * D + 2 * D + h * DH];
        for (std::int64_t c = 0; c < DH; ++c) o[c] += p[j] * v[c];
      }
      for (std::int64_t c = 0; c < DH; ++c) o[c] /= sum;
    }
  linear_cpu(attn.data(), w + O_WAPROJ, w + O_BAPROJ, hid.data(), n, D, D);
  for (std::size_t k = 0; k < hid.size(); ++k) hid[k] += x[k];
  layernorm_cpu(hid.data(), w + O_LN2_W, w + O_LN2_B, xn.data(), n);
  linear_cpu(xn.data(), w + O_WFC, w + O_BFC, fc.data(), n, D, FFN);
  const double c0 = std::sqrt(2.0 / 3.14159265358979323846);
  for (double& z : fc) z = 0.5 * z * (1.0 + std::tanh(c0 * (z + 0.044715 * z * z * z)));
  std::vector<double> proj(x.size());
  linear_cpu(fc.data(), w + O_WPROJ, w + O_BPROJ, proj.data(), n, FFN, D);
  for (std::size_t k = 0; k < x.size(); ++k) out[k] = hid[k] + proj[k];
}

// ---- the weights generator ----

struct WeightValue : judge::ref::WeightDraws {
  double bias = 0.0;

  JUDGE_HD double operator()(std::int64_t e) const {
    if (e < O_LN1_B) return uniform(e, 0.8, 1.2);                              // gamma1
    if (e < O_WQKV) return uniform(e, -0.1, 0.1);                              // beta1
    if (e < O_BQKV) return normal(e);                                          // W_qkv
    if (e < O_WAPROJ) return bias > 0 ? uniform(e, -bias, bias) : 0.0;         // b_qkv
    if (e < O_BAPROJ) return normal(e);                                        // W_attn
    if (e < O_LN2_W) return bias > 0 ? uniform(e, -bias, bias) : 0.0;          // b_attn
    if (e < O_LN2_B) return uniform(e, 0.8, 1.2);                              // gamma2
    if (e < O_WFC) return uniform(e, -0.1, 0.1);                               // beta2
    if (e < O_BFC) return normal(e);                                           // W_fc
    if (e < O_WPROJ) return bias > 0 ? uniform(e, -bias, bias) : 0.0;          // b_fc
    if (e < O_BPROJ) return normal(e);                                         // W_proj
    return bias > 0 ? uniform(e, -bias, bias) : 0.0;                           // b_proj
  }
};

void gpt2_weights(const judge::GeneratorCall& c) {
  judge::ref::check_weights_buffer(c, "gpt2_weights", TOTAL_WEIGHTS);
  WeightValue v;
  v.std = c.arg("std");
  v.bias = c.arg("bias");
  v.key = c.key;
  if (!(v.std > 0) || !(v.std <= 0.1) || !(v.bias >= 0) || !(v.bias <= 1))
    JUDGE_THROW(judge::Error, "generator 'gpt2_weights': std = {}, bias = {}: need 0 < std <= 0.1, 0 <= bias <= 1",
                v.std, v.bias);
  judge::gen::fill(c, v);
}

}  // namespace

JUDGE_REFERENCE(gpt2_block, gpu, cpu)
JUDGE_GENERATOR(gpt2_weights, gpt2_weights)
