#pragma once
// Element types a challenge parameter may have. float32 and int32 are generated and checked today; the others are
// parsed and sized so that specs can name them and the worker can refuse them clearly until they are supported.
// float64 is the CPU references' output type (tests), not a solve() parameter type.
#include <cstddef>
#include <optional>
#include <string_view>

namespace judge {

enum class DType { float32, float16, bfloat16, int32, int8, uint8, float64 };

std::string_view to_string(DType t);
std::optional<DType> parse_dtype(std::string_view name);
std::size_t size_of(DType t);
// The C/CUDA spelling used in solve()'s signature ("float", "__half", "__nv_bfloat16", "int", ...).
std::string_view c_type(DType t);
bool is_floating(DType t);

}  // namespace judge
