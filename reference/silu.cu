// Reference for challenges/silu: output[i] = x / (1 + exp(-x)), x = input[i].
// Computed in float with the accurate expf (2 ulp) and __fdividef (2 ulp): within about 5 ulp (6e-7 relative) of the
// exact value for every input, 15x inside the tolerance. (__fdividef returns 0 when the denominator exceeds 2^126,
// i.e. for x in (-88.7, -87.3), where the exact value is below 1e-36.) The reference is the yardstick submissions
// are timed against, so it must run at memory speed: with an IEEE division it reached only 77% of an H200's copy
// bandwidth at N = 5e7, and a double exponential would be slower still. The loop is judge::ref::map_elementwise's.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/elementwise.cuh"

namespace {

constexpr const char* kId = "silu";

struct Silu {
  __device__ float operator()(float x) const { return __fdividef(x, 1.0f + expf(-x)); }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  if (n <= 0) return;
  judge::ref::map_elementwise(kId, Silu{}, n, s, a.output<float>("output"), a.input<float>("input"));
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* x = a.input<float>("input");
  double* y = a.output("output");
  for (std::int64_t i = 0; i < n; ++i) y[i] = double(x[i]) / (1.0 + std::exp(-double(x[i])));
}

}  // namespace

JUDGE_REFERENCE(silu, gpu, cpu)
