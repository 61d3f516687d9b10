#include "judge/core/dtype.hpp"

#include <array>

namespace judge {

namespace {

struct DTypeInfo {
  DType type;
  std::string_view name;
  std::string_view c_type;
  std::size_t size;
  bool floating;
};

// One row per enumerator, so a new dtype is added in one place.
constexpr std::array<DTypeInfo, 7> kDTypes{{
    {DType::float32, "float32", "float", 4, true},
    {DType::float16, "float16", "__half", 2, true},
    {DType::bfloat16, "bfloat16", "__nv_bfloat16", 2, true},
    {DType::int32, "int32", "int", 4, false},
    {DType::int8, "int8", "int8_t", 1, false},
    {DType::uint8, "uint8", "uint8_t", 1, false},
    {DType::float64, "float64", "double", 8, true},
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

}  // namespace judge
