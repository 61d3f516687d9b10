// Reference for challenges/top_p_sampling: the token drawn from the nucleus (the smallest prefix of the tokens sorted
// by logit, largest first, equal logits by smaller index, whose probability reaches p), with the draw u fixed by the
// seed (top_p::draw, reference/top_p_sampling.cuh). Exact semantics and case construction: that header.
//
// GPU: one CUB radix sort of (logit, index) pairs, descending (stable: equal logits keep index order; -0 is first
// turned into +0, which it equals), the exponentials exp(l - max) in double, their inclusive sum in double (CUB), and
// one thread that binary-searches the nucleus size (first C_i >= p * Z) and then the drawn position (first C_j > u *
// C_m). Double sums are exact to about 1e-13 here, far inside the 1e-5 margins every case is built with.
//
// Also three generators sharing one draw ("draw": "case" in the spec): top_p_logits, top_p_threshold and top_p_seed
// write the logits, p and seed of one robust case (top_p::make_case), computed once on the host per (key, size,
// arguments) and cached, since the three buffers and their regenerations for the unchanged-input check all ask.
#include <cstdint>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "judge/core/base/error.hpp"
#include "judge/worker/generate.hpp"
#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"
#include "reference/scratch.cuh"
#include "reference/top_p_sampling.cuh"

namespace {

constexpr const char* kId = "top_p_sampling";
constexpr int kBlock = judge::ref::kBlock;

__global__ void keys_kernel(const float* logits, float* keys, int* idx, int n) {
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock) {
    keys[i] = logits[i] + 0.0f;  // -0 + 0 = +0: equal logits must sort as equals
    idx[i] = i;
  }
}

__global__ void exp_kernel(const float* sorted, double* e, int n) {
  const double top = sorted[0];
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock)
    e[i] = exp(static_cast<double>(sorted[i]) - top);
}

// First i in [0, n) with cum[i] >= x (strict: cum[i] > x), n if none.
__device__ int first_at_least(const double* cum, int n, double x, bool strict) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (strict ? cum[mid] > x : cum[mid] >= x)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

