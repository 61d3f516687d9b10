#pragma once
// Element types on the device: one place that maps a DType to its C++ type (visit_dtype) and converts any element
// to and from double, bit-exactly compares two elements and knows each size's poison pattern. Generation, the
// output check and the tests all go through it, so a new dtype is added here once.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "judge/core/base/error.hpp"
#include "judge/core/challenge/dtype.hpp"
#include "judge/core/challenge/tolerance.hpp"

namespace judge {

template <class T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<T>{}) with T the C++ type of t; returns what f returns.
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::float32: return f(TypeTag<float>{});
    case DType::float16: return f(TypeTag<__half>{});
    case DType::bfloat16: return f(TypeTag<__nv_bfloat16>{});
    case DType::int8: return f(TypeTag<std::int8_t>{});
    case DType::uint8: return f(TypeTag<std::uint8_t>{});
    case DType::int32: return f(TypeTag<int>{});
    case DType::uint32: return f(TypeTag<unsigned>{});
    case DType::int64: return f(TypeTag<long long>{});
    case DType::float64: return f(TypeTag<double>{});
  }
  JUDGE_THROW(Error, "unknown dtype {}", static_cast<int>(t));
}

template <class T>
constexpr bool is_half_type = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

template <class T>
JUDGE_HD inline double to_double(T v) {
  if constexpr (std::is_same_v<T, __half>) return static_cast<double>(__half2float(v));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return static_cast<double>(__bfloat162float(v));
  else return static_cast<double>(v);
}

// double -> T. Floating types round to nearest (half types through float); integers round toward zero and saturate
// at the type's range, NaN becoming 0 (never the undefined behaviour of an out-of-range conversion).
template <class T>
JUDGE_HD inline T from_double(double v) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(static_cast<float>(v));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn(static_cast<float>(v));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    // (numeric_limits is host-only in device code, so the range is computed here)
    constexpr T kMax = std::is_signed_v<T> ? static_cast<T>((1ull << (8 * sizeof(T) - 1)) - 1) : static_cast<T>(~T(0));
    constexpr T kMin = std::is_signed_v<T> ? static_cast<T>(-kMax - 1) : T(0);
    if (!(v == v)) return T(0);
    if (v <= static_cast<double>(kMin)) return kMin;
    if (v >= static_cast<double>(kMax)) return kMax;
    return static_cast<T>(v);
  }
}

template <class T>
JUDGE_HD inline std::uint64_t bits_of(T v) {
  static_assert(sizeof(T) <= 8, "elements of at most 8 bytes");
  std::uint64_t b = 0;
  memcpy(&b, &v, sizeof(T));
  return b;
}

template <class T>
JUDGE_HD inline bool same_bits(T a, T b) {
  return bits_of(a) == bits_of(b);
}

// The poison pattern of an element of T's size (tolerance.hpp), as T's bits.
template <class T>
JUDGE_HD inline std::uint64_t poison_bits() {
  if constexpr (sizeof(T) == 1) return kPoison8;
  else if constexpr (sizeof(T) == 2) return kPoison16;
  else if constexpr (sizeof(T) == 4) return kPoison32;
  else return (static_cast<std::uint64_t>(kPoison32) << 32) | kPoison32;
}

template <class T>
JUDGE_HD inline bool is_poison(T v) {
  return bits_of(v) == poison_bits<T>();
}

// A NaN that came out of arithmetic on the poison: float32's poison is a signalling NaN, and any operation on it
// returns it quieted (bit 22 set) with its payload, possibly with the sign flipped. Seeing one means solve() read
// an output element before writing it (e.g. atomicAdd or += into an output it never cleared).
template <class T>
JUDGE_HD inline bool is_poison_derived(T v) {
  if constexpr (std::is_same_v<T, float>) {
    std::uint64_t b = bits_of(v) & 0x7fffffffu;
    return b == (kPoison32 | 0x00400000u);
  } else {
    return false;
  }
}

}  // namespace judge
