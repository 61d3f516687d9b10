// Reference for challenges/llama_transformer_block: one pre-norm Llama-style decoder block over seq_len tokens of 512
// features, float32, all parameters packed in one weights buffer (LeetGPU's layout; every matrix stored (out, in), so
// a projection is z W^T), no biases anywhere:
//   xn   = RMSNorm(x; w1)                             z / sqrt(mean(z^2) + 1e-5) * w, per row
//   q|k|v = xn [W_Q; W_K; W_V]^T                      (seq_len x 768: Q = columns 0..511 (8 heads of 64), K = 512..639,
//                                                      V = 640..767 (2 heads each))
//   q, k <- RoPE, half-split: element c < 32 of a head pairs with c + 32, angle table row = the token's position
//   head_g = softmax(Q_g K_h^T / 8 + causal mask) V_h,   h = g / 4 (query heads 0-3 read K, V head 0; 4-7 head 1)
//   hid  = x + [head_0 | ... | head_7] W_O^T
//   out  = hid + (silu(hn W_gate^T) * (hn W_up^T)) W_down^T,   hn = RMSNorm(hid; w2)
//
// GPU: every product is cuBLAS in strict FP32 (CUBLAS_PEDANTIC_MATH: no TF32). W_Q, W_K, W_V lie one after another,
// so they are one (768 x 512) matrix and Q, K, V one product; likewise W_gate, W_up are one (2816 x 512) matrix. The
// residuals are copied into the destination first and the product added with beta = 1. RoPE rotates Q and K in
// place (in double, rounded once). Attention runs per K/V head: its 4 query heads are a strided batch whose K (and V)
// operand has stride 0, around the shared row softmax of attention_softmax.cuh with a causal mask (logits, max,
// exponentials and their sum in double; masked keys get exactly 0, so E V may run over the whole row); E V is written
// straight into each head's columns of attn and then scaled by 1 / sum. RMSNorm takes its sum of squares in double,
// SiLU(gate) * up is computed in double and rounded once.
//
// CPU: the same block with every product, sum and function in double.
//
// Also the challenge's generators: "llama_weights" (the packed buffer drawn as LeetGPU draws it: both RMSNorm gains
// uniform in [0.8, 1.2), every matrix normal with mean 0 and standard deviation args.std) and "llama_rope" (the cos or
// sin table, row r = position r: angle r * base^(-2k / head_dim) for column k < head_dim / 2, as LeetGPU makes it).
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

constexpr const char* kId = "llama_transformer_block";
constexpr int kBlock = judge::ref::kBlock;

constexpr std::int64_t D = 512, HQ = 8, HKV = 2, DH = 64, HALF = DH / 2, GROUP = HQ / HKV, FFN = 1408;
constexpr std::int64_t QKV = (HQ + 2 * HKV) * DH;  // 768: the columns of q|k|v
constexpr std::int64_t O_RMS1 = 0;
constexpr std::int64_t O_WQ = O_RMS1 + D;
constexpr std::int64_t O_WK = O_WQ + HQ * DH * D;
constexpr std::int64_t O_WV = O_WK + HKV * DH * D;
constexpr std::int64_t O_WO = O_WV + HKV * DH * D;
constexpr std::int64_t O_RMS2 = O_WO + D * D;
constexpr std::int64_t O_WGATE = O_RMS2 + D;
constexpr std::int64_t O_WUP = O_WGATE + FFN * D;
constexpr std::int64_t O_WDOWN = O_WUP + FFN * D;
constexpr std::int64_t TOTAL_WEIGHTS = O_WDOWN + D * FFN;
static_assert(TOTAL_WEIGHTS == 2819072, "LeetGPU's packed size");
static_assert(O_WK == O_WQ + HQ * DH * D && O_WV == O_WK + HKV * DH * D, "W_Q, W_K, W_V are one matrix");
static_assert(O_WUP == O_WGATE + FFN * D, "W_gate, W_up are one matrix");
constexpr double kEps = 1e-5;

