// Reference for challenges/leaky_relu: output[i] = x if x > 0, else 0.01 * x, with the product taken in double and
// rounded once to float (the correctly rounded answer; float kernels are within one unit in the last place of it).
// It is also the speed yardstick: judge::ref::map_elementwise's float4 grid-stride loop. One double multiplication
// per element costs nothing next to the memory traffic.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/elementwise.cuh"

namespace {

constexpr const char* kId = "leaky_relu";
constexpr double kSlope = 0.01;

struct LeakyRelu {
  __device__ float operator()(float x) const { return x > 0.0f ? x : static_cast<float>(kSlope * double(x)); }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  if (n <= 0) return;
  judge::ref::map_elementwise(kId, LeakyRelu{}, n, s, a.output<float>("output"), a.input<float>("input"));
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* x = a.input<float>("input");
  double* y = a.output("output");
  for (std::int64_t i = 0; i < n; ++i) y[i] = x[i] > 0 ? double(x[i]) : kSlope * double(x[i]);
}

}  // namespace

JUDGE_REFERENCE(leaky_relu, gpu, cpu)
