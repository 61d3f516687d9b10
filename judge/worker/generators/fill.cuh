#pragma once
// What the built-in generators share: a keyed bijection of [0, n) (so "exactly k of n" and "a permutation" are
// pure functions of the element index), and a launcher that writes value(i) into a buffer of any dtype.
#include <cstdint>

#include "judge/worker/cuda_check.hpp"
#include "judge/worker/element.cuh"
#include "judge/worker/generate.hpp"
#include "judge/worker/rng.hpp"

namespace judge::gen {

// A random permutation of [0, n): a 4-round Feistel network on the smallest even number of bits that covers n,
// walked until the value falls inside [0, n) (at most 4 steps expected: the domain is under 4n).
struct Permutation {
  std::uint64_t n = 1;
  int half_bits = 1;
  std::uint64_t mask = 1;
  std::uint64_t keys[4] = {};

  Permutation() = default;
  Permutation(std::uint64_t count, std::uint64_t key) : n(count < 1 ? 1 : count) {
    int bits = 2;
    while (bits < 64 && (std::uint64_t{1} << bits) < n) ++bits;
    half_bits = (bits + 1) / 2;
    mask = (std::uint64_t{1} << half_bits) - 1;
    for (int r = 0; r < 4; ++r) keys[r] = counter_hash(key, 0x7065726dull + r);
  }

  JUDGE_HD std::uint64_t round_trip(std::uint64_t x) const {
    std::uint64_t left = x >> half_bits, right = x & mask;
    for (int r = 0; r < 4; ++r) {
      std::uint64_t next = left ^ (mix64(right ^ keys[r]) & mask);
      left = right;
      right = next;
    }
    return (left << half_bits) | right;
  }

  JUDGE_HD std::uint64_t operator()(std::uint64_t i) const {
    std::uint64_t x = round_trip(i);
    while (x >= n) x = round_trip(x);
    return x;
  }
};

// Uniform in [0, 1) for element i of stream `key` (a different stream from the built-in distributions').
JUDGE_HD inline double unit(std::uint64_t key, std::uint64_t i) { return unit_double(counter_hash(key ^ 0x67656e21ull, i)); }

template <class T, class F>
__global__ void fill_kernel(T* out, std::int64_t count, F value) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = from_double<T>(value(i));
}

// Writes value(i) (a functor: double operator()(std::int64_t) const, host and device) to every element.
template <class F>
void fill(const GeneratorCall& c, const F& value) {
  constexpr int kThreads = 256;
  std::int64_t blocks = (c.count + kThreads - 1) / kThreads;
  if (blocks > 65535 * 8) blocks = 65535 * 8;
  if (blocks < 1) blocks = 1;
  visit_dtype(c.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_kernel<T, F><<<static_cast<unsigned>(blocks), kThreads, 0, c.stream>>>(static_cast<T*>(c.data), c.count,
                                                                                 value);
  });
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

// Integer dtypes draw whole numbers in [low, high] inclusive; floating ones reals in [low, high).
inline bool integral(const GeneratorCall& c) { return is_integer(c.dtype); }

}  // namespace judge::gen
