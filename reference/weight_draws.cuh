#pragma once
// The draws of the transformer-block references' weight generators (gpt2_block's gpt2_weights and
// llama_transformer_block's llama_weights): element e of the weight buffer takes its value from draws 2e and 2e + 1 of
// the generator's stream `key`, so each weight is a pure function of its index. Each reference's WeightValue derives
// from WeightDraws and says which draw which weight takes; check_weights_buffer is the check both generators make of
// the buffer they fill.
#include <cstdint>

#include "judge/core/base/error.hpp"
#include "judge/worker/generate.hpp"
#include "judge/worker/generators/fill.cuh"
#include "judge/worker/rng.hpp"

namespace judge::ref {

struct WeightDraws {
  double std = 0.02;  // of the normal draws
  std::uint64_t key = 0;

  // Uniform in [lo, hi), from draw 2e.
  JUDGE_HD double uniform(std::int64_t e, double lo, double hi) const {
    return lo + (hi - lo) * judge::gen::unit(key, static_cast<std::uint64_t>(2 * e));
  }
  // Normal with mean 0 and standard deviation std, from draws 2e and 2e + 1.
  JUDGE_HD double normal(std::int64_t e) const {
    return std * judge::box_muller(judge::gen::unit(key, static_cast<std::uint64_t>(2 * e)),
                                   judge::gen::unit(key, static_cast<std::uint64_t>(2 * e + 1)));
  }
};

// Generator `name` fills float32 buffers of exactly `total` weights; anything else is the challenge's error.
inline void check_weights_buffer(const judge::GeneratorCall& c, const char* name, std::int64_t total) {
  if (c.dtype != judge::DType::float32)
    JUDGE_THROW(judge::Error, "generator '{}' makes float32 values; the buffer is {}", name,
                judge::to_string(c.dtype));
  if (c.count != total)
    JUDGE_THROW(judge::Error, "generator '{}': the buffer holds {} elements, expected {}", name, c.count, total);
}

}  // namespace judge::ref
