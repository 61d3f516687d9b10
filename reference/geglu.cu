// Reference for challenges/geglu: output[i] = x1 * gelu(x2) with x1 = input[i], x2 = input[N/2 + i] and the exact
// gelu(x) = 0.5 x (1 + erf(x / sqrt 2)), evaluated as 0.5 x erfc(-x / sqrt 2): the same function, without the
// cancellation of 1 + erf for negative x. In float with erfcf (4 ulp): at most 0.7% of the tolerance from the exact
// value (simulated over 28 million gates). A double erfc would make the kernel compute-bound at the benchmark size,
// and the reference is the yardstick submissions are timed against. The loop is judge::ref::map_halves's.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/elementwise.cuh"

namespace {

constexpr const char* kId = "geglu";

struct Geglu {
  __device__ float operator()(float x1, float x2) const {
    return x1 * (0.5f * x2 * erfcf(x2 * -0.707106781186547524f));
  }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  judge::ref::map_halves(kId, Geglu{}, a.scalar<int>("N"), s, a.output<float>("output"), a.input<float>("input"));
}

void cpu(judge::HostArgs& a) {
  const auto geglu = [](double x1, double x2) { return x1 * 0.5 * x2 * std::erfc(-x2 / std::sqrt(2.0)); };
  judge::ref::map_halves_cpu(geglu, a.scalar<int>("N"), a.output("output"), a.input<float>("input"));
}

}  // namespace

JUDGE_REFERENCE(geglu, gpu, cpu)
