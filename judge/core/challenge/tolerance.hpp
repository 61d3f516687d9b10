#pragma once
// The comparison rule, shared by the GPU checker (judge/worker/check.cu) and host code and tests, so the rule CI
// tests is the rule the GPU applies.
//   - reference NaN      -> output must be NaN
//   - reference +/-Inf   -> output must be the same infinity
//   - reference finite   -> output must be finite and |out - ref| <= atol + rtol * |ref|   (exact: out == ref)
// So NaN/Inf never pass where the reference is finite, whatever the tolerance.
#include <cstdint>

#if defined(__CUDACC__)
#define JUDGE_HD __host__ __device__
#else
#define JUDGE_HD
#endif

namespace judge {

struct Tolerance {
  bool exact = false;
  double atol = 0.0;
  double rtol = 0.0;
  // rel_norm > 0: the output as a whole passes when ||out - ref||_2 <= rel_norm * ||ref||_2 (for half-precision
  // accumulation, where element-wise bounds are wrong). Elements are then only required to be finite where the
  // reference is (and NaN/Inf where it is); atol/rtol are unused.
  double rel_norm = 0.0;
  bool norm() const { return rel_norm > 0.0; }
};

JUDGE_HD inline bool is_nan_value(double x) { return x != x; }
JUDGE_HD inline bool is_inf_value(double x) { return !is_nan_value(x) && is_nan_value(x - x); }

JUDGE_HD inline bool element_matches(double got, double want, Tolerance tol) {
  if (is_nan_value(want)) return is_nan_value(got);
  if (is_inf_value(want)) return got == want;
  if (is_nan_value(got) || is_inf_value(got)) return false;
  if (tol.exact) return got == want;
  if (tol.rel_norm > 0.0) return true;  // judged on the whole output (norm_matches)
  double diff = got > want ? got - want : want - got;
  double mag = want < 0 ? -want : want;
  return diff <= tol.atol + tol.rtol * mag;
}

// The norm rule, from the sums of squares of (out - ref) and of ref over the finite elements.
JUDGE_HD inline bool norm_matches(double sum_sq_diff, double sum_sq_ref, Tolerance tol) {
  return sum_sq_diff <= tol.rel_norm * tol.rel_norm * sum_sq_ref;
}

// Outputs are filled with this bit pattern before every call. For float32 it is a signalling NaN that arithmetic
// never produces (any operation quiets it), so an element still holding it after solve() was never written.
constexpr std::uint32_t kPoison32 = 0x7fa0deadu;
constexpr std::uint16_t kPoison16 = 0x7d0du;  // float16/bfloat16: a signalling NaN in both layouts
constexpr std::uint8_t kPoison8 = 0xa5u;

}  // namespace judge
