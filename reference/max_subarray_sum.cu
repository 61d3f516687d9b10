// Reference for challenges/max_subarray_sum: output[0] = the largest of the window sums
//   S_i = input[i] + ... + input[i + W - 1],  0 <= i <= N - W,  W = window_size,
// windows of exactly W elements (not Kadane's subarray of any length), negative when every window sum is.
//
// The sums as a running total: S_0 = input[0] + ... + input[W - 1] and S_{i+1} = S_i + d_i, d_i = input[i + W] -
// input[i]. So max_i S_i = S_0 + max(0, the largest sum of a non-empty prefix of d_0 .. d_{N-W-1}); the 0 is window 0
// itself. The largest prefix sum is a reduction over pairs (sum, best prefix): a run followed by a run gives
// (s1 + s2, max(b1, s1 + b2)), associative but not commutative, so every combination below keeps the order.
//
// One kernel: block k takes positions [256k, 256k + 256) of both sequences (the d_j and the elements of window 0)
// and writes its run's (sum, best prefix) and its share of S_0; the last block to finish (an atomic ticket) combines
// the blocks' results in order and writes output. The inputs are read once (input[j] and input[j + W] by the same
// thread, coalesced). At LeetGPU's sizes (N <= 50,000: 200 KB) the call is bound by latency, not bandwidth, so one
// launch with every block resident at once is what makes it fast. Everything is 64-bit integer arithmetic: exact, and
// the same bits on every run.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "max_subarray_sum";
constexpr int kThreads = judge::ref::kBlock;
constexpr int kWarps = kThreads / 32;
// The best prefix of an empty run: below every real sum, and far enough from the int64 limit that adding a real sum
// to it cannot overflow.
constexpr long long kNone = -(1LL << 62);

// A run of consecutive positions: the sum of its differences, the largest sum of a non-empty prefix of them (kNone
// if it has none), and the sum of its elements that belong to window 0.
struct Run {
  long long sum;
  long long best;
  long long first;
};

__device__ __forceinline__ Run join(const Run& a, const Run& b) {  // a, then b
  return {a.sum + b.sum, max(a.best, a.sum + b.best), a.first + b.first};
}

__device__ __forceinline__ Run shfl_down(const Run& r, int offset) {
  return {__shfl_down_sync(0xffffffffu, r.sum, offset), __shfl_down_sync(0xffffffffu, r.best, offset),
          __shfl_down_sync(0xffffffffu, r.first, offset)};
}

// The runs of the block's threads joined in thread order; valid in thread 0. Every thread must call it.
__device__ Run block_join(Run v) {
  __shared__ Run warp_runs[kWarps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // Offsets 1, 2, 4, ...: afterwards lane l holds lanes [l, l + 2o) in order, so lane 0 ends with the whole warp.
  for (int o = 1; o < 32; o *= 2) {
    const Run next = shfl_down(v, o);
    if (lane + o < 32) v = join(v, next);
  }
  if (lane == 0) warp_runs[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int w = 1; w < kWarps; ++w) v = join(v, warp_runs[w]);
  __syncthreads();  // warp_runs may be written again by the next call
  return v;
}

__device__ unsigned g_ticket;  // blocks of the current launch that have finished

__global__ void __launch_bounds__(kThreads)
    max_window_kernel(const int* __restrict__ in, int* __restrict__ out, long long n, long long w, Run* runs) {
  const long long diffs = n - w;  // d_0 .. d_{n-w-1}
  const long long j = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x;
  Run v{0, kNone, 0};
  if (j < diffs || j < w) {  // both below n
    const long long x = in[j];
    if (j < w) v.first = x;
    if (j < diffs) {
      v.sum = static_cast<long long>(in[j + w]) - x;
      v.best = v.sum;
    }
  }
  v = block_join(v);

  __shared__ bool last;
  if (threadIdx.x == 0) {
    runs[blockIdx.x] = v;
    __threadfence();  // the run is visible to every block before the ticket says so
    // atomicInc wraps to 0 after the last ticket, which leaves the counter ready for the next launch.
    last = atomicInc(&g_ticket, gridDim.x - 1) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();

  // The last block: thread t joins the runs of blocks [t * per, (t + 1) * per) in order, then the block joins those.
  const long long blocks = gridDim.x;
  const long long per = (blocks + kThreads - 1) / kThreads;
  const long long from = threadIdx.x * per;
  const long long to = min(from + per, blocks);
  Run acc{0, kNone, 0};
  for (long long k = from; k < to; ++k) {
    const Run r{__ldcg(&runs[k].sum), __ldcg(&runs[k].best), __ldcg(&runs[k].first)};  // L2: written by other SMs
    acc = join(acc, r);
  }
  acc = block_join(acc);
  if (threadIdx.x == 0) out[0] = static_cast<int>(acc.first + max(0LL, acc.best));
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const long long n = a.scalar<int>("N");
  const long long w = a.scalar<int>("window_size");
  if (w < 1 || w > n) return;  // excluded by the spec's constraints
  // One thread per position of the longer sequence: the N - W differences or the W elements of window 0.
  const long long positions = n - w > w ? n - w : w;
  const long long blocks = (positions + kThreads - 1) / kThreads;
  static judge::ref::Scratch scratch(kId, "block runs");
  Run* runs = scratch.get<Run>(static_cast<std::size_t>(blocks));
  max_window_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(a.input<int>("input"), a.output<int>("output"),
                                                                      n, w, runs);
  judge::ref::check_launch(kId, "max_window_kernel");
}

// LeetGPU's sliding window, in 64-bit integers.
void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const std::int64_t w = a.scalar<int>("window_size");
  const int* x = a.input<int>("input");
  std::int64_t sum = 0;
  for (std::int64_t i = 0; i < w; ++i) sum += x[i];
  std::int64_t best = sum;
  for (std::int64_t i = w; i < n; ++i) {
    sum += static_cast<std::int64_t>(x[i]) - x[i - w];
    if (sum > best) best = sum;
  }
  a.output("output")[0] = static_cast<double>(best);
}

}  // namespace

JUDGE_REFERENCE(max_subarray_sum, gpu, cpu)
