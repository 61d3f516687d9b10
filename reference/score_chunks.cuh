#pragma once
// How the attention references cut their work so that one chunk's scores fit a scratch buffer of `budget` floats:
// into equal chunks of query rows or of heads, as few as the budget allows (larger products run closer to cuBLAS's
// peak). Two rules, each kept by the references that use it: equal_chunk (softmax_attention, attn_w_linear_bias,
// casual_attention, softmax_attention_backward, multi_head_cross_attention, grouped_query_attention's rows) and
// whole_item_chunk (multi_head_attention, gpt2_block, grouped_query_attention's heads).
#include <cstdint>

namespace judge::ref {

// Items per chunk for `count` items of `per_item` floats each: as many chunks as the total needs budgets, rounded up,
// and the items spread evenly over them (a chunk can then exceed the budget by less than one item).
inline std::int64_t equal_chunk(std::int64_t count, std::int64_t per_item, std::int64_t budget) {
  const std::int64_t chunks = (count * per_item + budget - 1) / budget;
  return (count + chunks - 1) / chunks;
}

// Items per chunk when a chunk holds at most budget / per_item whole items (at least one): that many chunks, rounded
// up, and the items spread evenly over them.
inline std::int64_t whole_item_chunk(std::int64_t count, std::int64_t per_item, std::int64_t budget) {
  const std::int64_t fit = budget / per_item < 1 ? 1 : budget / per_item;
  const std::int64_t chunks = (count + fit - 1) / fit;
  return (count + chunks - 1) / chunks;
}

}  // namespace judge::ref