__global__ void pick_kernel(const double* cum, const int* sorted_idx, const float* p, const int* seed, int* out,
                            int n) {
  const double z = cum[n - 1];
  const int m = min(first_at_least(cum, n, static_cast<double>(*p) * z, false) + 1, n);  // nucleus size
  const double t = top_p::draw(*seed) * cum[m - 1];
  const int j = min(first_at_least(cum, m, t, true), m - 1);  // 0-based drawn position
  *out = sorted_idx[j];
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int n = a.scalar<int>("vocab_size");
  if (n <= 0) return;
  static judge::ref::Scratch keys_buf(kId, "sort keys"), sorted_buf(kId, "sorted keys"), idx_buf(kId, "indices"),
      sorted_idx_buf(kId, "sorted indices"), exp_buf(kId, "exponentials"), cum_buf(kId, "cumulative sums"),
      temp(kId, "CUB temporary storage");
  float* keys = keys_buf.get<float>(n);
  float* sorted = sorted_buf.get<float>(n);
  int* idx = idx_buf.get<int>(n);
  int* sorted_idx = sorted_idx_buf.get<int>(n);
  double* e = exp_buf.get<double>(n);
  double* cum = cum_buf.get<double>(n);
  const unsigned grid = judge::ref::grid_for(n);
  keys_kernel<<<grid, kBlock, 0, s>>>(a.input<float>("logits"), keys, idx, n);
  judge::ref::check_launch(kId, "keys_kernel");
  temp.run_cub("cub::DeviceRadixSort::SortPairsDescending", [&](void* storage, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairsDescending(storage, bytes, keys, sorted, idx, sorted_idx, n, 0, 32, s);
  });
  exp_kernel<<<grid, kBlock, 0, s>>>(sorted, e, n);
  judge::ref::check_launch(kId, "exp_kernel");
  temp.run_cub("cub::DeviceScan::InclusiveSum", [&](void* storage, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(storage, bytes, e, cum, n, s);
  });
  pick_kernel<<<1, 1, 0, s>>>(cum, sorted_idx, a.input<float>("p"), a.input<int>("seed"),
                              a.output<int>("sampled_token"), n);
  judge::ref::check_launch(kId, "pick_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("vocab_size");
  const float* logits = a.input<float>("logits");
  const float p = a.input<float>("p")[0];
  const std::int32_t seed = a.input<std::int32_t>("seed")[0];
  const top_p::Sorted sorted = top_p::sort_logits(logits, n);
  const top_p::Answer r = top_p::answer(logits, n, sorted, p, seed);
  // A case whose answer float32 rounding could flip is a broken spec (a hand-written p or seed), not a wrong answer.
  if (!top_p::robust(r, p))
    JUDGE_THROW(judge::Error,
                "reference '{}': the case is not robust (p margin {:.3g}, draw margin {:.3g}, token's logit apart "
                "from its neighbours: {}; each margin must be >= {}): choose another p or seed",
                kId, r.p_margin, r.u_margin, r.separated, top_p::kDelta);
  a.output("sampled_token")[0] = static_cast<double>(r.token);
}

// ---- generators ----------------------------------------------------------------------------------------------

top_p::CaseArgs case_args(const judge::GeneratorCall& c) {
  top_p::CaseArgs a;
  a.mode = static_cast<int>(c.arg("mode"));
  a.scale = c.arg("scale");
  a.p = c.arg("p");
  a.seed = static_cast<std::int32_t>(c.arg("seed"));
  a.last = c.args.count("last") && c.args.at("last") != 0;
  return a;
}

// Shared, not a reference into the cache: another thread's call may replace the cached case meanwhile.
std::shared_ptr<const top_p::Case> cached_case(const judge::GeneratorCall& c) {
  static std::mutex mutex;
  static std::tuple<std::uint64_t, std::int64_t, int, double, double, std::int32_t, bool> last_key;
  static std::shared_ptr<const top_p::Case> last;
  const auto it = c.scalars.find("vocab_size");
  if (it == c.scalars.end()) JUDGE_THROW(judge::Error, "top_p generators: the case has no scalar vocab_size");
  const std::int64_t n = static_cast<std::int64_t>(it->second);
  const top_p::CaseArgs a = case_args(c);
  const auto key = std::make_tuple(c.key, n, a.mode, a.scale, a.p, a.seed, a.last);
  std::lock_guard<std::mutex> lock(mutex);
  if (!last || key != last_key) {
    if (n < 1 || n > (std::int64_t{1} << 28)) JUDGE_THROW(judge::Error, "top_p generators: vocab_size = {}", n);
    auto made = std::make_shared<top_p::Case>(top_p::make_case(c.key, n, a));
    if (!made->ok)
      JUDGE_THROW(judge::Error,
                  "top_p generators: no robust case found for vocab_size = {}, mode {}, scale {}, p {} (margins "
                  "{} cannot be kept): change the case's arguments",
                  n, a.mode, a.scale, a.p, top_p::kDelta);
    last = std::move(made);
    last_key = key;
  }
  return last;
}

template <class T>
void upload(const judge::GeneratorCall& c, judge::DType want, const T* values, std::int64_t count, const char* what) {
  if (c.dtype != want || c.count != count)
    JUDGE_THROW(judge::Error, "generator '{}' writes {} {} value(s); the buffer holds {} {}", what, count,
                judge::to_string(want), c.count, judge::to_string(c.dtype));
  // Synchronous copy out of the cache (pageable memory): the stream's earlier work is ordered before it.
  JUDGE_CUDA_CHECK(cudaMemcpyAsync(c.data, values, count * sizeof(T), cudaMemcpyHostToDevice, c.stream));
  JUDGE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

void top_p_logits(const judge::GeneratorCall& c) {
  const auto k = cached_case(c);
  upload(c, judge::DType::float32, k->logits.data(), static_cast<std::int64_t>(k->logits.size()), "top_p_logits");
}
void top_p_threshold(const judge::GeneratorCall& c) {
  const auto k = cached_case(c);
  upload(c, judge::DType::float32, &k->p, 1, "top_p_threshold");
}
void top_p_seed(const judge::GeneratorCall& c) {
  const auto k = cached_case(c);
  upload(c, judge::DType::int32, &k->seed, 1, "top_p_seed");
}

}  // namespace

JUDGE_REFERENCE(top_p_sampling, gpu, cpu)
JUDGE_GENERATOR(top_p_logits, top_p_logits)
JUDGE_GENERATOR(top_p_threshold, top_p_threshold)
JUDGE_GENERATOR(top_p_seed, top_p_seed)
