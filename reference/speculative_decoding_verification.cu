// Reference for challenges/speculative_decoding_verification: the verified tokens of speculative decoding (accept
// draft token t while u < min(1, q(t)/p(t)); at the first rejection write the inverse-CDF draw of r = u[b, T] from
// max(0, q - p) renormalised, uniform when that is all zero; after T acceptances write the draw from q at position
// T - 1 into the last column; zeros elsewhere). Exact semantics and case construction:
// reference/speculative_decoding_verification.cuh.
//
// GPU: one block per sequence. Thread 0 finds the first rejection (alpha in double), then the block reduces the
// adjusted row's total in double (q - p of two floats is exact in double) and scans the row tile by tile (CUB
// BlockScan, double) for the first k whose partial sum reaches r * total. Double sums err by ~1e-16 relative, far
// inside the 2e-4 margin every case keeps between r and the cumulative values.
//
// Also four generators sharing one draw ("draw": "case"): specdec_draft_tokens, specdec_draft_probs,
// specdec_target_probs and specdec_uniform_samples write the buffers of one robust case (specdec::make_case),
// computed once on the host per (key, sizes, arguments) and cached, since the four buffers and their regenerations
// for the unchanged-input check all ask.
#include <cstdint>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "judge/core/base/error.hpp"
#include "judge/worker/generate.hpp"
#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"
#include "reference/speculative_decoding_verification.cuh"

