// Reference for challenges/monte_carlo_integration: result[0] = (b - a) * mean(y_samples), with the sum, the
// difference b - a (of the float scalars the submission also receives), the division and the product in double and
// one rounding to float at the end. The sum is judge::ref::grid_sum's (deterministic: two passes, no atomics).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/grid_sum.cuh"

namespace {

constexpr const char* kId = "monte_carlo_integration";

__device__ double sum4(float4 v) { return (double(v.x) + double(v.y)) + (double(v.z) + double(v.w)); }

struct Samples {
  const float* y;
  __device__ double quad(std::int64_t q) const { return sum4(reinterpret_cast<const float4*>(y)[q]); }
  __device__ double operator()(std::int64_t i) const { return y[i]; }
};

struct StoreIntegral {
  float* result;
  double width;
  std::int64_t n;
  __device__ void operator()(double sum) const { result[0] = static_cast<float>(width * (sum / double(n))); }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("n_samples");
  if (n <= 0) return;
  const float* y = a.input<float>("y_samples");
  // The bounds as the float32 values solve() receives, their difference in double.
  const double width = double(a.scalar<float>("b")) - double(a.scalar<float>("a"));
  judge::ref::grid_sum<double>(kId, Samples{y}, n, judge::ref::aligned16(y),
                               StoreIntegral{a.output<float>("result"), width, n}, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("n_samples");
  const float* y = a.input<float>("y_samples");
  const double width = double(a.scalar<float>("b")) - double(a.scalar<float>("a"));
  double acc = 0.0;
  for (std::int64_t i = 0; i < n; ++i) acc += y[i];
  a.output("result")[0] = width * (acc / double(n));
}

}  // namespace

JUDGE_REFERENCE(monte_carlo_integration, gpu, cpu)
