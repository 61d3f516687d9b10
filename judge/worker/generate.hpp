#pragma once
// Input generation on the GPU, and the patterns around and inside buffers (guards, poison).
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include <cuda_runtime.h>

#include "judge/core/challenge/dtype.hpp"
#include "judge/core/challenge/expr.hpp"
#include "judge/core/challenge/spec.hpp"
#include "judge/worker/device_buffer.hpp"

namespace judge {

// The random key of a case's input: its own per (seed, case, parameter), or one shared by the parameters whose
// distributions name the same draw (coupled buffers), per (seed, case, draw). Call i > 0 of a case (warm-up and
// timed calls, `judge run --call`) gets keys of its own, derived from the seed alone.
std::uint64_t input_key(std::uint64_t seed, const std::string& case_name, const std::string& param,
                        const Distribution& dist, int call = 0);

// Fills data[0, count) of type dtype from the distribution, keyed by `key` (see rng.hpp). Built-in distributions
// are pure functions of (key, index); custom ones call a registered generator. Asynchronous on `stream`: order
// later work after it on that stream, or synchronise it (a plain cudaMemcpy is not ordered after a non-blocking
// stream).
void generate(void* data, DType dtype, std::int64_t count, const Distribution& dist, std::uint64_t key,
              const Env& scalars, cudaStream_t stream);

// Number of elements of data that differ (bitwise) from what generate() would write. Built-in distributions are
// regenerated on the fly and compared: no copy of the input is kept.
std::int64_t count_changed(const void* data, DType dtype, std::int64_t count, const Distribution& dist,
                           std::uint64_t key, const Env& scalars, cudaStream_t stream);

// Generators of structured inputs (sorted arrays, permutations, sparse matrices, ...), selected in a spec with
// {"dist": "custom", "name": G, "low": .., "high": .., "args": {..}}. Shared ones live in judge/worker/generators/,
// one that only a challenge needs in reference/<id>.cu; each registers itself with JUDGE_GENERATOR(name, fn). A
// generator must be a pure function of (key, scalars, args): count_changed() regenerates to compare.
struct GeneratorCall {
  void* data;
  DType dtype;
  std::int64_t count;
  const Distribution& dist;                 // resolved: low and high are numbers
  std::map<std::string, double> args;       // resolved for the case
  std::uint64_t key;
  const Env& scalars;
  cudaStream_t stream;
  // The argument `name`; throws an Error naming the generator and the missing argument.
  double arg(const std::string& name) const;
};
using CustomGenerator = std::function<void(const GeneratorCall&)>;
void register_generator(const std::string& name, CustomGenerator fn);
bool has_generator(const std::string& name);

struct GeneratorRegistrar {
  GeneratorRegistrar(const char* name, CustomGenerator fn) { register_generator(name, std::move(fn)); }
};
#define JUDGE_GENERATOR(name, fn) static const ::judge::GeneratorRegistrar judge_generator_##name(#name, fn);

// Guards: fills the two guard regions of b with a pattern keyed by `key`; check_guards returns how many bytes of
// each region differ and the offset (relative to the data start, negative before it) of the first changed byte.
struct GuardReport {
  std::int64_t front_changed = 0;
  std::int64_t back_changed = 0;
  std::int64_t first_front_offset = 0;  // e.g. -4: the 4 bytes before data[0]
  std::int64_t first_back_offset = 0;   // e.g. +0: the first byte past the end
  bool intact() const { return front_changed == 0 && back_changed == 0; }
};
void fill_guards(const GuardedBuffer& b, std::uint64_t key, cudaStream_t stream);
GuardReport check_guards(const GuardedBuffer& b, std::uint64_t key, cudaStream_t stream);

// Poison: every element set to the dtype's poison pattern (tolerance.hpp).
void poison(void* data, DType dtype, std::int64_t count, cudaStream_t stream);

}  // namespace judge
