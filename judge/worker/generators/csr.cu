// "csr_row_ptr" and "csr_col_idx": the structure of a compressed-sparse-row matrix (or a graph's adjacency lists)
// with args.rows rows, args.cols columns and exactly args.nnz non-zeros, row lengths skewed by args.skew (0: every row
// holds nnz / rows, give or take one; 1: Zipf-like, a few long rows and many short ones, as in web and social graphs;
// the long rows are scattered, not sorted to the top). The two buffers are generated separately, so the spec gives
// them the same "draw": both then derive the same row lengths from the shared key. The values of the non-zeros need
// no coupling: any distribution over nnz elements.
//
//   row_ptr (rows + 1): row_ptr[0] = 0, non-decreasing, row_ptr[rows] = nnz, every row at most cols long.
//   col_idx (nnz):      within each row strictly increasing column indices in [0, cols).
//
// Row lengths are water-filled on the host (O(rows log rows), a pure function of the key: a row's share is its weight
// (1 + rank)^-skew, capped at cols, and the rounding remainder goes to the largest fractional parts); column indices
// are drawn on the GPU, one thread per non-zero: the j-th of a row's len columns is drawn from the j-th of len equal
// strata of [0, cols), which makes them distinct and sorted without a sort.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string_view>
#include <vector>

#include "judge/worker/device_buffer.hpp"
#include "judge/worker/generators/fill.cuh"

