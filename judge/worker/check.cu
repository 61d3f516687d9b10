#include "judge/worker/check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "judge/worker/cuda_check.hpp"
#include "judge/worker/vec4.cuh"
#include "judge/worker/readback.cuh"

namespace judge {

namespace {

constexpr int kThreads = 256;

struct CompareCounters {
  unsigned long long mismatches;
  unsigned long long unwritten;
  unsigned long long non_finite;
  unsigned long long max_abs_bits;  // non-negative doubles order like their bit patterns
  unsigned long long max_rel_bits;
  long long first_mismatch;
};

template <class T>
__device__ bool is_poison(T v) {
  static_assert(sizeof(T) == 4, "4-byte element types only");
  std::uint32_t bits;
  memcpy(&bits, &v, 4);
  return bits == kPoison32;
}

// Per-thread tallies of one comparison, merged into the counters once per thread.
struct Tally {
  unsigned long long mism = 0, unwritten = 0, non_finite = 0;
  double max_abs = 0, max_rel = 0;
  long long first;
};

template <class T>
__device__ void compare_one(T g, T w, std::int64_t i, const Tolerance& tol, Tally& t) {
  double gd = static_cast<double>(g), wd = static_cast<double>(w);
  if (element_matches(gd, wd, tol)) return;
  ++t.mism;
  if (i < t.first) t.first = i;
  bool ref_finite = !is_nan_value(wd) && !is_inf_value(wd);
  if (is_poison(g) && !is_poison(w)) ++t.unwritten;
  else if (ref_finite && (is_nan_value(gd) || is_inf_value(gd))) ++t.non_finite;
  else if (ref_finite) {
    double diff = fabs(gd - wd);
    t.max_abs = fmax(t.max_abs, diff);
    if (wd != 0) t.max_rel = fmax(t.max_rel, diff / fabs(wd));
  }
}

// Four elements per thread with 16-byte loads (the check must run near memory speed: it reads every output twice
// on every benchmark call).
template <class T>
__global__ void compare_kernel(const T* got, const T* want, std::int64_t count, Tolerance tol,
                               CompareCounters* out) {
  using V = typename Vec4<T>::type;
  Tally t;
  t.first = count;
  bool aligned = reinterpret_cast<std::uintptr_t>(got) % 16 == 0 && reinterpret_cast<std::uintptr_t>(want) % 16 == 0;
  for (std::int64_t base = (blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x) * 4; base < count;
       base += std::int64_t(gridDim.x) * blockDim.x * 4) {
    if (aligned && base + 3 < count) {
      V g = *reinterpret_cast<const V*>(got + base), w = *reinterpret_cast<const V*>(want + base);
      compare_one(g.x, w.x, base, tol, t);
      compare_one(g.y, w.y, base + 1, tol, t);
      compare_one(g.z, w.z, base + 2, tol, t);
      compare_one(g.w, w.w, base + 3, tol, t);
    } else {
      for (std::int64_t i = base; i < count && i < base + 4; ++i) compare_one(got[i], want[i], i, tol, t);
    }
  }
  if (t.mism) {
    atomicAdd(&out->mismatches, t.mism);
    atomicAdd(&out->unwritten, t.unwritten);
    atomicAdd(&out->non_finite, t.non_finite);
    atomicMax(&out->max_abs_bits, static_cast<unsigned long long>(__double_as_longlong(t.max_abs)));
    atomicMax(&out->max_rel_bits, static_cast<unsigned long long>(__double_as_longlong(t.max_rel)));
    atomicMin(&out->first_mismatch, t.first);
  }
}

int grid_for(std::int64_t count) {
  std::int64_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(std::clamp<std::int64_t>(blocks, 1, 65535 * 8));  // grid-stride beyond that
}

template <class T>
void find_first_mismatches(OutputCheck& r, const T* got, const T* want, std::int64_t count, std::int64_t start,
                           const std::vector<std::int64_t>& shape, Tolerance tol, cudaStream_t stream) {
  // Only on failure: walk forward from the first mismatch in host-sized chunks until enough are found.
  constexpr std::int64_t kChunk = 1 << 20;
  std::vector<T> g(kChunk), w(kChunk);
  for (std::int64_t base = start; base < count && static_cast<int>(r.first.size()) < kMismatchesShown;
       base += kChunk) {
    std::int64_t n = std::min(kChunk, count - base);
    JUDGE_CUDA_CHECK(cudaMemcpyAsync(g.data(), got + base, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
    JUDGE_CUDA_CHECK(cudaMemcpyAsync(w.data(), want + base, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (std::int64_t i = 0; i < n && static_cast<int>(r.first.size()) < kMismatchesShown; ++i) {
      double gd = static_cast<double>(g[i]), wd = static_cast<double>(w[i]);
      if (element_matches(gd, wd, tol)) continue;
      r.first.push_back(Mismatch{base + i, coordinates(base + i, shape), gd, wd});
    }
  }
}

template <class T>
OutputCheck compare_typed(const std::string& name, const T* got, const T* want, std::int64_t count,
                          const std::vector<std::int64_t>& shape, Tolerance tol, cudaStream_t stream) {
  OutputCheck r;
  r.name = name;
  r.count = count;
  if (count == 0) return r;
  Readback& rb = Readback::instance();
  CompareCounters* counters = rb.slot(CompareCounters{0, 0, 0, 0, 0, count}, stream);
  compare_kernel<T><<<grid_for((count + 3) / 4), kThreads, 0, stream>>>(got, want, count, tol, counters);
  JUDGE_CUDA_CHECK(cudaGetLastError());
  const CompareCounters c = rb.read<CompareCounters>(stream);
  r.mismatches = static_cast<std::int64_t>(c.mismatches);
  r.unwritten = static_cast<std::int64_t>(c.unwritten);
  r.non_finite = static_cast<std::int64_t>(c.non_finite);
  std::memcpy(&r.max_abs_error, &c.max_abs_bits, sizeof(double));
  std::memcpy(&r.max_rel_error, &c.max_rel_bits, sizeof(double));
  if (r.mismatches > 0) find_first_mismatches(r, got, want, count, c.first_mismatch, shape, tol, stream);
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

OutputCheck compare_output(const std::string& name, const void* got, const void* expected, DType dtype,
                           std::int64_t count, const std::vector<std::int64_t>& shape, Tolerance tol,
                           cudaStream_t stream) {
  switch (dtype) {
    case DType::float32:
      return compare_typed(name, static_cast<const float*>(got), static_cast<const float*>(expected), count, shape,
                           tol, stream);
    case DType::int32:
      return compare_typed(name, static_cast<const int*>(got), static_cast<const int*>(expected), count, shape, tol,
                           stream);
    default:
      JUDGE_THROW(Error, "outputs of dtype {} cannot be checked yet (float32 and int32 are supported)",
                  to_string(dtype));
  }
}

}  // namespace judge
