// Reference for challenges/relu: output[i] = max(0, input[i]). The result is always one of the two operands, so
// every correct float32 kernel produces these exact values. Written as x < 0 ? 0 : x, which (like PyTorch's relu)
// passes a NaN through; the tests have none.
// It is also the speed yardstick: judge::ref::map_elementwise's float4 grid-stride loop.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/elementwise.cuh"

namespace {

constexpr const char* kId = "relu";

struct Relu {
  __device__ float operator()(float x) const { return x < 0.0f ? 0.0f : x; }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  if (n <= 0) return;
  judge::ref::map_elementwise(kId, Relu{}, n, s, a.output<float>("output"), a.input<float>("input"));
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* x = a.input<float>("input");
  double* y = a.output("output");
  for (std::int64_t i = 0; i < n; ++i) y[i] = x[i] < 0 ? 0.0 : double(x[i]);
}

}  // namespace

JUDGE_REFERENCE(relu, gpu, cpu)
