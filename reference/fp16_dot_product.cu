// Reference for challenges/fp16_dot_product: result[0] = half(sum of A[i] * B[i]) over half vectors. The product of
// two halves is exact in float (11 + 11 significant bits fit in 24), the products are summed in double and the sum
// is rounded once to half (cvt.rn.f16.f64), so the reference is the exact dot product correctly rounded, whatever
// the order. judge::ref::grid_sum does the sum (deterministic: two passes, no atomics) over pairs of elements, so
// that its 16-byte vectors are 8 halves; the odd last element, if any, is added by the finishing thread.
#include <cstdint>

#include <cuda_fp16.h>

#include "judge/worker/reference.hpp"
#include "reference/grid_sum.cuh"

namespace {

constexpr const char* kId = "fp16_dot_product";

__device__ double product(const __half* A, const __half* B, std::int64_t i) {
  return static_cast<double>(__half2float(A[i]) * __half2float(B[i]));  // exact in float
}

// The 8 products of one 16-byte vector of each input.
__device__ double dot8(uint4 a, uint4 b) {
  const __half2* ha = reinterpret_cast<const __half2*>(&a);
  const __half2* hb = reinterpret_cast<const __half2*>(&b);
  double sum = 0.0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const float2 fa = __half22float2(ha[k]), fb = __half22float2(hb[k]);
    sum += static_cast<double>(fa.x * fb.x) + static_cast<double>(fa.y * fb.y);
  }
  return sum;
}

// Term i of the grid sum is pair i, elements 2i and 2i + 1; four pairs make one 16-byte vector.
struct PairProducts {
  const __half* A;
  const __half* B;
  __device__ double quad(std::int64_t q) const {
    return dot8(reinterpret_cast<const uint4*>(A)[q], reinterpret_cast<const uint4*>(B)[q]);
  }
  __device__ double operator()(std::int64_t i) const { return product(A, B, 2 * i) + product(A, B, 2 * i + 1); }
};

struct AddOddTailStoreHalf {
  const __half* A;
  const __half* B;
  std::int64_t n;
  __half* result;
  __device__ void operator()(double sum) const {
    if (n % 2 != 0) sum += product(A, B, n - 1);
    result[0] = __double2half(sum);
  }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  const __half* A = a.input<__half>("A");
  const __half* B = a.input<__half>("B");
  judge::ref::grid_sum<double>(kId, PairProducts{A, B}, n / 2, judge::ref::aligned16(A, B),
                               AddOddTailStoreHalf{A, B, n, a.output<__half>("result")}, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const __half* A = a.input<__half>("A");
  const __half* B = a.input<__half>("B");
  double acc = 0.0;
  for (std::int64_t i = 0; i < n; ++i) acc += double(__half2float(A[i])) * double(__half2float(B[i]));
  a.output("result")[0] = acc;
}

}  // namespace

JUDGE_REFERENCE(fp16_dot_product, gpu, cpu)
