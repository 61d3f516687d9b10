// Reference for challenges/stream_compaction: out[0..k) = the k elements of A with A[i] > 0, in their order in A;
// out[k..N) = 0.0. Nothing is computed, only copied, so the expected output is exact and deterministic.
//
// Two kernels, 8 bytes moved per element: CUB's DeviceSelect::If (single pass, decoupled look-back: reads A once,
// writes the k kept values, keeps their order, and leaves k in device memory), then zero_tail, which reads k on the
// device and writes zeros over out[k..N) with 16-byte stores. No host round trip for k. (The judge hands
// submissions `out` zeroed, as LeetGPU does, but the reference's own buffer arrives poisoned, so it writes the tail.)
//
// Also the "compaction" checker: the element-wise exact comparison, plus a diagnosis that tells apart the right
// values in the wrong order (slots taken with an atomic counter) and non-zero values past the kept ones.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <cub/device/device_select.cuh>
#include <fmt/format.h>

#include "judge/worker/check.hpp"
#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "stream_compaction";
constexpr int kBlock = judge::ref::kBlock;

struct Positive {
  __device__ bool operator()(float x) const { return x > 0.0f; }
};

// out[k..n) = 0 with k = *num_selected. vec: out is 16-byte aligned, so from the first multiple of 4 at or after k
// the zeros go out as float4; the (at most 3) elements before it and the n % 4 after the last float4 one by one.
__global__ void zero_tail(float* out, const int* num_selected, std::int64_t n, bool vec) {
  const std::int64_t k = *num_selected;
  const std::int64_t first = blockIdx.x * std::int64_t(kBlock) + threadIdx.x;
  const std::int64_t stride = std::int64_t(gridDim.x) * kBlock;
  if (!vec) {
    for (std::int64_t i = k + first; i < n; i += stride) out[i] = 0.0f;
    return;
  }
  const std::int64_t a = min(n, (k + 3) / 4 * 4);
  const std::int64_t n4 = (n - a) / 4;
  for (std::int64_t i = k + first; i < a; i += stride) out[i] = 0.0f;
  float4* out4 = reinterpret_cast<float4*>(out + a);
  for (std::int64_t i = first; i < n4; i += stride) out4[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (std::int64_t i = a + 4 * n4 + first; i < n; i += stride) out[i] = 0.0f;
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int n = a.scalar<int>("N");
  if (n <= 0) return;
  const float* in = a.input<float>("A");
  float* out = a.output<float>("out");
  static judge::ref::Scratch temp(kId, "temp storage");
  static judge::ref::Scratch count(kId, "selected count");
  int* num_selected = count.get<int>(1);
  temp.run_cub("cub::DeviceSelect::If", [&](void* storage, std::size_t& bytes) {
    return cub::DeviceSelect::If(storage, bytes, in, out, num_selected, n, Positive{}, s);
  });
  static const unsigned resident = judge::ref::resident_blocks(zero_tail, kBlock, kId);
  zero_tail<<<judge::ref::grid_for((std::int64_t(n) + 3) / 4, kBlock, resident), kBlock, 0, s>>>(
      out, num_selected, n, judge::ref::aligned16(out));
  judge::ref::check_launch(kId, "zero_tail");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* x = a.input<float>("A");
  double* y = a.output("out");
  std::int64_t k = 0;
  for (std::int64_t i = 0; i < n; ++i)
    if (x[i] > 0.0f) y[k++] = x[i];
  for (std::int64_t i = k; i < n; ++i) y[i] = 0.0;
}

// Beyond this many elements the diagnosis (two host copies and two sorts) is skipped: the plain message stands.
constexpr std::int64_t kHostLimit = std::int64_t{1} << 26;

// The expected output is the kept values (all > 0) followed by zeros, so k is the index of its first zero. On a
// mismatch: are out[0..k) the right values in another order, and is out[k..N) all zero?
judge::OutputCheck compaction(const judge::CheckRequest& q) {
  judge::OutputCheck r = judge::compare_output(q);
  if (r.mismatches == 0 || r.unwritten > 0 || r.non_finite > 0 || q.count > kHostLimit) return r;
  const std::vector<double> got = judge::download_as_double(q.got, q.dtype, q.count, q.stream);
  const std::vector<double> want = judge::download_as_double(q.expected, q.dtype, q.count, q.stream);
  const std::int64_t n = q.count;
  std::int64_t k = 0;
  while (k < n && want[k] != 0.0) ++k;
  std::int64_t tail_wrong = 0, tail_first = -1;
  for (std::int64_t i = k; i < n; ++i)
    if (got[i] != 0.0) {
      if (tail_first < 0) tail_first = i;
      ++tail_wrong;
    }
  std::int64_t head_first = -1;
  for (std::int64_t i = 0; i < k && head_first < 0; ++i)
    if (got[i] != want[i]) head_first = i;
  std::vector<double> got_head(got.begin(), got.begin() + k), want_head(want.begin(), want.begin() + k);
  std::sort(got_head.begin(), got_head.end());
  std::sort(want_head.begin(), want_head.end());
  const bool same_values = got_head == want_head;
  const std::string& o = q.name;
  if (tail_wrong == 0 && same_values) {
    r.message = fmt::format(
        "{}[0..{}) holds the {} positive elements of A, but not in their order in A: {} of the {} positions differ, "
        "the first {}[{}] = {:.9g} where {:.9g} belongs. Slots handed out by an atomic counter come in no fixed "
        "order; a prefix sum of the keep flags gives each kept element its place",
        o, k, k, r.mismatches, k, o, head_first, got[head_first], want[head_first]);
    return r;
  }
  if (tail_wrong > 0) {
    r.message = fmt::format(
        "A has {} positive elements, so {}[{}..{}) must be 0.0, but {} of those positions are not: {}[{}] = {:.9g}",
        k, o, k, n, tail_wrong, o, tail_first, got[tail_first]);
    if (head_first >= 0)
      r.message += fmt::format("; and {}[{}] = {:.9g} where {:.9g} belongs", o, head_first, got[head_first],
                               want[head_first]);
    else
      r.message += fmt::format(" (the kept elements in {}[0..{}) are right)", o, k);
  }
  return r;  // otherwise the element-wise message: wrong or missing kept values, zeros all in place
}

}  // namespace

JUDGE_REFERENCE(stream_compaction, gpu, cpu)
JUDGE_CHECKER(compaction, compaction)
