// Reference for challenges/categorical_cross_entropy_loss: loss[0] = (1/N) sum_i (m_i + log S_i - logits[i][y_i]),
// m_i = max_j logits[i][j], S_i = sum_j exp(logits[i][j] - m_i), y_i = true_labels[i].
//
// Memory-bound (each logit is read once), so one warp per row streams the row once with an online log-sum-exp:
// every lane keeps a running maximum m and a running sum s of exp(x - m), rescaling s when the maximum grows; the
// lanes' pairs are merged by the same rule. Terms are float expf of (x - m) <= 0, each within 2 ulp; the row loss
// m + log(s) - logits[i][y_i] and everything after it is in double. The per-row losses are summed in a fixed order
// (warp, block, then one block over the block sums): deterministic, and the mean is exact to float rounding of its
// inputs.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "categorical_cross_entropy_loss";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kWarps = kBlock / 32;  // rows in flight per block
constexpr int kMaxPartials = 2048;

__device__ double g_partials[kMaxPartials];  // one per block of the first pass

struct MaxSum {
  float m;  // largest value seen (-inf if none)
  float s;  // sum of exp(x - m) over the values seen
};

__device__ MaxSum merge(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return a;  // both empty
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__device__ void add(MaxSum& t, float v) {
  if (v > t.m) {
    t.s = t.s * expf(t.m - v) + 1.0f;
    t.m = v;
  } else {
    t.s += expf(v - t.m);
  }
}

__global__ void __launch_bounds__(kBlock) row_losses_kernel(const float* __restrict__ z, const int* __restrict__ y,
                                                            int N, int C, bool aligned) {
  __shared__ double warp_sums[kWarps];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  double mine = 0.0;  // sum of this warp's row losses
  for (int row = blockIdx.x * kWarps + warp; row < N; row += gridDim.x * kWarps) {
    const float* r = z + std::int64_t(row) * C;
    MaxSum t = {-INFINITY, 0.0f};
    if (aligned) {  // C % 4 == 0 and z 16-byte aligned: every row is whole float4s
      const float4* r4 = reinterpret_cast<const float4*>(r);
#pragma unroll 4
      for (int q = lane; q < C / 4; q += 32) {
        const float4 v = r4[q];
        add(t, v.x), add(t, v.y), add(t, v.z), add(t, v.w);
      }
    } else {
#pragma unroll 4
      for (int j = lane; j < C; j += 32) add(t, r[j]);
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      const MaxSum o = {__shfl_down_sync(0xffffffffu, t.m, offset), __shfl_down_sync(0xffffffffu, t.s, offset)};
      t = merge(t, o);
    }
    if (lane == 0) mine += double(t.m) + log(double(t.s)) - double(r[y[row]]);
  }
  if (lane == 0) warp_sums[warp] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    double block = 0.0;
    for (int w = 0; w < kWarps; ++w) block += warp_sums[w];
    g_partials[blockIdx.x] = block;
  }
}

__global__ void mean_kernel(float* loss, int partials, int N) {
  const double total = judge::ref::block_reduce_array(g_partials, partials, 0.0, judge::ref::Sum{});
  if (threadIdx.x == 0) loss[0] = static_cast<float>(total / N);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int N = a.scalar<int>("N");
  const int C = a.scalar<int>("C");
  if (N <= 0 || C <= 0) return;
  const float* z = a.input<float>("logits");
  const bool aligned = C % 4 == 0 && judge::ref::aligned16(z);
  const unsigned blocks = judge::ref::grid_for(N, kWarps, kMaxPartials);
  row_losses_kernel<<<blocks, kBlock, 0, s>>>(z, a.input<int>("true_labels"), N, C, aligned);
  judge::ref::check_launch(kId, "row_losses_kernel");
  mean_kernel<<<1, kBlock, 0, s>>>(a.output<float>("loss"), static_cast<int>(blocks), N);
  judge::ref::check_launch(kId, "mean_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t C = a.scalar<int>("C");
  const float* z = a.input<float>("logits");
  const int* y = a.input<int>("true_labels");
  double total = 0.0;
  for (std::int64_t i = 0; i < N; ++i) {
    const float* r = z + i * C;
    double m = -INFINITY;
    for (std::int64_t j = 0; j < C; ++j) m = r[j] > m ? r[j] : m;
    double s = 0.0;
    for (std::int64_t j = 0; j < C; ++j) s += std::exp(double(r[j]) - m);
    total += m + std::log(s) - double(r[y[i]]);
  }
  a.output("loss")[0] = total / double(N);
}

}  // namespace

JUDGE_REFERENCE(categorical_cross_entropy_loss, gpu, cpu)