// out[r] = in[r] / sqrt(mean(in[r]^2) + eps) * w, one row of D per block; the sum of squares in double.
__global__ void rmsnorm_kernel(const float* __restrict__ in, const float* __restrict__ w, float* __restrict__ out) {
  __shared__ double inv;
  const float* row = in + blockIdx.x * D;
  double q = 0.0;
  for (int j = threadIdx.x; j < D; j += kBlock) q += double(row[j]) * row[j];
  q = judge::ref::block_reduce(q, judge::ref::Sum{});
  if (threadIdx.x == 0) inv = 1.0 / sqrt(q / D + kEps);
  __syncthreads();
  for (int j = threadIdx.x; j < D; j += kBlock)
    out[blockIdx.x * D + j] = static_cast<float>(double(row[j]) * inv * w[j]);
}

// In place on the q and k columns of qkv (rows of QKV): for token i, head h (8 query heads then 2 key heads) and
// k < 32, (a, b) = (v[k], v[k + 32]) becomes (a cos - b sin, a sin + b cos) with cos, sin = table[i][k].
__global__ void rope_kernel(float* qkv, const float* __restrict__ cs, const float* __restrict__ sn, std::int64_t n) {
  const std::int64_t count = n * (HQ + HKV) * HALF;
  for (std::int64_t t = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; t < count;
       t += std::int64_t(gridDim.x) * kBlock) {
    const std::int64_t i = t / ((HQ + HKV) * HALF), rest = t % ((HQ + HKV) * HALF);
    const std::int64_t h = rest / HALF, k = rest % HALF;
    float* v = qkv + i * QKV + h * DH;
    const double a = v[k], b = v[k + HALF], c = cs[i * HALF + k], s = sn[i * HALF + k];
    v[k] = static_cast<float>(a * c - b * s);
    v[k + HALF] = static_cast<float>(a * s + b * c);
  }
}

// The causal mask for a launch of `heads` heads of n query rows each, head after head: launch row r is query
// r % n, which sees keys 0 .. r % n.
struct CausalHeadsLogits {
  double scale;
  std::int64_t n;
  __device__ std::int64_t visible(std::int64_t row, std::int64_t) const { return row % n + 1; }
  __device__ double operator()(std::int64_t, std::int64_t, float s) const { return double(s) * scale; }
};

// attn[i][g0 * DH + c] *= inv_sum[(c / DH) * n + i] for the GROUP heads from g0 (c < GROUP * DH).
__global__ void scale_heads_kernel(float* attn, const double* inv_sum, std::int64_t n, std::int64_t g0) {
  const std::int64_t cols = GROUP * DH, count = n * cols;
  for (std::int64_t t = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; t < count;
       t += std::int64_t(gridDim.x) * kBlock) {
    const std::int64_t i = t / cols, c = t % cols;
    float* p = attn + i * D + g0 * DH + c;
    *p = static_cast<float>(double(*p) * inv_sum[(c / DH) * n + i]);
  }
}

// hb[i][j] = silu(gu[i][j]) * gu[i][FFN + j]: gate and up side by side in gu (rows of 2 FFN); in double.
__global__ void swiglu_kernel(const float* __restrict__ gu, float* __restrict__ hb, std::int64_t n) {
  const std::int64_t count = n * FFN;
  for (std::int64_t t = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; t < count;
       t += std::int64_t(gridDim.x) * kBlock) {
    const std::int64_t i = t / FFN, j = t % FFN;
    const double g = gu[i * 2 * FFN + j], u = gu[i * 2 * FFN + FFN + j];
    hb[t] = static_cast<float>(g / (1.0 + exp(-g)) * u);
  }
}

