#pragma once
// Counter-based random numbers: value i of a stream is a pure function of (key, i). Inputs are therefore generated
// in parallel on the GPU, regenerated later to prove an input was not modified, reproduced on the CPU by tests, and
// replayed from a printed seed. Host and device share this one definition.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "judge/core/base/sha256.hpp"
#include "judge/core/challenge/tolerance.hpp"  // JUDGE_HD

namespace judge {

JUDGE_HD inline std::uint64_t mix64(std::uint64_t z) {
  // splitmix64's finaliser: a bijection with full avalanche.
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

JUDGE_HD inline std::uint64_t counter_hash(std::uint64_t key, std::uint64_t counter) {
  return mix64(key ^ mix64(counter));
}

// Uniform in [0, 1) with 53 random bits.
JUDGE_HD inline double unit_double(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

// A standard normal value from two independent uniforms in [0, 1) (Box-Muller; 1 - a is in (0, 1], so the log is
// finite). The generators that draw normal values (points, RoPE tables, the transformer blocks' weights, top-p's
// logits) share it.
JUDGE_HD inline double box_muller(double a, double b) {
  return sqrt(-2.0 * log(1.0 - a)) * cos(6.283185307179586 * b);
}

// A stream key for (seed, label): cases and parameters are keyed by name, so adding a case does not change the
// inputs of the others. A keyed SHA-256, not a mix of the two: the submission sees the values of a stream, from which
// the stream's key can be worked back (mix64 is a bijection), and with an invertible derivation that key would give
// the seed, and with it the inputs of every call to come, to compute ahead of time. A hash is one-way.
inline std::uint64_t derive_key(std::uint64_t seed, std::string_view label) {
  char bytes[sizeof seed];
  std::memcpy(bytes, &seed, sizeof seed);
  Sha256 h;
  h.update(std::string_view(bytes, sizeof bytes));
  h.update(label);
  return std::stoull(h.hex_digest().substr(0, 16), nullptr, 16);
}

}  // namespace judge
