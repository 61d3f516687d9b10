// Reference for challenges/int8_kv_cache_attention: decode-step attention over an int8 key/value cache with one scale
// per cached token. For every head h, with K[h][j][c] = K_int8[h][j][c] * k_scale[h][j] (V alike) and d = head_dim:
//   output[h] = softmax(Q[h] K[h]^T / sqrt(d)) V[h],
// Q and output [num_heads, head_dim] float32, K_int8 and V_int8 [num_heads, seq_len, head_dim] int8, the scales
// [num_heads, seq_len] float32, all row-major.
//
// One query row per head, so the products are matrix-vector products that read the int8 cache once; there is no GEMM
// for cuBLAS to do. Three kernels:
//   1. S[h][j] = k_scale[h][j] * (Q[h] . K_int8[h][j]): one warp per cached token, the dot product in double (each
//      term float x int8 is exact in double), rounded to float once;
//   2. the attention references' row softmax (reference/attention_softmax.cuh), one row of seq_len scores per head:
//      E = exp((s - max) / sqrt(d)) in double, rounded to float, and 1 / sum(E) per head;
//   3. output[h][c] = (sum over j of E[h][j] * v_scale[h][j] * V_int8[h][j][c]) / sum(E), in double: a block per
//      head and 32 columns, its 8 warps taking every 8th token, their partial sums added in a fixed order.
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/attention_softmax.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "int8_kv_cache_attention";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kWarps = kBlock / 32;

// S[row] for row = h * L + j over all H * L cached tokens, one warp each.
__global__ void scores_kernel(const float* Q, const int8_t* K, const float* k_scale, float* S, std::int64_t rows,
                              int L, int d) {
  const int lane = threadIdx.x % 32;
  const std::int64_t warps = std::int64_t(gridDim.x) * kWarps;
  for (std::int64_t row = blockIdx.x * std::int64_t(kWarps) + threadIdx.x / 32; row < rows; row += warps) {
    const float* q = Q + row / L * d;
    const int8_t* k = K + row * d;
    double acc = 0.0;
    for (int c = lane; c < d; c += 32) acc += double(q[c]) * double(k[c]);
    for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    if (lane == 0) S[row] = static_cast<float>(acc * double(k_scale[row]));
  }
}

// Block (h, column group): lane t owns column 32 * blockIdx.y + t, warp w the tokens j = w, w + 8, ...
__global__ void weighted_values_kernel(const float* E, const double* inv_sum, const int8_t* V, const float* v_scale,
                                       float* out, int L, int d) {
  __shared__ double partial[kWarps][32];
  const int h = blockIdx.x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int c = blockIdx.y * 32 + lane;
  const std::int64_t base = std::int64_t(h) * L;
  double acc = 0.0;
  if (c < d)
    for (int j = warp; j < L; j += kWarps)
      acc += double(E[base + j]) * double(v_scale[base + j]) * double(V[(base + j) * d + c]);
  partial[warp][lane] = acc;
  __syncthreads();
  if (warp == 0 && c < d) {
    double sum = 0.0;
    for (int w = 0; w < kWarps; ++w) sum += partial[w][lane];
    out[std::int64_t(h) * d + c] = static_cast<float>(sum * inv_sum[h]);
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int H = a.scalar<int>("num_heads");
  const int L = a.scalar<int>("seq_len");
  const int d = a.scalar<int>("head_dim");
  if (H <= 0 || L <= 0 || d <= 0) return;
  const float* Q = a.input<float>("Q");
  const int8_t* K = a.input<int8_t>("K_int8");
  const int8_t* V = a.input<int8_t>("V_int8");
  const float* k_scale = a.input<float>("k_scale");
  const float* v_scale = a.input<float>("v_scale");
  float* out = a.output<float>("output");
  const std::int64_t rows = std::int64_t(H) * L;
  static judge::ref::Scratch scores(kId, "scores"), sums(kId, "row sums");
  float* S = scores.get<float>(static_cast<std::size_t>(rows));
  double* inv_sum = sums.get<double>(static_cast<std::size_t>(H));

  scores_kernel<<<judge::ref::grid_for(rows, kWarps), kBlock, 0, s>>>(Q, K, k_scale, S, rows, L, d);
  judge::ref::check_launch(kId, "scores_kernel");
  judge::ref::launch_softmax_rows(kId, S, L, L, H, judge::ref::ScaledLogits{1.0 / std::sqrt(double(d))}, inv_sum, s);
  weighted_values_kernel<<<dim3(static_cast<unsigned>(H), static_cast<unsigned>((d + 31) / 32)), kBlock, 0, s>>>(
      S, inv_sum, V, v_scale, out, L, d);
  judge::ref::check_launch(kId, "weighted_values_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t H = a.scalar<int>("num_heads");
  const std::int64_t L = a.scalar<int>("seq_len");
  const std::int64_t d = a.scalar<int>("head_dim");
  const float* Q = a.input<float>("Q");
  const int8_t* K = a.input<int8_t>("K_int8");
  const int8_t* V = a.input<int8_t>("V_int8");
  const float* k_scale = a.input<float>("k_scale");
  const float* v_scale = a.input<float>("v_scale");
  double* out = a.output("output");
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  std::vector<double> p(static_cast<std::size_t>(L));
  for (std::int64_t h = 0; h < H; ++h) {
    const float* q = Q + h * d;
    double m = -INFINITY;
    for (std::int64_t j = 0; j < L; ++j) {
      const int8_t* k = K + (h * L + j) * d;
      const double ks = k_scale[h * L + j];
      double dot = 0.0;
      for (std::int64_t c = 0; c < d; ++c) dot += double(q[c]) * (double(k[c]) * ks);
      p[j] = dot * scale;
      m = p[j] > m ? p[j] : m;
    }
    double sum = 0.0;
    for (std::int64_t j = 0; j < L; ++j) sum += (p[j] = std::exp(p[j] - m));
    double* o = out + h * d;
    for (std::int64_t c = 0; c < d; ++c) o[c] = 0.0;
    for (std::int64_t j = 0; j < L; ++j) {
      const int8_t* v = V + (h * L + j) * d;
      const double w = p[j] / sum * double(v_scale[h * L + j]);
      for (std::int64_t c = 0; c < d; ++c) o[c] += w * double(v[c]);
    }
  }
}

}  // namespace

JUDGE_REFERENCE(int8_kv_cache_attention, gpu, cpu)
