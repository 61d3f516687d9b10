#include "judge/core/challenge/dtype.hpp"

#include <array>
#include <limits>

namespace judge {

namespace {

struct DTypeInfo {
  DType type;
  std::string_view name;
  std::string_view c_type;
  std::size_t size;
  bool floating;
  bool scalar;  // allowed as a scalar parameter
  double min, max;
};

constexpr double kInf = std::numeric_limits<double>::infinity();

// One row per enumerator, so a new dtype is added in one place. C spellings follow LeetGPU's starters.
constexpr std::array<DTypeInfo, 9> kDTypes{{
    {DType::float32, "float32", "float", 4, true, true, -kInf, kInf},
    {DType::float16, "float16", "half", 2, true, false, -kInf, kInf},
    {DType::bfloat16, "bfloat16", "__nv_bfloat16", 2, true, false, -kInf, kInf},
    {DType::int8, "int8", "int8_t", 1, false, false, -128.0, 127.0},
    {DType::uint8, "uint8", "unsigned char", 1, false, false, 0.0, 255.0},
    {DType::int32, "int32", "int", 4, false, true, -2147483648.0, 2147483647.0},
    {DType::uint32, "uint32", "unsigned int", 4, false, false, 0.0, 4294967295.0},
    {DType::int64, "int64", "long long", 8, false, true, -9223372036854775808.0, 9223372036854775807.0},
    {DType::float64, "float64", "double", 8, true, false, -kInf, kInf},
}};

const DTypeInfo& info(DType t) {
  for (const auto& row : kDTypes)
    if (row.type == t) return row;
  return kDTypes[0];  // unreachable for valid enumerators
}

}  // namespace

std::string_view to_string(DType t) { return info(t).name; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (const auto& row : kDTypes)
    if (row.name == name) return row.type;
  return std::nullopt;
}

std::size_t size_of(DType t) { return info(t).size; }

std::string_view c_type(DType t) { return info(t).c_type; }

bool is_floating(DType t) { return info(t).floating; }

bool is_integer(DType t) { return !info(t).floating; }

std::string_view buffer_dtype_names() { return "float32, float16, bfloat16, int8, uint8, int32, uint32, int64"; }

bool is_scalar_dtype(DType t) { return info(t).scalar; }

double min_value(DType t) { return info(t).min; }

double max_value(DType t) { return info(t).max; }

}  // namespace judge