// Row-major P (R x C, ld C) (beta = 0: =, 1: +=) U (R x K) W^T, W stored (C x K) row-major: column-major
// P^T = W U^T, W's buffer read column-major being W^T (K x C), hence CUBLAS_OP_T.
void linear(cublasHandle_t handle, const float* U, const float* W, float* P, int R, int K, int C, float beta,
            const char* what) {
  const float one = 1.0f;
  judge::ref::check_cublas(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, C, R, K, &one, W, K, U, K, &beta, P, C), kId,
                           what);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int n = a.scalar<int>("seq_len");
  if (n <= 0) return;
  const float* x = a.input<float>("x");
  const float* w = a.input<float>("weights");
  const float* cs = a.input<float>("cos");
  const float* sn = a.input<float>("sin");
  float* out = a.output<float>("output");

  // One scratch: the 1 / sums (GROUP x n doubles, first, rounded up to 256 bytes so that every float array after
  // them stays 16-byte aligned for the softmax's float4 reads), then xn / hn (n x D), qkv (n x QKV), attn (n x D),
  // hid (n x D), gate|up (n x 2 FFN), swiglu (n x FFN) and one group's scores (GROUP x n x n: 268 MB at 4096).
  const std::int64_t rows = n, per_head = rows * rows;
  const std::int64_t double_bytes = (GROUP * rows * 8 + 255) / 256 * 256;
  const std::int64_t floats = rows * (D + QKV + D + D + 2 * FFN + FFN) + GROUP * per_head;
  static judge::ref::Scratch scratch(kId, "the block's intermediates and one group's attention scores");
  char* base = scratch.get<char>(static_cast<std::size_t>(double_bytes + floats * 4));
  double* inv_sum = reinterpret_cast<double*>(base);
  float* xn = reinterpret_cast<float*>(base + double_bytes);
  float* qkv = xn + rows * D;
  float* attn = qkv + rows * QKV;
  float* hid = attn + rows * D;
  float* gu = hid + rows * D;
  float* hb = gu + rows * 2 * FFN;
  float* S = hb + rows * FFN;

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_PEDANTIC_MATH, kId);
  cublasHandle_t handle = cublas.handle();

  rmsnorm_kernel<<<n, kBlock, 0, s>>>(x, w + O_RMS1, xn);
  judge::ref::check_launch(kId, "rmsnorm_kernel (RMSNorm 1)");
  linear(handle, xn, w + O_WQ, qkv, n, D, QKV, 0.0f, "cublasSgemm(xn [W_Q; W_K; W_V]^T)");
  rope_kernel<<<judge::ref::grid_for(rows * (HQ + HKV) * HALF), kBlock, 0, s>>>(qkv, cs, sn, rows);
  judge::ref::check_launch(kId, "rope_kernel");

  const float one = 1.0f, zero = 0.0f;
  const int ld = static_cast<int>(QKV);
  for (std::int64_t h = 0; h < HKV; ++h) {
    const std::int64_t g0 = h * GROUP;
    const float* Q = qkv + g0 * DH;
    const float* K = qkv + HQ * DH + h * DH;
    const float* V = qkv + (HQ + HKV) * DH + h * DH;
    // Row-major S_g (n x n) = Q_g K_h^T is column-major S_g^T = K_h Q_g^T; the group's 4 query heads are a batch
    // with Q stride DH (the next head's columns) and K stride 0 (the same key head).
    judge::ref::check_cublas(cublasSgemmStridedBatched(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, DH, &one, K, ld, 0, Q,
                                                       ld, DH, &zero, S, n, per_head, GROUP),
                             kId, "cublasSgemmStridedBatched(Q K^T)");
    judge::ref::launch_softmax_rows(kId, S, n, n, GROUP * rows, CausalHeadsLogits{0.125, rows}, inv_sum, s);
    // Row-major attn_g (n x DH, ld D) = E_g V_h is column-major attn_g^T = V_h^T E_g^T (V stride 0 again).
    judge::ref::check_cublas(cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, DH, n, n, &one, V, ld, 0, S,
                                                       n, per_head, &zero, attn + g0 * DH, D, DH, GROUP),
                             kId, "cublasSgemmStridedBatched(E V)");
    scale_heads_kernel<<<judge::ref::grid_for(rows * GROUP * DH), kBlock, 0, s>>>(attn, inv_sum, rows, g0);
    judge::ref::check_launch(kId, "scale_heads_kernel");
  }

  judge::ref::check_cuda(cudaMemcpyAsync(hid, x, sizeof(float) * rows * D, cudaMemcpyDeviceToDevice, s), kId,
                         "cudaMemcpyAsync(hid = x)");
  linear(handle, attn, w + O_WO, hid, n, D, D, 1.0f, "cublasSgemm(attn W_O^T)");
  rmsnorm_kernel<<<n, kBlock, 0, s>>>(hid, w + O_RMS2, xn);
  judge::ref::check_launch(kId, "rmsnorm_kernel (RMSNorm 2)");
  linear(handle, xn, w + O_WGATE, gu, n, D, 2 * FFN, 0.0f, "cublasSgemm(hn [W_gate; W_up]^T)");
  swiglu_kernel<<<judge::ref::grid_for(rows * FFN), kBlock, 0, s>>>(gu, hb, rows);
  judge::ref::check_launch(kId, "swiglu_kernel");
  judge::ref::check_cuda(cudaMemcpyAsync(out, hid, sizeof(float) * rows * D, cudaMemcpyDeviceToDevice, s), kId,
                         "cudaMemcpyAsync(output = hid)");
  linear(handle, hb, w + O_WDOWN, out, n, FFN, D, 1.0f, "cublasSgemm(swiglu W_down^T)");
}

