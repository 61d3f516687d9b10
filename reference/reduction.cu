// Reference for challenges/reduction: output[0] = sum of input[0..N), accumulated in double and rounded once to
// float. Two deterministic passes (block partial sums, then one block over the partials) rather than atomics, so the
// reference gives the same bits on every run.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "reduction";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kMaxPartials = 1024;

// Scratch for the partial sums; references run one case at a time, so one copy per device suffices.
__device__ double g_partials[kMaxPartials];

__global__ void partial_sums_kernel(const float* in, std::int64_t n) {
  double acc = 0.0;
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kBlock)
    acc += in[i];
  const double total = judge::ref::block_reduce(acc, judge::ref::Sum{});
  if (threadIdx.x == 0) g_partials[blockIdx.x] = total;
}

__global__ void final_sum_kernel(float* out, int partials) {
  const double total = judge::ref::block_reduce_array(g_partials, partials, 0.0, judge::ref::Sum{});
  if (threadIdx.x == 0) out[0] = static_cast<float>(total);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  const unsigned blocks = judge::ref::grid_for(n, kBlock, kMaxPartials);
  partial_sums_kernel<<<blocks, kBlock, 0, s>>>(a.input<float>("input"), n);
  judge::ref::check_launch(kId, "partial_sums_kernel");
  final_sum_kernel<<<1, kBlock, 0, s>>>(a.output<float>("output"), static_cast<int>(blocks));
  judge::ref::check_launch(kId, "final_sum_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* in = a.input<float>("input");
  double acc = 0.0;
  for (std::int64_t i = 0; i < n; ++i) acc += in[i];
  a.output("output")[0] = acc;
}

}  // namespace

JUDGE_REFERENCE(reduction, gpu, cpu)
