#include "judge/worker/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "judge/worker/cuda_check.hpp"
#include "judge/worker/element.cuh"
#include "judge/worker/named_registry.hpp"
#include "judge/worker/readback.cuh"
#include "judge/worker/vec4.cuh"

namespace judge {

namespace {

constexpr int kThreads = 256;

struct CompareCounters {
  unsigned long long mismatches;
  unsigned long long unwritten;
  unsigned long long non_finite;
  unsigned long long poison_derived;
  unsigned long long max_abs_bits;  // non-negative doubles order like their bit patterns
  unsigned long long max_rel_bits;
  long long first_mismatch;
  double sum_sq_diff;  // norm tolerance only: over the elements where both are finite
  double sum_sq_ref;
};

// Per-thread tallies of one comparison, merged into the counters once per thread.
struct Tally {
  unsigned long long mism = 0, unwritten = 0, non_finite = 0, poison_derived = 0;
  double max_abs = 0, max_rel = 0;
  double sq_diff = 0, sq_ref = 0;
  long long first;
};

template <class T>
__device__ void compare_one(T g, T w, std::int64_t i, const Tolerance& tol, Tally& t) {
  double gd = to_double(g), wd = to_double(w);
  bool ref_finite = !is_nan_value(wd) && !is_inf_value(wd);
  if (tol.rel_norm > 0 && ref_finite && !is_nan_value(gd) && !is_inf_value(gd)) {
    t.sq_diff += (gd - wd) * (gd - wd);
    t.sq_ref += wd * wd;
  }
  if (element_matches(gd, wd, tol)) return;
  ++t.mism;
  if (i < t.first) t.first = i;
  if (is_poison(g) && !is_poison(w)) ++t.unwritten;
  else if (ref_finite && (is_nan_value(gd) || is_inf_value(gd))) {
    ++t.non_finite;
    if (is_poison_derived(g)) ++t.poison_derived;
  } else if (ref_finite) {
    double diff = fabs(gd - wd);
    t.max_abs = fmax(t.max_abs, diff);
    if (wd != 0) t.max_rel = fmax(t.max_rel, diff / fabs(wd));
  }
}

template <class T>
constexpr bool kVectorised = std::is_same_v<T, float> || std::is_same_v<T, int>;

// Four elements per thread, with 16-byte loads for 4-byte types (the check must run near memory speed: it reads
// every output twice on every benchmark call).
template <class T>
__global__ void compare_kernel(const T* got, const T* want, std::int64_t count, Tolerance tol,
                               CompareCounters* out) {
  Tally t;
  t.first = count;
  bool aligned = reinterpret_cast<std::uintptr_t>(got) % 16 == 0 && reinterpret_cast<std::uintptr_t>(want) % 16 == 0;
  for (std::int64_t base = (blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x) * 4; base < count;
       base += std::int64_t(gridDim.x) * blockDim.x * 4) {
    if constexpr (kVectorised<T>) {
      if (aligned && base + 3 < count) {
        using V = typename Vec4<T>::type;
        V g = *reinterpret_cast<const V*>(got + base), w = *reinterpret_cast<const V*>(want + base);
        compare_one(g.x, w.x, base, tol, t);
        compare_one(g.y, w.y, base + 1, tol, t);
        compare_one(g.z, w.z, base + 2, tol, t);
        compare_one(g.w, w.w, base + 3, tol, t);
        continue;
      }
    }
    for (std::int64_t i = base; i < count && i < base + 4; ++i) compare_one(got[i], want[i], i, tol, t);
  }
  if (t.mism) {
    atomicAdd(&out->mismatches, t.mism);
    atomicAdd(&out->unwritten, t.unwritten);
    atomicAdd(&out->non_finite, t.non_finite);
    atomicAdd(&out->poison_derived, t.poison_derived);
    atomicMax(&out->max_abs_bits, static_cast<unsigned long long>(__double_as_longlong(t.max_abs)));
    atomicMax(&out->max_rel_bits, static_cast<unsigned long long>(__double_as_longlong(t.max_rel)));
    atomicMin(&out->first_mismatch, t.first);
  }
  if (tol.rel_norm > 0) {
    atomicAdd(&out->sum_sq_diff, t.sq_diff);
    atomicAdd(&out->sum_sq_ref, t.sq_ref);
  }
}

int grid_for(std::int64_t count) {
  std::int64_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(std::clamp<std::int64_t>(blocks, 1, 65535 * 8));  // grid-stride beyond that
}

// Only on failure: walk forward from `start` in host-sized chunks until enough elements failing `bad` are found.
template <class Bad>
void find_first(OutputCheck& r, const CheckRequest& q, std::int64_t start, Bad bad) {
  constexpr std::int64_t kChunk = 1 << 20;
  const std::size_t size = size_of(q.dtype);
  for (std::int64_t base = start; base < q.count && static_cast<int>(r.first.size()) < kMismatchesShown;
       base += kChunk) {
    std::int64_t n = std::min(kChunk, q.count - base);
    std::vector<double> g = download_as_double(static_cast<const char*>(q.got) + base * size, q.dtype, n, q.stream);
    std::vector<double> w =
        download_as_double(static_cast<const char*>(q.expected) + base * size, q.dtype, n, q.stream);
    for (std::int64_t i = 0; i < n && static_cast<int>(r.first.size()) < kMismatchesShown; ++i)
      if (bad(g[i], w[i])) r.first.push_back(Mismatch{base + i, coordinates(base + i, q.shape), g[i], w[i]});
  }
}

template <class T>
OutputCheck compare_typed(const CheckRequest& given) {
  CheckRequest q = given;
  if constexpr (std::is_integral_v<T>) q.tol = Tolerance{true, 0, 0, 0};  // integers are exact, whatever the spec says
  OutputCheck r;
  r.name = q.name;
  r.count = q.count;
  if (q.count == 0) return r;
  Readback& rb = Readback::instance();
  CompareCounters* counters = rb.slot(CompareCounters{0, 0, 0, 0, 0, 0, q.count, 0.0, 0.0}, q.stream);
  compare_kernel<T><<<grid_for((q.count + 3) / 4), kThreads, 0, q.stream>>>(
      static_cast<const T*>(q.got), static_cast<const T*>(q.expected), q.count, q.tol, counters);
  JUDGE_CUDA_CHECK(cudaGetLastError());
  const CompareCounters c = rb.read<CompareCounters>(q.stream);
  r.mismatches = static_cast<std::int64_t>(c.mismatches);
  r.unwritten = static_cast<std::int64_t>(c.unwritten);
  r.non_finite = static_cast<std::int64_t>(c.non_finite);
  r.poison_derived = static_cast<std::int64_t>(c.poison_derived);
  std::memcpy(&r.max_abs_error, &c.max_abs_bits, sizeof(double));
  std::memcpy(&r.max_rel_error, &c.max_rel_bits, sizeof(double));
  const Tolerance tol = q.tol;
  if (r.mismatches > 0)
    find_first(r, q, c.first_mismatch, [tol](double g, double w) { return !element_matches(g, w, tol); });
  if (tol.norm()) {
    r.norm_error = c.sum_sq_ref > 0 ? std::sqrt(c.sum_sq_diff / c.sum_sq_ref) : (c.sum_sq_diff > 0 ? INFINITY : 0.0);
    if (r.mismatches == 0 && !norm_matches(c.sum_sq_diff, c.sum_sq_ref, tol)) {
      // The whole output is off: report the count and the first elements whose error exceeds the bound measured
      // against the reference's root mean square.
      const double bound = tol.rel_norm * std::sqrt(c.sum_sq_ref / static_cast<double>(q.count));
      r.mismatches = 0;
      find_first(r, q, 0, [bound](double g, double w) { return std::fabs(g - w) > bound; });
      r.mismatches = std::max<std::int64_t>(1, static_cast<std::int64_t>(r.first.size()));
      r.message = fmt::format("{}: relative L2 error ||out - ref|| / ||ref|| = {:.3g} exceeds the bound {:.3g}",
                              q.name, r.norm_error, tol.rel_norm);
      if (!r.first.empty()) {
        const Mismatch& m = r.first.front();
        std::string coords;
        for (auto x : m.coords) coords += fmt::format("[{}]", x);
        r.message += fmt::format("; first large error at {}{} (index {}): got {:.7g}, expected {:.7g}", q.name,
                                 coords, m.index, m.got, m.expected);
      }
    }
  }
  return r;
}

NamedRegistry<Checker>& checkers() {
  static NamedRegistry<Checker> r("checker", "judge/worker/checkers/", "JUDGE_CHECKER");
  return r;
}

}  // namespace

std::vector<std::int64_t> coordinates(std::int64_t index, const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> c(shape.size(), 0);
  for (std::size_t d = shape.size(); d-- > 0;) {
    std::int64_t extent = std::max<std::int64_t>(shape[d], 1);
    c[d] = index % extent;
    index /= extent;
  }
  return c;
}

std::vector<double> download_as_double(const void* data, DType dtype, std::int64_t count, cudaStream_t stream) {
  std::vector<double> out(static_cast<std::size_t>(count));
  if (count == 0) return out;
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> host(out.size());
    JUDGE_CUDA_CHECK(cudaMemcpyAsync(host.data(), data, host.size() * sizeof(T), cudaMemcpyDeviceToHost, stream));
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (std::size_t i = 0; i < host.size(); ++i) out[i] = to_double(host[i]);
  });
  return out;
}

OutputCheck compare_output(const CheckRequest& r) {
  return visit_dtype(r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return compare_typed<T>(r);
  });
}

void register_checker(const std::string& name, Checker fn) { checkers().add(name, std::move(fn)); }

bool has_checker(const std::string& name) { return checkers().has(name); }

double CheckRequest::arg(const std::string& key) const {
  auto it = args.find(key);
  if (it == args.end())
    JUDGE_THROW(Error, "the checker of output '{}' needs the argument '{}' (\"check\": {{\"name\": ..., \"args\": "
                "{{\"{}\": ...}}}} in the spec)", name, key, key);
  return it->second;
}

OutputCheck check_output(const std::string& checker, const CheckRequest& r) {
  if (checker.empty()) return compare_output(r);
  return checkers().find(checker)(r);
}

}  // namespace judge