// ---- CPU, double precision ----

void rmsnorm_cpu(const double* in, const float* w, double* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const double* r = in + i * D;
    double q = 0.0;
    for (std::int64_t j = 0; j < D; ++j) q += r[j] * r[j];
    const double inv = 1.0 / std::sqrt(q / D + kEps);
    for (std::int64_t j = 0; j < D; ++j) out[i * D + j] = r[j] * inv * double(w[j]);
  }
}

// P (n x C) = U (n x K) W^T, W stored (C x K) row-major float: each output a contiguous dot product.
void linear_cpu(const double* U, const float* W, double* P, std::int64_t n, std::int64_t K, std::int64_t C) {
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t c = 0; c < C; ++c) {
      const double* u = U + i * K;
      const float* wc = W + c * K;
      double acc = 0.0;
      for (std::int64_t k = 0; k < K; ++k) acc += u[k] * double(wc[k]);
      P[i * C + c] = acc;
    }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("seq_len");
  const float* xf = a.input<float>("x");
  const float* w = a.input<float>("weights");
  const float* cs = a.input<float>("cos");
  const float* sn = a.input<float>("sin");
  double* out = a.output("output");
  std::vector<double> x(static_cast<std::size_t>(n * D)), xn(x.size()), attn(x.size()), hid(x.size());
  std::vector<double> qkv(static_cast<std::size_t>(n * QKV)), gate(static_cast<std::size_t>(n * FFN)), up(gate.size());
  std::vector<double> p(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = xf[k];

  rmsnorm_cpu(x.data(), w + O_RMS1, xn.data(), n);
  linear_cpu(xn.data(), w + O_WQ, qkv.data(), n, D, QKV);  // W_Q, W_K, W_V consecutive: one (768 x 512) matrix
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t h = 0; h < HQ + HKV; ++h) {  // RoPE on the 8 query heads and the 2 key heads
      double* v = &qkv[i * QKV + h * DH];
      for (std::int64_t k = 0; k < HALF; ++k) {
        const double a1 = v[k], a2 = v[k + HALF], c = cs[i * HALF + k], s = sn[i * HALF + k];
        v[k] = a1 * c - a2 * s;
        v[k + HALF] = a1 * s + a2 * c;
      }
    }
  for (std::int64_t g = 0; g < HQ; ++g) {
    const std::int64_t h = g / GROUP;
    for (std::int64_t i = 0; i < n; ++i) {
      const double* q = &qkv[i * QKV + g * DH];
      double m = -INFINITY;
      for (std::int64_t j = 0; j <= i; ++j) {  // causal: keys 0 .. i
        const double* k = &qkv[j * QKV + HQ * DH + h * DH];
        double dot = 0.0;
        for (std::int64_t c = 0; c < DH; ++c) dot += q[c] * k[c];
        p[j] = dot / 8.0;  // sqrt(64)
        m = std::max(m, p[j]);
      }
      double sum = 0.0;
      for (std::int64_t j = 0; j <= i; ++j) sum += (p[j] = std::exp(p[j] - m));
      double* o = &attn[i * D + g * DH];
      for (std::int64_t c = 0; c < DH; ++c) o[c] = 0.0;
      for (std::int64_t j = 0; j <= i; ++j) {
        const double* v = &qkv[j * QKV + (HQ + HKV) * DH + h * DH];
        for (std::int64_t c = 0; c < DH; ++c) o[c] += p[j] * v[c];
      }
      for (std::int64_t c = 0; c < DH; ++c) o[c] /= sum;
    }
  }
  linear_cpu(attn.data(), w + O_WO, hid.data(), n, D, D);
  for (std::size_t k = 0; k < hid.size(); ++k) hid[k] += x[k];
  rmsnorm_cpu(hid.data(), w + O_RMS2, xn.data(), n);
  linear_cpu(xn.data(), w + O_WGATE, gate.data(), n, D, FFN);
  linear_cpu(xn.data(), w + O_WUP, up.data(), n, D, FFN);
  for (std::size_t k = 0; k < gate.size(); ++k) gate[k] = gate[k] / (1.0 + std::exp(-gate[k])) * up[k];
  std::vector<double> down(x.size());
  linear_cpu(gate.data(), w + O_WDOWN, down.data(), n, FFN, D);
  for (std::size_t k = 0; k < x.size(); ++k) out[k] = hid[k] + down[k];
}

