// Reference for challenges/ppo_clipped_surrogate_loss: output[0] = -(1 / (B S)) sum min(r A, clip(r, 1 - eps, 1 + eps) A)
// with r = exp(log_pi - log_pi_old): the difference, products and sum in double, one rounding to float at the end.
// On the GPU the exponential is float expf (at most 2 ulp) of the difference rounded to float, times 1 + the rounding
// remainder: r within about 2.5e-7 of exp in double (far inside the 1e-4 tolerance), at a tenth of the double-precision
// work, so that the kernel stays bound by memory. The sum over the flat B * S array is judge::ref::grid_sum's
// (deterministic: two passes, no atomics); rows are contiguous, so the row structure does not matter to the sum.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/grid_sum.cuh"

namespace {

constexpr const char* kId = "ppo_clipped_surrogate_loss";

__host__ __device__ double clipped_term(double r, float adv, double lo, double hi) {
  const double clipped = r < lo ? lo : (r > hi ? hi : r);
  const double a = adv;
  return fmin(r * a, clipped * a);
}

// exp(d) = exp(df) * exp(d - df) with df = float(d); |d - df| <= 2^-20 for |d| < 32, so exp(d - df) = 1 + (d - df)
// to within 1e-12.
__device__ double surrogate(float adv, float lp, float lp_old, double lo, double hi) {
  const double d = double(lp) - double(lp_old);
  const float df = static_cast<float>(d);
  const double r = double(expf(df)) * (1.0 + (d - double(df)));
  return clipped_term(r, adv, lo, hi);
}

struct Surrogates {
  const float* A;
  const float* L;
  const float* O;
  double lo, hi;
  __device__ double quad(std::int64_t q) const {
    const float4 a = reinterpret_cast<const float4*>(A)[q];
    const float4 l = reinterpret_cast<const float4*>(L)[q];
    const float4 o = reinterpret_cast<const float4*>(O)[q];
    return (surrogate(a.x, l.x, o.x, lo, hi) + surrogate(a.y, l.y, o.y, lo, hi)) +
           (surrogate(a.z, l.z, o.z, lo, hi) + surrogate(a.w, l.w, o.w, lo, hi));
  }
  __device__ double operator()(std::int64_t i) const { return surrogate(A[i], L[i], O[i], lo, hi); }
};

struct StoreNegMean {
  float* out;
  std::int64_t n;
  __device__ void operator()(double sum) const { out[0] = static_cast<float>(-sum / double(n)); }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = std::int64_t(a.scalar<int>("B")) * a.scalar<int>("S");
  if (n <= 0) return;
  const double eps = a.scalar<float>("clip_eps");
  const float* A = a.input<float>("advantages");
  const float* L = a.input<float>("log_pi");
  const float* O = a.input<float>("log_pi_old");
  judge::ref::grid_sum<double>(kId, Surrogates{A, L, O, 1.0 - eps, 1.0 + eps}, n, judge::ref::aligned16(A, L, O),
                               StoreNegMean{a.output<float>("output"), n}, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = std::int64_t(a.scalar<int>("B")) * a.scalar<int>("S");
  const double eps = a.scalar<float>("clip_eps");
  const float* A = a.input<float>("advantages");
  const float* L = a.input<float>("log_pi");
  const float* O = a.input<float>("log_pi_old");
  double acc = 0.0;
  for (std::int64_t i = 0; i < n; ++i)
    acc += clipped_term(std::exp(double(L[i]) - double(O[i])), A[i], 1.0 - eps, 1.0 + eps);
  a.output("output")[0] = -acc / double(n);
}

}  // namespace

JUDGE_REFERENCE(ppo_clipped_surrogate_loss, gpu, cpu)