namespace judge::gen {
namespace {

struct CsrShape {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  double skew = 0;
};

CsrShape csr_shape(const GeneratorCall& c, const char* generator) {
  CsrShape s;
  auto whole = [&](const char* name) {
    double v = c.arg(name);
    if (!(v >= 0) || v != std::floor(v) || v > 9e15)
      JUDGE_THROW(Error, "generator '{}': {} = {} is not a non-negative integer", generator, name, v);
    return static_cast<std::int64_t>(v);
  };
  s.rows = whole("rows");
  s.cols = whole("cols");
  s.nnz = whole("nnz");
  s.skew = c.args.count("skew") > 0 ? c.arg("skew") : 0.0;
  if (!(s.skew >= 0 && s.skew <= 4))
    JUDGE_THROW(Error, "generator '{}': skew = {} is outside [0, 4] (0: even rows, 1: Zipf-like)", generator, s.skew);
  if (s.rows < 1) JUDGE_THROW(Error, "generator '{}': rows = {} (at least one row)", generator, s.rows);
  if (static_cast<double>(s.nnz) > static_cast<double>(s.rows) * static_cast<double>(s.cols))
    JUDGE_THROW(Error, "generator '{}': nnz = {} does not fit in {} x {}", generator, s.nnz, s.rows, s.cols);
  if (!is_integer(c.dtype))
    JUDGE_THROW(Error, "generator '{}' makes indices; the buffer is {} (use int32 or int64)", generator,
                to_string(c.dtype));
  const double largest = std::string_view(generator) == "csr_row_ptr" ? static_cast<double>(s.nnz)
                                                                      : static_cast<double>(s.cols) - 1;
  if (largest > max_value(c.dtype))
    JUDGE_THROW(Error, "generator '{}': values up to {} do not fit in {} (use int64)", generator, largest,
                to_string(c.dtype));
  return s;
}

// Row lengths summing to exactly nnz, each at most cols. Deterministic: only integer and double arithmetic in a fixed
// order, on the host.
std::vector<std::int64_t> row_lengths(const CsrShape& s, std::uint64_t key) {
  const auto R = static_cast<std::size_t>(s.rows);
  std::vector<double> w(R, 1.0);
  if (s.skew > 0) {
    Permutation rank(static_cast<std::uint64_t>(R), key ^ 0x637372ull);
    for (std::size_t i = 0; i < R; ++i) w[i] = std::pow(1.0 + static_cast<double>(rank(i)), -s.skew);
  }
  // Water-filling: rows whose share would pass cols are capped there, the rest share what is left in proportion
  // to their weights. Each round caps at least one more row or ends.
  std::vector<char> capped(R, 0);
  double lambda = 0;
  std::int64_t capped_total = 0;
  for (;;) {
    double free_weight = 0;
    for (std::size_t i = 0; i < R; ++i)
      if (!capped[i]) free_weight += w[i];
    lambda = free_weight > 0 ? static_cast<double>(s.nnz - capped_total) / free_weight : 0;
    bool changed = false;
    for (std::size_t i = 0; i < R; ++i)
      if (!capped[i] && lambda * w[i] >= static_cast<double>(s.cols)) {
        capped[i] = 1;
        capped_total += s.cols;
        changed = true;
      }
    if (!changed) break;
  }
  std::vector<std::int64_t> len(R);
  std::vector<std::pair<double, std::size_t>> remainder;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < R; ++i) {
    if (capped[i]) {
      len[i] = s.cols;
    } else {
      double share = lambda * w[i];
      len[i] = std::min<std::int64_t>(static_cast<std::int64_t>(std::floor(share)), s.cols);
      if (len[i] < s.cols) remainder.push_back({share - std::floor(share), i});
    }
    total += len[i];
  }
  std::int64_t missing = s.nnz - total;  // about 0 .. uncapped rows; below 0 only by rounding of lambda
  std::sort(remainder.begin(), remainder.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  while (missing > 0) {  // each pass gives one more to every row that has room, largest remainders first
    std::int64_t before = missing;
    for (std::size_t k = 0; k < remainder.size() && missing > 0; ++k)
      if (len[remainder[k].second] < s.cols) ++len[remainder[k].second], --missing;
    if (missing == before) JUDGE_THROW(Error, "generator csr: no row has room for {} more non-zeros", missing);
  }
  for (std::size_t i = 0; missing < 0; i = (i + 1) % R)
    if (len[i] > 0) --len[i], ++missing;
  return len;
}

std::vector<std::int64_t> row_offsets(const CsrShape& s, std::uint64_t key) {
  std::vector<std::int64_t> len = row_lengths(s, key);
  std::vector<std::int64_t> ptr(len.size() + 1, 0);
  std::partial_sum(len.begin(), len.end(), ptr.begin() + 1);
  return ptr;
}

// Uploads the row offsets; the caller synchronises the stream before the buffer goes.
DeviceBuffer upload_offsets(const std::vector<std::int64_t>& ptr, cudaStream_t stream) {
  DeviceBuffer d(ptr.size() * sizeof(std::int64_t));
  JUDGE_CUDA_CHECK(cudaMemcpyAsync(d.get(), ptr.data(), ptr.size() * sizeof(std::int64_t), cudaMemcpyHostToDevice,
                                   stream));
  return d;
}

struct Offsets {
  const std::int64_t* ptr;
  JUDGE_HD double operator()(std::int64_t i) const { return static_cast<double>(ptr[i]); }
};

struct Columns {
  const std::int64_t* ptr;
  std::int64_t rows, cols;
  std::uint64_t key;
  JUDGE_HD double operator()(std::int64_t e) const {
    std::int64_t lo = 0, hi = rows;  // the row r with ptr[r] <= e < ptr[r + 1]
    while (hi - lo > 1) {
      std::int64_t mid = lo + (hi - lo) / 2;
      if (ptr[mid] <= e) lo = mid; else hi = mid;
    }
    const std::int64_t j = e - ptr[lo], len = ptr[lo + 1] - ptr[lo];
    // Stratum j of len over [0, cols): [j cols / len, (j + 1) cols / len), never empty as len <= cols. cols up to
    // 2^31 and len up to cols keep j * cols within 2^62.
    const std::int64_t first = j * cols / len, end = (j + 1) * cols / len;
    auto pick = static_cast<std::int64_t>(unit(key, static_cast<std::uint64_t>(e)) * static_cast<double>(end - first));
    return static_cast<double>(first + (pick < end - first - 1 ? pick : end - first - 1));
  }
};

void check_count(const GeneratorCall& c, const char* generator, std::int64_t want, const char* what) {
  if (c.count != want)
    JUDGE_THROW(Error, "generator '{}': the buffer holds {} elements but {} is {}", generator, c.count, what, want);
}

void csr_row_ptr(const GeneratorCall& c) {
  CsrShape s = csr_shape(c, "csr_row_ptr");
  check_count(c, "csr_row_ptr", s.rows + 1, "rows + 1");
  DeviceBuffer d = upload_offsets(row_offsets(s, c.key), c.stream);
  fill(c, Offsets{static_cast<const std::int64_t*>(d.get())});
  JUDGE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

void csr_col_idx(const GeneratorCall& c) {
  CsrShape s = csr_shape(c, "csr_col_idx");
  check_count(c, "csr_col_idx", s.nnz, "nnz");
  if (s.cols > (std::int64_t{1} << 31))
    JUDGE_THROW(Error, "generator 'csr_col_idx': cols = {} is past 2^31", s.cols);
  if (s.nnz == 0) return;
  DeviceBuffer d = upload_offsets(row_offsets(s, c.key), c.stream);
  fill(c, Columns{static_cast<const std::int64_t*>(d.get()), s.rows, s.cols, c.key});
  JUDGE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

}  // namespace
}  // namespace judge::gen

JUDGE_GENERATOR(csr_row_ptr, judge::gen::csr_row_ptr)
JUDGE_GENERATOR(csr_col_idx, judge::gen::csr_col_idx)
