#pragma once
// The 16-byte vector type of a 4-byte element type, for kernels that move four elements per access.
#include <cuda_runtime.h>

namespace judge {

template <class T>
struct Vec4;
template <>
struct Vec4<float> {
  using type = float4;
};
template <>
struct Vec4<int> {
  using type = int4;
};

}  // namespace judge
