// Reference for challenges/vector_add: C[i] = A[i] + B[i]. A float addition is correctly rounded, so every correct
// float32 kernel produces these exact bits.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "vector_add";

__global__ void add_kernel(const float* a, const float* b, float* c, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    c[i] = a[i] + b[i];
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  if (n <= 0) return;
  add_kernel<<<judge::ref::grid_for(n), judge::ref::kBlock, 0, s>>>(a.input<float>("A"), a.input<float>("B"),
                                                                   a.output<float>("C"), n);
  judge::ref::check_launch(kId, "add_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  double* C = a.output("C");
  for (std::int64_t i = 0; i < n; ++i) C[i] = double(A[i]) + double(B[i]);
}

}  // namespace

JUDGE_REFERENCE(vector_add, gpu, cpu)
