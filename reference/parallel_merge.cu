// Reference for challenges/parallel_merge: C = the merge of the sorted arrays A (M) and B (N), sorted ascending.
// Nothing is computed, only moved, so the result is exact and needs no care for precision.
//
// Merge path: the first d outputs (diagonal d) are the first i elements of A and the first d - i of B, where i, the
// co-rank of d, is the number of trues of the predicate A[i] <= B[d-1-i] over i in [max(0, d - N), min(d, M)): it is
// true, then false, along that range. `<=` sends ties to A first, as a stable merge does; equal floats are
// indistinguishable in C, so the rule only has to be the same everywhere (global splits, per-thread splits, merge).
//
// One kernel; block b produces the tile C[b * kTile, (b + 1) * kTile):
//  1. warps 0 and 1 find the co-ranks of the tile's first and one-past-last diagonals in global memory by a 32-ary
//     search: at each step the 32 lanes probe 32 evenly spaced candidates at once, so 25 million candidates take 5
//     dependent loads instead of 25, and the first probes of every block hit the same lines in L2. Other resident
//     blocks stream data meanwhile, which hides the search's latency.
//  2. the tile's slices A[a0, a1) and B[b0, b1) (a1 - a0 + b1 - b0 = kTile) go to shared memory with coalesced loads,
//     kItems per thread in flight.
//  3. each thread finds its own co-rank inside the tile (binary search in shared memory) and merges kItems outputs
//     sequentially into registers.
//  4. the outputs go back through shared memory (kItems is odd, so thread t's words t * kItems + k spread over all
//     32 banks) and out to C with coalesced float4 stores (tiles start at multiples of 4 elements).
// Every input element is read once and every output written once: the 8 bytes per output of the spec's count.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "parallel_merge";
constexpr int kThreads = 256;
constexpr int kItems = 23;                   // odd: conflict-free staging of the outputs (step 4)
constexpr int kTile = kThreads * kItems;     // 5888 outputs, a multiple of 4
static_assert(kItems % 2 == 1 && kTile % 4 == 0, "see step 4");

// The co-rank of diagonal d (0 <= d <= M + N), computed by a whole warp; every lane returns it. Invariant: the answer
// lies in [lo, hi] and is lo plus the number of trues of the predicate over [lo, hi), which the loop shrinks by 32x.
__device__ std::int64_t warp_co_rank(const float* __restrict__ A, const float* __restrict__ B, std::int64_t M,
                                     std::int64_t N, std::int64_t d) {
  const int lane = threadIdx.x & 31;
  std::int64_t lo = d > N ? d - N : 0;
  std::int64_t hi = d < M ? d : M;
  // Candidates i in [lo, hi) satisfy 0 <= i < M and 0 <= d - 1 - i < N: every probe is inside A and B.
  auto a_first = [&](std::int64_t i) { return A[i] <= B[d - 1 - i]; };
  while (hi - lo > 32) {
    // 32 chunks of `step` candidates (the last ones shorter or empty); each lane probes the last of its chunk, a
    // missing one counting as false. The trues are a prefix of the lanes; chunk `trues` ends in false (or is cut off
    // by hi), so the answer lies inside it, at most at its last candidate.
    const std::int64_t step = (hi - lo + 31) / 32;
    const std::int64_t probe = lo + (lane + 1) * step - 1;
    const bool t = probe < hi && a_first(probe);
    const int trues = __popc(__ballot_sync(0xffffffffu, t));
    lo += trues * step;
    hi = min(hi, lo + step - 1);
  }
  const std::int64_t probe = lo + lane;
  const bool t = probe < hi && a_first(probe);
  return lo + __popc(__ballot_sync(0xffffffffu, t));
}

__global__ void __launch_bounds__(kThreads) merge_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                                         float* __restrict__ C, std::int64_t M, std::int64_t N,
                                                         bool c_aligned16) {
  __shared__ __align__(16) float s[kTile + 1];  // + 1: the merge may read (never use) the word after the tile
  __shared__ std::int64_t split[2];
  const std::int64_t total = M + N;
  const std::int64_t d0 = blockIdx.x * std::int64_t(kTile);
  const std::int64_t d1 = min(d0 + kTile, total);
  const int tid = threadIdx.x;

  // 1. The tile's splits of A and B.
  if (tid < 64) {
    const int w = tid >> 5;
    const std::int64_t i = warp_co_rank(A, B, M, N, w == 0 ? d0 : d1);
    if ((tid & 31) == 0) split[w] = i;
  }
  __syncthreads();
  const std::int64_t a0 = split[0], b0 = d0 - a0;
  const int na = static_cast<int>(split[1] - a0);
  const int count = static_cast<int>(d1 - d0);
  const int nb = count - na;

  // 2. s[0, na) = A[a0, a0 + na), s[na, count) = B[b0, b0 + nb); all loads issued before the first store.
  float v[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int idx = k * kThreads + tid;
    if (idx < count) v[k] = __ldcs(idx < na ? A + (a0 + idx) : B + (b0 + idx - na));
  }
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int idx = k * kThreads + tid;
    if (idx < count) s[idx] = v[k];
  }
  __syncthreads();

  // 3. This thread's outputs [diag, diag + kItems) of the tile: its co-rank, then a sequential merge that keeps the
  // current head of each side in a register and loads only the side it took. While diag + k < count, ai <= na and
  // bi <= nb, so every read is inside s[0, count] (s[count] only when B is used up, and then x decides).
  const int diag = min(tid * kItems, count);
  int lo = max(0, diag - nb), hi = min(diag, na);
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (s[mid] <= s[na + diag - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  int ai = lo, bi = diag - lo;
  float x = s[ai], y = s[na + bi];
  float out[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    if (diag + k < count) {
      const bool take_a = bi >= nb || (ai < na && x <= y);
      out[k] = take_a ? x : y;
      if (take_a) x = s[++ai];
      else y = s[na + ++bi];
    }
  }
  __syncthreads();  // everyone has finished reading the inputs in s

  // 4. Stage the outputs in s, then store them coalesced.
#pragma unroll
  for (int k = 0; k < kItems; ++k)
    if (diag + k < count) s[diag + k] = out[k];
  __syncthreads();
  int from = 0;
  if (c_aligned16) {
    const int quads = count / 4;
    float4* c4 = reinterpret_cast<float4*>(C + d0);
    const float4* s4 = reinterpret_cast<const float4*>(s);
    for (int q = tid; q < quads; q += kThreads) __stcs(c4 + q, s4[q]);
    from = quads * 4;
  }
  for (int idx = from + tid; idx < count; idx += kThreads) __stcs(C + d0 + idx, s[idx]);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t M = a.scalar<int>("M"), N = a.scalar<int>("N");
  if (M + N <= 0) return;
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  float* C = a.output<float>("C");
  const std::int64_t tiles = (M + N + kTile - 1) / kTile;
  merge_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, s>>>(A, B, C, M, N, judge::ref::aligned16(C));
  judge::ref::check_launch(kId, "merge_kernel");
}

// What LeetGPU's reference does: sort the concatenation (for sorted inputs, the merge).
void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M"), N = a.scalar<int>("N");
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  std::vector<float> v(A, A + M);
  v.insert(v.end(), B, B + N);
  std::sort(v.begin(), v.end());
  double* c = a.output("C");
  for (std::int64_t i = 0; i < M + N; ++i) c[i] = v[i];
}

}  // namespace

JUDGE_REFERENCE(parallel_merge, gpu, cpu)