namespace {

constexpr const char* kId = "speculative_decoding_verification";
constexpr int kBlock = judge::ref::kBlock;

__global__ void verify_kernel(const int* tok, const float* p, const float* q, const float* u, int* out, int T, int V) {
  using Reduce = cub::BlockReduce<double, kBlock>;
  using Scan = cub::BlockScan<double, kBlock>;
  __shared__ union {
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } tmp;
  __shared__ int s_reject;
  __shared__ double s_total;
  __shared__ int s_found;
  const int b = blockIdx.x;
  const std::int64_t base_bt = static_cast<std::int64_t>(b) * T;
  const float* ub = u + static_cast<std::int64_t>(b) * (T + 1);
  int* ob = out + static_cast<std::int64_t>(b) * (T + 1);
  if (threadIdx.x == 0) {
    int i = 0;
    for (; i < T; ++i) {
      const std::int64_t row = (base_bt + i) * V;
      const int t = tok[base_bt + i];
      const double alpha = fmin(1.0, static_cast<double>(q[row + t]) / static_cast<double>(p[row + t]));
      if (!(static_cast<double>(ub[i]) < alpha)) break;
    }
    s_reject = i;
    s_found = V;
  }
  __syncthreads();
  const int j = s_reject;
  for (int i = threadIdx.x; i <= T; i += kBlock) ob[i] = i < j ? tok[base_bt + i] : 0;  // j's (or T's) below
  const bool resample = j < T;
  const std::int64_t row = (base_bt + (resample ? j : T - 1)) * V;
  const float* pr = p + row;
  const float* qr = q + row;
  const double r = ub[T];
  double threshold = r;
  if (resample) {
    double part = 0;
    for (int v = threadIdx.x; v < V; v += kBlock) part += fmax(0.0, static_cast<double>(qr[v]) - pr[v]);
    const double total = Reduce(tmp.reduce).Sum(part);
    if (threadIdx.x == 0) s_total = total;
    __syncthreads();
    if (!(s_total > 0)) {  // fallback: uniform 1/V, cdf(k) = (k + 1) / V
      if (threadIdx.x == 0) {
        const int k = static_cast<int>(ceil(r * V)) - 1;
        ob[j] = min(max(k, 0), V - 1);
      }
      return;
    }
    threshold = r * s_total;
  }
  double running = 0;
  for (int base = 0; base < V; base += kBlock) {
    const int v = base + threadIdx.x;
    double x = 0;
    if (v < V) x = resample ? fmax(0.0, static_cast<double>(qr[v]) - pr[v]) : static_cast<double>(qr[v]);
    double incl, agg;
    Scan(tmp.scan).InclusiveSum(x, incl, agg);
    if (v < V && running + incl >= threshold) atomicMin(&s_found, v);
    __syncthreads();
    if (s_found < V) break;
    running += agg;
  }
  if (threadIdx.x == 0) ob[resample ? j : T] = min(s_found, V - 1);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int B = a.scalar<int>("B"), T = a.scalar<int>("T"), V = a.scalar<int>("V");
  if (B <= 0) return;
  verify_kernel<<<B, kBlock, 0, s>>>(a.input<int>("draft_tokens"), a.input<float>("draft_probs"),
                                     a.input<float>("target_probs"), a.input<float>("uniform_samples"),
                                     a.output<int>("output_tokens"), T, V);
  judge::ref::check_launch(kId, "verify_kernel");
}

void cpu(judge::HostArgs& a) {
  const int B = a.scalar<int>("B"), T = a.scalar<int>("T"), V = a.scalar<int>("V");
  const specdec::Answer r = specdec::answer(a.input<std::int32_t>("draft_tokens"), a.input<float>("draft_probs"),
                                            a.input<float>("target_probs"), a.input<float>("uniform_samples"), B, T, V);
  // A case whose answer float32 rounding could flip is a broken spec (hand-written draws), not a wrong answer.
  if (!specdec::robust(r))
    JUDGE_THROW(judge::Error,
                "reference '{}': the case is not robust (smallest |u - alpha| {:.3g}, must be >= {}; smallest "
                "|r - cdf| {:.3g}, must be >= {}): choose other draws",
                kId, r.u_margin, specdec::kUMargin, r.r_margin, specdec::kRMargin);
  double* out = a.output("output_tokens");
  for (std::size_t i = 0; i < r.out.size(); ++i) out[i] = static_cast<double>(r.out[i]);
}

// ---- generators ----------------------------------------------------------------------------------------------

specdec::CaseArgs case_args(const judge::GeneratorCall& c) {
  specdec::CaseArgs a;
  a.support = static_cast<int>(c.arg("support"));
  a.shared = static_cast<int>(c.arg("shared"));
  a.plan = static_cast<int>(c.arg("plan"));
  a.seed = static_cast<std::int64_t>(c.arg("seed"));
  return a;
}

int scalar_of(const judge::GeneratorCall& c, const char* name) {
  const auto it = c.scalars.find(name);
  if (it == c.scalars.end()) JUDGE_THROW(judge::Error, "specdec generators: the case has no scalar {}", name);
  return static_cast<int>(it->second);
}

// Shared, not a reference into the cache: another thread's call may replace the cached case meanwhile.
std::shared_ptr<const specdec::Case> cached_case(const judge::GeneratorCall& c) {
  static std::mutex mutex;
  static std::tuple<std::uint64_t, int, int, int, int, int, int, std::int64_t> last_key;
  static std::shared_ptr<const specdec::Case> last;
  const int B = scalar_of(c, "B"), T = scalar_of(c, "T"), V = scalar_of(c, "V");
  const specdec::CaseArgs a = case_args(c);
  const auto key = std::make_tuple(c.key, B, T, V, a.support, a.shared, a.plan, a.seed);
  std::lock_guard<std::mutex> lock(mutex);
  if (!last || key != last_key) {
    if (B < 1 || T < 1 || V < 2 || static_cast<std::int64_t>(B) * T * V > (std::int64_t{1} << 30))
      JUDGE_THROW(judge::Error, "specdec generators: B = {}, T = {}, V = {} out of range", B, T, V);
    if (a.plan < 0 || a.plan > 3 || (a.plan == 1 && !a.shared && a.support > 0 && a.support < V))
      JUDGE_THROW(judge::Error, "specdec generators: plan {} (shared {}, support {}) is not a valid case", a.plan,
                  a.shared, a.support);
    auto made = std::make_shared<specdec::Case>(specdec::make_case(c.key, B, T, V, a));
    if (!made->ok)
      JUDGE_THROW(judge::Error,
                  "specdec generators: no robust case found for B = {}, T = {}, V = {}, support {}, shared {}, plan "
                  "{}: change the case's arguments",
                  B, T, V, a.support, a.shared, a.plan);
    last = std::move(made);
    last_key = key;
  }
  return last;
}

template <class T>
void upload(const judge::GeneratorCall& c, judge::DType want, const std::vector<T>& values, const char* what) {
  const std::int64_t count = static_cast<std::int64_t>(values.size());
  if (c.dtype != want || c.count != count)
    JUDGE_THROW(judge::Error, "generator '{}' writes {} {} value(s); the buffer holds {} {}", what, count,
                judge::to_string(want), c.count, judge::to_string(c.dtype));
  // Synchronous copy out of the cache (pageable memory): the stream's earlier work is ordered before it.
  JUDGE_CUDA_CHECK(cudaMemcpyAsync(c.data, values.data(), count * sizeof(T), cudaMemcpyHostToDevice, c.stream));
  JUDGE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

void specdec_draft_tokens(const judge::GeneratorCall& c) {
  upload(c, judge::DType::int32, cached_case(c)->tokens, "specdec_draft_tokens");
}
void specdec_draft_probs(const judge::GeneratorCall& c) {
  upload(c, judge::DType::float32, cached_case(c)->draft, "specdec_draft_probs");
}
void specdec_target_probs(const judge::GeneratorCall& c) {
  upload(c, judge::DType::float32, cached_case(c)->target, "specdec_target_probs");
}
void specdec_uniform_samples(const judge::GeneratorCall& c) {
  upload(c, judge::DType::float32, cached_case(c)->uniform, "specdec_uniform_samples");
}

}  // namespace

JUDGE_REFERENCE(speculative_decoding_verification, gpu, cpu)
JUDGE_GENERATOR(specdec_draft_tokens, specdec_draft_tokens)
JUDGE_GENERATOR(specdec_draft_probs, specdec_draft_probs)
JUDGE_GENERATOR(specdec_target_probs, specdec_target_probs)
JUDGE_GENERATOR(specdec_uniform_samples, specdec_uniform_samples)
