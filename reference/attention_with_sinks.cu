// Reference for challenges/attention_with_sinks: output[i] = softmax over the keys j that query i sees of
// Q[i].K[j] / sqrt(d), applied to the rows V[j]; Q, K, V and output are M x d, row-major float32. Query i sees key j
// when j <= i and (j < num_sinks or j >= i - window_size + 1): the first num_sinks keys always, plus the causal
// window of the last window_size keys up to and including i. A sink inside the window is one key, counted once.
//
// The keys a query sees are at most window_size + num_sinks of the M: a full M x M product (cuBLAS, as in
// softmax_attention) would spend about M / window_size times the necessary work, on scores it then masks away.
// One kernel instead, the approach of reference/sliding_window_attn.cu with the keys streamed in tiles, since a window
// may be as long as the sequence. A block owns kRows consecutive query rows; the keys any of them sees are the sinks
// below the block's windows and one span of consecutive keys (the union of its windows). It stages its Q rows in
// shared memory once, then for each tile of kKeys of those keys:
//   1. every (query, key) pair of the tile, four per thread, gets its score, or -inf where the query does not see it;
//   2. a warp per query row folds the tile into the row's running max m and sum l (online softmax): the tile's
//      scores become exp(s - m) and the earlier terms are rescaled by exp(m_old - m);
//   3. every (query, column) pair, sixteen per thread, rescales its accumulator and adds weight * V over the tile.
// The next tile's K and V rows are read into registers while a tile is being worked on.
// Everything after the loads is double (a product of two floats is exact in double, and the exponentials and sums
// carry 29 more bits), so the reference is the exact answer rounded to float: the tolerance (LeetGPU's 1e-5 +
// 1e-5 |ref|) is left whole to the submission. The tiles are staged as doubles, so each float is converted once, not
// at every use.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "attention_with_sinks";
constexpr int kRows = 32;     // query rows per block
constexpr int kKeys = 32;     // keys per tile: one per lane in step 2
constexpr int kThreads = 256;
constexpr int kMaxD = 128;    // the constraints' largest head dimension
constexpr int kStage = kKeys * kMaxD / kThreads;  // elements of a K (and of a V) tile each thread stages
constexpr int kLdp = kKeys + 1;  // row stride of the score tile
static_assert(kRows == 2 * 16 && kKeys == 2 * 16 && kThreads == 16 * 16, "step 1: a 16 x 16 grid of 2 x 2 pairs");
static_assert(kKeys == 32 && kRows % (kThreads / 32) == 0, "step 2: a lane per key, whole rows per warp");
static_assert(kRows == 4 * (kThreads / 32) && kMaxD == 4 * 32, "step 3: 4 rows x 4 columns per thread");

// Whether query i sees key j (LeetGPU's mask: causal, and a sink or inside the window).
__host__ __device__ inline bool visible(int i, int j, int sinks, int w) {
  return j <= i && (j < sinks || j >= i - w + 1);
}

// The shared memory of a block for head dimension d, in doubles. Strides: Q and K rows are read down a column by
// the lanes of step 1, so their stride is odd (distinct banks); V rows are read along a row, padded to whole warps.
struct Layout {
  int ldq, ldk, ldv;
  __host__ __device__ explicit Layout(int d) : ldq(d | 1), ldk(d | 1), ldv((d + 31) / 32 * 32) {}
  __host__ __device__ int q() const { return 0; }
  __host__ __device__ int k() const { return q() + kRows * ldq; }
  __host__ __device__ int v() const { return k() + kKeys * ldk; }
  __host__ __device__ int p() const { return v() + kKeys * ldv; }
  __host__ __device__ int stats() const { return p() + kRows * kLdp; }  // max, sum, rescale factor per row
  __host__ __device__ int doubles() const { return stats() + 3 * kRows; }
};

