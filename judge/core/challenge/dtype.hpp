#pragma once
// Element types a challenge parameter may have. Buffers may be of any type below except float64; scalars are
// int32, int64 or float32. float64 is the CPU references' output type (tests), not a solve() parameter type.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace judge {

enum class DType { float32, float16, bfloat16, int8, uint8, int32, uint32, int64, float64 };

std::string_view to_string(DType t);
std::optional<DType> parse_dtype(std::string_view name);
std::size_t size_of(DType t);
// The C/CUDA spelling used in solve()'s signature ("float", "half", "__nv_bfloat16", "int", ...): LeetGPU's.
std::string_view c_type(DType t);
bool is_floating(DType t);
bool is_integer(DType t);
// Every dtype name a spec may use for a buffer, for messages ("float32, float16, ...").
std::string_view buffer_dtype_names();
// Whether a scalar parameter may have this type.
bool is_scalar_dtype(DType t);
// The range of an integer dtype (for validating values and ranges in a spec); doubles hold them all exactly
// except the int64 extremes, which are clamped to +-2^63 (specs never need values near them).
double min_value(DType t);
double max_value(DType t);

}  // namespace judge
