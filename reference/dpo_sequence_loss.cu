// Reference for challenges/dpo_sequence_loss: output[0] = (1/B) sum_i softplus(-z_i),
// z_i = beta * ((chosen_logps[i] - rejected_logps[i]) - (chosen_ref_logps[i] - rejected_ref_logps[i])).
// The margins, z, softplus and the sum are all in double (the four inputs and beta are exact in double), so the
// result is the true loss of the float inputs within one rounding to float. softplus(x) = max(x, 0) + log1p(exp(-|x|))
// never overflows. The sum is judge::ref::grid_sum's (deterministic: two passes, no atomics), reading the four arrays
// as 16-byte vectors when they are aligned.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/grid_sum.cuh"

namespace {

constexpr const char* kId = "dpo_sequence_loss";

__host__ __device__ double pair_loss(double beta, float c, float r, float cr, float rr) {
  const double z = beta * ((double(c) - double(r)) - (double(cr) - double(rr)));
  const double x = -z;  // the loss is -log(sigmoid(z)) = softplus(-z)
  return fmax(x, 0.0) + log1p(exp(-fabs(x)));
}

struct PairLosses {
  const float* c;
  const float* r;
  const float* cr;
  const float* rr;
  double beta;
  __device__ double quad(std::int64_t q) const {
    const float4 a = reinterpret_cast<const float4*>(c)[q];
    const float4 b = reinterpret_cast<const float4*>(r)[q];
    const float4 ac = reinterpret_cast<const float4*>(cr)[q];
    const float4 bc = reinterpret_cast<const float4*>(rr)[q];
    return (pair_loss(beta, a.x, b.x, ac.x, bc.x) + pair_loss(beta, a.y, b.y, ac.y, bc.y)) +
           (pair_loss(beta, a.z, b.z, ac.z, bc.z) + pair_loss(beta, a.w, b.w, ac.w, bc.w));
  }
  __device__ double operator()(std::int64_t i) const { return pair_loss(beta, c[i], r[i], cr[i], rr[i]); }
};

struct StoreMean {
  float* output;
  std::int64_t n;
  __device__ void operator()(double sum) const { output[0] = static_cast<float>(sum / double(n)); }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("B");
  if (n <= 0) return;
  const float* c = a.input<float>("chosen_logps");
  const float* r = a.input<float>("rejected_logps");
  const float* cr = a.input<float>("chosen_ref_logps");
  const float* rr = a.input<float>("rejected_ref_logps");
  const double beta = a.scalar<float>("beta");
  judge::ref::grid_sum<double>(kId, PairLosses{c, r, cr, rr, beta}, n, judge::ref::aligned16(c, r, cr, rr),
                               StoreMean{a.output<float>("output"), n}, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("B");
  const double beta = a.scalar<float>("beta");
  const float* c = a.input<float>("chosen_logps");
  const float* r = a.input<float>("rejected_logps");
  const float* cr = a.input<float>("chosen_ref_logps");
  const float* rr = a.input<float>("rejected_ref_logps");
  double total = 0.0;
  for (std::int64_t i = 0; i < n; ++i) total += pair_loss(beta, c[i], r[i], cr[i], rr[i]);
  a.output("output")[0] = total / double(n);
}

}  // namespace

JUDGE_REFERENCE(dpo_sequence_loss, gpu, cpu)
