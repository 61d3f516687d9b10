// Reference for challenges/grpo_surrogate_loss: output[0] = -(1 / (B G S)) sum over (b, g, s) of
// min(r A, clip(r, 1 - clip_eps, 1 + clip_eps) A) - beta (exp(d) - d - 1), where r = exp(log_pi - log_pi_old),
// d = log_ref - log_pi and A is the reward of response (b, g) normalised by its group's mean and population standard
// deviation (plus 1e-8). The advantages are computed first, in double, one thread per group; the token sum is then
// judge::ref::grid_sum's (deterministic: two passes, no atomics), every term and the sum in double.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/grid_sum.cuh"

namespace {

constexpr const char* kId = "grpo_surrogate_loss";
constexpr int kMaxGroups = 256 * 32;  // the spec's constraints: B <= 256, G <= 32
constexpr double kStdEps = 1e-8;

__device__ double g_advantage[kMaxGroups];

// One thread per prompt: mean, population variance (two passes) and the G advantages, all in double.
__global__ void advantages_kernel(const float* rewards, int B, int G) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  const float* R = rewards + std::int64_t(b) * G;
  double mean = 0.0;
  for (int g = 0; g < G; ++g) mean += R[g];
  mean /= G;
  double var = 0.0;
  for (int g = 0; g < G; ++g) var += (R[g] - mean) * (R[g] - mean);
  const double denom = sqrt(var / G) + kStdEps;
  for (int g = 0; g < G; ++g) g_advantage[b * G + g] = (R[g] - mean) / denom;
}

// exp(x) for |x| <= 16 to within about 2 float ulps, much cheaper than the double exp (which would make the kernel
// compute-bound): expf of x rounded to float, times exp of the rounding residual e (|e| < 1e-6, so 1 + e is exp(e)
// to 5e-13). Each term is still computed and summed in double; the per-term error of ~2e-7 is random and
// averages out in the mean, far inside the challenge's 1e-4.
__device__ double exp_term(double x) {
  const float xf = static_cast<float>(x);
  return double(expf(xf)) * (1.0 + (x - double(xf)));
}

struct Params {
  const float* log_pi;
  const float* log_pi_old;
  const float* log_ref;
  double lo, hi, beta;
  unsigned S;

  __device__ double term(float lp, float lpo, float lr, unsigned i) const {
    const double A = g_advantage[i / S];
    const double r = exp_term(double(lp) - double(lpo));
    const double clipped = fmin(fmax(r, lo), hi);
    const double surrogate = fmin(r * A, clipped * A);
    const double d = double(lr) - double(lp);
    return surrogate - beta * (exp_term(d) - d - 1.0);
  }
  __device__ double quad(std::int64_t q) const {
    const float4 p = reinterpret_cast<const float4*>(log_pi)[q];
    const float4 o = reinterpret_cast<const float4*>(log_pi_old)[q];
    const float4 r = reinterpret_cast<const float4*>(log_ref)[q];
    const unsigned i = static_cast<unsigned>(4 * q);
    return (term(p.x, o.x, r.x, i) + term(p.y, o.y, r.y, i + 1)) +
           (term(p.z, o.z, r.z, i + 2) + term(p.w, o.w, r.w, i + 3));
  }
  __device__ double operator()(std::int64_t i) const {
    return term(log_pi[i], log_pi_old[i], log_ref[i], static_cast<unsigned>(i));
  }
};

struct StoreLoss {
  float* output;
  std::int64_t n;
  __device__ void operator()(double sum) const { output[0] = static_cast<float>(-sum / double(n)); }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int B = a.scalar<int>("B"), G = a.scalar<int>("G"), S = a.scalar<int>("S");
  if (std::int64_t(B) * G > kMaxGroups)
    JUDGE_THROW(judge::Error, "reference '{}': B * G = {} exceeds the {} groups the constraints allow", kId,
                std::int64_t(B) * G, kMaxGroups);
  const std::int64_t n = std::int64_t(B) * G * S;
  if (n <= 0) return;
  const double clip_eps = a.scalar<float>("clip_eps");
  const Params p{a.input<float>("log_pi"), a.input<float>("log_pi_old"), a.input<float>("log_ref"),
                 1.0 - clip_eps, 1.0 + clip_eps, double(a.scalar<float>("beta")), static_cast<unsigned>(S)};
  advantages_kernel<<<(B + judge::ref::kBlock - 1) / judge::ref::kBlock, judge::ref::kBlock, 0, s>>>(
      a.input<float>("rewards"), B, G);
  judge::ref::check_launch(kId, "advantages_kernel");
  judge::ref::grid_sum<double>(kId, p, n, judge::ref::aligned16(p.log_pi, p.log_pi_old, p.log_ref),
                               StoreLoss{a.output<float>("output"), n}, s);
}

void cpu(judge::HostArgs& a) {
  const int B = a.scalar<int>("B"), G = a.scalar<int>("G"), S = a.scalar<int>("S");
  const double clip_eps = a.scalar<float>("clip_eps"), beta = a.scalar<float>("beta");
  const float* R = a.input<float>("rewards");
  const float* lp = a.input<float>("log_pi");
  const float* lpo = a.input<float>("log_pi_old");
  const float* lr = a.input<float>("log_ref");
  double total = 0.0;
  for (int b = 0; b < B; ++b) {
    double mean = 0.0;
    for (int g = 0; g < G; ++g) mean += R[b * G + g];
    mean /= G;
    double var = 0.0;
    for (int g = 0; g < G; ++g) var += (R[b * G + g] - mean) * (R[b * G + g] - mean);
    const double std_dev = std::sqrt(var / G);
    for (int g = 0; g < G; ++g) {
      const double A = (R[b * G + g] - mean) / (std_dev + kStdEps);
      for (int s = 0; s < S; ++s) {
        const std::int64_t i = (std::int64_t(b) * G + g) * S + s;
        const double r = std::exp(double(lp[i]) - double(lpo[i]));
        const double clipped = std::min(std::max(r, 1.0 - clip_eps), 1.0 + clip_eps);
        const double d = double(lr[i]) - double(lp[i]);
        total += std::min(r * A, clipped * A) - beta * (std::exp(d) - d - 1.0);
      }
    }
  }
  a.output("output")[0] = -total / (double(B) * G * S);
}

}  // namespace

JUDGE_REFERENCE(grpo_surrogate_loss, gpu, cpu)