// ---- the generators ----

struct WeightValue : judge::ref::WeightDraws {
  JUDGE_HD double operator()(std::int64_t e) const {
    if (e < O_WQ) return uniform(e, 0.8, 1.2);                     // RMSNorm 1 gain
    if (e >= O_RMS2 && e < O_WGATE) return uniform(e, 0.8, 1.2);   // RMSNorm 2 gain
    return normal(e);                                              // the seven matrices
  }
};

void llama_weights(const judge::GeneratorCall& c) {
  judge::ref::check_weights_buffer(c, "llama_weights", TOTAL_WEIGHTS);
  WeightValue v;
  v.std = c.arg("std");
  v.key = c.key;
  if (!(v.std > 0) || !(v.std <= 0.1))
    JUDGE_THROW(judge::Error, "generator 'llama_weights': std = {}: need 0 < std <= 0.1", v.std);
  judge::gen::fill(c, v);
}

// Row r (position r), column k < head_dim / 2: cos or sin of r * base^(-2k / head_dim), computed in double and
// rounded once (LeetGPU computes the angles in float32; the tables are inputs, so only their values matter).
struct RopeTable {
  std::int64_t half;
  double head_dim, base;
  bool sine;
  JUDGE_HD double operator()(std::int64_t e) const {
    const std::int64_t r = e / half, k = e % half;
    const double angle = double(r) * pow(base, -2.0 * double(k) / head_dim);
    return sine ? sin(angle) : cos(angle);
  }
};

void llama_rope(const judge::GeneratorCall& c) {
  if (!judge::is_floating(c.dtype))
    JUDGE_THROW(judge::Error, "generator 'llama_rope' makes floating-point tables; the buffer is {}",
                judge::to_string(c.dtype));
  const double head_dim = c.arg("head_dim"), base = c.arg("base"), sine = c.arg("sine");
  if (!(head_dim >= 2) || std::fmod(head_dim, 2.0) != 0 ||
      std::fmod(static_cast<double>(c.count), head_dim / 2) != 0)
    JUDGE_THROW(judge::Error, "generator 'llama_rope': head_dim = {} is not even with head_dim / 2 dividing {}",
                head_dim, c.count);
  if (!(base > 1)) JUDGE_THROW(judge::Error, "generator 'llama_rope': base = {} is not above 1", base);
  if (sine != 0 && sine != 1) JUDGE_THROW(judge::Error, "generator 'llama_rope': sine = {} is not 0 or 1", sine);
  judge::gen::fill(c, RopeTable{static_cast<std::int64_t>(head_dim / 2), head_dim, base, sine == 1});
}

}  // namespace

JUDGE_REFERENCE(llama_transformer_block, gpu, cpu)
JUDGE_GENERATOR(llama_weights, llama_weights)
JUDGE_GENERATOR(llama_rope, llama_rope)