__global__ void __launch_bounds__(kThreads, 2)
    sink_attention_kernel(const float* __restrict__ Q, const float* __restrict__ K, const float* __restrict__ V,
                          float* __restrict__ out, int M, int d, int sinks, int w, double scale) {
  extern __shared__ double smem[];
  const Layout L(d);
  double* Qs = smem + L.q();         // kRows x ldq
  double* Ks = smem + L.k();         // kKeys x ldk
  double* Vs = smem + L.v();         // kKeys x ldv; columns d .. ldv - 1 stay 0
  double* P = smem + L.p();          // kRows x kLdp: scores, then exp(score - max)
  double* row_max = smem + L.stats();
  double* row_sum = row_max + kRows;
  double* row_scale = row_sum + kRows;
  const int tid = threadIdx.x;
  // The last rows first: when the window reaches back to the sinks, later rows see more keys.
  const int i0 = (gridDim.x - 1 - blockIdx.x) * kRows;
  const int rows = min(kRows, M - i0);
  // The block's keys, numbered by slot: slots 0 .. n_sink - 1 are the sinks below every window of the block (keys
  // 0 .. n_sink - 1), the rest the span lo .. i0 + rows - 1 (every key of it is in some row's window).
  const int lo = max(0, i0 - w + 1);
  const int n_sink = min(sinks, lo);
  const int n_keys = n_sink + (i0 + rows - lo);
  const int tiles = (n_keys + kKeys - 1) / kKeys;
  auto key_of = [&](int slot) { return slot < n_sink ? slot : lo + (slot - n_sink); };

  for (int e = tid; e < kRows * L.ldq; e += kThreads) {
    const int r = e / L.ldq, c = e - r * L.ldq;
    Qs[e] = r < rows && c < d ? double(Q[std::int64_t(i0 + r) * d + c]) : 0.0;
  }
  for (int e = tid; e < kKeys * L.ldv; e += kThreads) Vs[e] = 0.0;
  if (tid < kRows) row_max[tid] = -INFINITY, row_sum[tid] = 0.0;

  float kr[kStage], vr[kStage];  // the next tile's K and V elements of this thread (0 past the last key)
  auto fetch = [&](int tile) {
#pragma unroll
    for (int u = 0; u < kStage; ++u) {
      const int e = tid + u * kThreads;
      const int t = e / d, c = e - t * d, slot = tile * kKeys + t;
      const bool in = e < kKeys * d && slot < n_keys;
      const std::int64_t g = in ? std::int64_t(key_of(slot)) * d + c : 0;
      kr[u] = in ? K[g] : 0.0f;
      vr[u] = in ? V[g] : 0.0f;
    }
  };
  fetch(0);

  double acc[4][4] = {};  // step 3: rows wid + 8a, columns lane + 32b
  const int lane = tid % 32, wid = tid / 32;
  const int tx = tid % 16, ty = tid / 16;  // step 1: rows ty + 16a, key slots tx + 16b of the tile
  for (int tile = 0; tile < tiles; ++tile) {
    __syncthreads();  // the previous tile's step 3 is done with Ks, Vs and P
#pragma unroll
    for (int u = 0; u < kStage; ++u) {
      const int e = tid + u * kThreads;
      if (e < kKeys * d) {
        const int t = e / d, c = e - t * d;
        Ks[t * L.ldk + c] = kr[u];
        Vs[t * L.ldv + c] = vr[u];
      }
    }
    __syncthreads();
    if (tile + 1 < tiles) fetch(tile + 1);  // in flight during steps 1 to 3

    // 1. Scores of rows ty, ty + 16 with slots tx, tx + 16.
    {
      const double* q0 = Qs + ty * L.ldq;
      const double* q1 = q0 + 16 * L.ldq;
      const double* k0 = Ks + tx * L.ldk;
      const double* k1 = k0 + 16 * L.ldk;
      double s[2][2] = {};
      for (int c = 0; c < d; ++c) {
        const double a0 = q0[c], a1 = q1[c], b0 = k0[c], b1 = k1[c];
        s[0][0] = fma(a0, b0, s[0][0]);
        s[0][1] = fma(a0, b1, s[0][1]);
        s[1][0] = fma(a1, b0, s[1][0]);
        s[1][1] = fma(a1, b1, s[1][1]);
      }
#pragma unroll
      for (int a = 0; a < 2; ++a)
#pragma unroll
        for (int b = 0; b < 2; ++b) {
          const int r = ty + 16 * a, t = tx + 16 * b, slot = tile * kKeys + t;
          const bool seen = r < rows && slot < n_keys && visible(i0 + r, key_of(slot), sinks, w);
          P[r * kLdp + t] = seen ? s[a][b] * scale : -INFINITY;
        }
    }
    __syncthreads();

    // 2. Online softmax: warp wid folds the tile into rows wid, wid + 8, ...; lane = slot.
    for (int r = wid; r < kRows; r += kThreads / 32) {
      const double x = P[r * kLdp + lane];
      double m = x;
      for (int off = 16; off > 0; off >>= 1) m = fmax(m, __shfl_xor_sync(0xffffffffu, m, off));
      const double m_old = row_max[r];
      m = fmax(m, m_old);
      // m = -inf: the row has seen no key yet (or never will: rows past M); nothing to add or rescale.
      const double p = m == -INFINITY ? 0.0 : exp(x - m);
      const double rescale = m == -INFINITY ? 1.0 : exp(m_old - m);  // exp(-inf) = 0 before the first key
      double sum = p;
      for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
      P[r * kLdp + lane] = p;
      if (lane == 0) row_max[r] = m, row_sum[r] = row_sum[r] * rescale + sum, row_scale[r] = rescale;
    }
    __syncthreads();

    // 3. acc = acc * rescale + P V over the tile's filled slots.
    {
      const int count = min(kKeys, n_keys - tile * kKeys);
      const int col_blocks = L.ldv / 32;
#pragma unroll
      for (int a = 0; a < 4; ++a) {
        const double rescale = row_scale[wid + 8 * a];
#pragma unroll
        for (int b = 0; b < 4; ++b) acc[a][b] *= rescale;
      }
      for (int t = 0; t < count; ++t) {
        double p[4], v[4];
#pragma unroll
        for (int a = 0; a < 4; ++a) p[a] = P[(wid + 8 * a) * kLdp + t];
#pragma unroll
        for (int b = 0; b < 4; ++b) v[b] = b < col_blocks ? Vs[t * L.ldv + lane + 32 * b] : 0.0;
#pragma unroll
        for (int a = 0; a < 4; ++a)
#pragma unroll
          for (int b = 0; b < 4; ++b) acc[a][b] = fma(p[a], v[b], acc[a][b]);
      }
    }
  }

  // row_sum is final: written in step 2 of the last tile, before the barrier that ends it.
#pragma unroll
  for (int a = 0; a < 4; ++a) {
    const int r = wid + 8 * a;
    if (r >= rows) continue;
    const double inv = 1.0 / row_sum[r];  // >= exp(0): the row's own key and its maximum are among its keys
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      const int c = lane + 32 * b;
      if (c < d) out[std::int64_t(i0 + r) * d + c] = static_cast<float>(acc[a][b] * inv);
    }
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int d = a.scalar<int>("d");
  const int sinks = a.scalar<int>("num_sinks");
  const int window = a.scalar<int>("window_size");
  if (M <= 0 || d <= 0) return;
  if (d > kMaxD) JUDGE_THROW(judge::Error, "reference '{}': d = {} is above the {} it supports", kId, d, kMaxD);
  // A window longer than the sequence sees no more keys than one of length M.
  const int w = std::min(window, M);
  const std::size_t smem = sizeof(double) * static_cast<std::size_t>(Layout(d).doubles());  // 108 KB at d = 128
  if (smem > 48 * 1024)
    judge::ref::check_cuda(cudaFuncSetAttribute(sink_attention_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(smem)),
                           kId, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  const unsigned blocks = static_cast<unsigned>((M + kRows - 1) / kRows);
  sink_attention_kernel<<<blocks, kThreads, smem, s>>>(a.input<float>("Q"), a.input<float>("K"), a.input<float>("V"),
                                                       a.output<float>("output"), M, d, sinks, w,
                                                       1.0 / std::sqrt(static_cast<double>(d)));
  judge::ref::check_launch(kId, "sink_attention_kernel");
}

void cpu(judge::HostArgs& a) {
  const int M = a.scalar<int>("M");
  const int d = a.scalar<int>("d");
  const int sinks = a.scalar<int>("num_sinks");
  const int w = a.scalar<int>("window_size");
  const float* Q = a.input<float>("Q");
  const float* K = a.input<float>("K");
  const float* V = a.input<float>("V");
  double* out = a.output("output");
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  std::vector<int> keys;
  std::vector<double> p;
  for (int i = 0; i < M; ++i) {
    keys.clear();
    for (int j = 0; j < M; ++j)
      if (visible(i, j, sinks, w)) keys.push_back(j);
    p.assign(keys.size(), 0.0);
    double m = -INFINITY;
    for (std::size_t n = 0; n < keys.size(); ++n) {
      double dot = 0.0;
      for (int c = 0; c < d; ++c)
        dot += double(Q[std::int64_t(i) * d + c]) * double(K[std::int64_t(keys[n]) * d + c]);
      p[n] = dot * scale;
      m = std::max(m, p[n]);
    }
    double sum = 0.0;
    for (double& x : p) sum += (x = std::exp(x - m));
    for (int c = 0; c < d; ++c) {
      double acc = 0.0;
      for (std::size_t n = 0; n < keys.size(); ++n) acc += p[n] * double(V[std::int64_t(keys[n]) * d + c]);
      out[std::int64_t(i) * d + c] = acc / sum;
    }
  }
}

}  // namespace

JUDGE_REFERENCE(attention_with_sinks, gpu, cpu)
