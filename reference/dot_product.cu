// Reference for challenges/dot_product: result[0] = sum of A[i] * B[i]. Each product of two floats is exact in double
// (24 + 24 mantissa bits fit in 53) and the products are summed in double, then rounded once to float, by
// judge::ref::grid_sum (deterministic: two passes, no atomics).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/grid_sum.cuh"

namespace {

constexpr const char* kId = "dot_product";

__device__ double dot4(float4 a, float4 b) {
  return (double(a.x) * b.x + double(a.y) * b.y) + (double(a.z) * b.z + double(a.w) * b.w);
}

struct Products {
  const float* A;
  const float* B;
  __device__ double quad(std::int64_t q) const {
    return dot4(reinterpret_cast<const float4*>(A)[q], reinterpret_cast<const float4*>(B)[q]);
  }
  __device__ double operator()(std::int64_t i) const { return double(A[i]) * B[i]; }
};

struct StoreFloat {
  float* result;
  __device__ void operator()(double sum) const { result[0] = static_cast<float>(sum); }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  judge::ref::grid_sum<double>(kId, Products{A, B}, n, judge::ref::aligned16(A, B),
                               StoreFloat{a.output<float>("result")}, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  double acc = 0.0;
  for (std::int64_t i = 0; i < n; ++i) acc += double(A[i]) * double(B[i]);
  a.output("result")[0] = acc;
}

}  // namespace

JUDGE_REFERENCE(dot_product, gpu, cpu)
