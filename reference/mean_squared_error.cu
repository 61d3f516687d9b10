// Reference for challenges/mean_squared_error: mse[0] = (1/N) sum (predictions[i] - targets[i])^2, with the
// differences, squares and sum in double and one rounding to float at the end. The sum is judge::ref::grid_sum's
// (deterministic: two passes, no atomics).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/grid_sum.cuh"

namespace {

constexpr const char* kId = "mean_squared_error";

__device__ double square_diff(float p, float t) {
  const double d = double(p) - double(t);
  return d * d;
}

__device__ double squares4(float4 p, float4 t) {
  return (square_diff(p.x, t.x) + square_diff(p.y, t.y)) + (square_diff(p.z, t.z) + square_diff(p.w, t.w));
}

struct SquaredErrors {
  const float* P;
  const float* T;
  __device__ double quad(std::int64_t q) const {
    return squares4(reinterpret_cast<const float4*>(P)[q], reinterpret_cast<const float4*>(T)[q]);
  }
  __device__ double operator()(std::int64_t i) const { return square_diff(P[i], T[i]); }
};

struct StoreMean {
  float* mse;
  std::int64_t n;
  __device__ void operator()(double sum) const { mse[0] = static_cast<float>(sum / double(n)); }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  if (n <= 0) return;
  const float* P = a.input<float>("predictions");
  const float* T = a.input<float>("targets");
  judge::ref::grid_sum<double>(kId, SquaredErrors{P, T}, n, judge::ref::aligned16(P, T),
                               StoreMean{a.output<float>("mse"), n}, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* P = a.input<float>("predictions");
  const float* T = a.input<float>("targets");
  double acc = 0.0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double d = double(P[i]) - double(T[i]);
    acc += d * d;
  }
  a.output("mse")[0] = acc / double(n);
}

}  // namespace

JUDGE_REFERENCE(mean_squared_error, gpu, cpu)
