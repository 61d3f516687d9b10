// Reference for challenges/radix_sort: output = input sorted ascending, as unsigned 32-bit integers. CUB's radix
// sort (onesweep: one histogram pass over all four 8-bit digits, then one stable scatter pass per digit) over bits
// [0, 32). The overload without a DoubleBuffer leaves input untouched and ends in output; CUB keeps the ping-pong
// buffer of N keys inside its temporary storage, which lives in a grow-only Scratch.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

#include "judge/worker/generate.hpp"
#include "judge/worker/generators/fill.cuh"
#include "judge/worker/reference.hpp"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "radix_sort";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int n = a.scalar<int>("N");
  const unsigned* in = a.input<unsigned>("input");
  unsigned* out = a.output<unsigned>("output");
  static judge::ref::Scratch temp(kId, "temp storage");
  temp.run_cub("cub::DeviceRadixSort::SortKeys", [&](void* storage, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(storage, bytes, in, out, n, 0, 32, s);
  });
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const std::uint32_t* x = a.input<std::uint32_t>("input");
  std::vector<std::uint32_t> v(x, x + n);
  std::sort(v.begin(), v.end());
  double* y = a.output("output");
  for (std::int64_t i = 0; i < n; ++i) y[i] = v[i];
}

// "sorted_descending": the "sorted" generator read backwards. Non-increasing values over [low, high) (integers:
// [low, high]): element i lies in slice count-1-i of count equal slices of the range, at a random place inside it,
// so integer values are distinct whenever the range holds at least count of them.
struct SortedDescending {
  double low, width, n;
  std::uint64_t key;
  bool integral;
  JUDGE_HD double operator()(std::int64_t i) const {
    const std::int64_t j = static_cast<std::int64_t>(n) - 1 - i;
    const double v = low + width * ((static_cast<double>(j) + judge::gen::unit(key, std::uint64_t(j))) / n);
    return integral ? floor(v) : v;
  }
};

void sorted_descending(const judge::GeneratorCall& c) {
  const bool whole = judge::gen::integral(c);
  const double width = c.dist.high - c.dist.low + (whole ? 1.0 : 0.0);
  judge::gen::fill(c, SortedDescending{c.dist.low, width, static_cast<double>(c.count), c.key, whole});
}

}  // namespace

JUDGE_REFERENCE(radix_sort, gpu, cpu)
JUDGE_GENERATOR(sorted_descending, sorted_descending)
