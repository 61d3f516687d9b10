// The generators of structured inputs (judge/worker/generators/) and generation for every dtype: each is a pure
// function of its key (the same key regenerates the same bits, so count_changed() proves an input unchanged), and
// each keeps the promise its name makes (a permutation, exactly nnz non-zeros, distinct values, rows summing to 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <vector>

#include "judge/worker/check.hpp"
#include "judge/worker/cuda_check.hpp"
#include "judge/worker/device_buffer.hpp"
#include "judge/worker/generate.hpp"
#include "support/test_support.hpp"

namespace {

using judge::DeviceBuffer;
using judge::Distribution;
using judge::DType;

Distribution custom(const std::string& name, double low, double high, std::map<std::string, std::string> args = {}) {
  Distribution d;
  d.kind = Distribution::Kind::custom;
  d.custom = name;
  d.low = low;
  d.high = high;
  for (const auto& [k, text] : args) d.args[k] = judge::Expr::parse(text);
  return d;
}

std::vector<double> generated(const Distribution& d, DType t, std::int64_t n, std::uint64_t key,
                              const judge::Env& scalars = {}) {
  DeviceBuffer b(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)) * judge::size_of(t));
  judge::generate(b.get(), t, n, d, key, scalars, 0);
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(judge::count_changed(b.get(), t, n, d, key, scalars, 0), 0) << "regenerating gave other bits";
  return judge::download_as_double(b.get(), t, n, 0);
}

TEST(Generate, EveryDtypeStaysInRangeAndRegenerates) {
  JUDGE_REQUIRE_GPU();
  const std::int64_t n = 10007;
  for (DType t : {DType::float32, DType::float16, DType::bfloat16, DType::int8, DType::uint8, DType::int32,
                  DType::uint32, DType::int64}) {
    SCOPED_TRACE(std::string(judge::to_string(t)));
    Distribution d;
    d.low = judge::is_integer(t) && (t == DType::uint8 || t == DType::uint32) ? 3 : -5;
    d.high = 100;
    std::vector<double> v = generated(d, t, n, 42);
    std::set<double> distinct(v.begin(), v.end());
    EXPECT_GT(distinct.size(), 50u);
    for (double x : v) {
      ASSERT_GE(x, d.low);
      ASSERT_LE(x, d.high);
      if (judge::is_integer(t)) ASSERT_EQ(x, std::floor(x));
    }
    // One changed element is seen, whatever the element size.
    DeviceBuffer b(n * judge::size_of(t));
    judge::generate(b.get(), t, n, d, 42, {}, 0);
    JUDGE_CUDA_CHECK(cudaMemset(static_cast<char*>(b.get()) + 17 * judge::size_of(t), 0x7b, judge::size_of(t)));
    EXPECT_EQ(judge::count_changed(b.get(), t, n, d, 42, {}, 0), 1);
  }
}

TEST(Generate, RangesGivenAsExpressionsResolvePerCase) {
  JUDGE_REQUIRE_GPU();
  Distribution d;
  d.low = 0;
  d.expressions["high"] = judge::Expr::parse("C - 1");
  std::vector<double> v = generated(d, DType::int32, 5000, 3, {{"C", 7}});
  EXPECT_EQ(*std::max_element(v.begin(), v.end()), 6);
  EXPECT_EQ(*std::min_element(v.begin(), v.end()), 0);
}

TEST(Generators, PermutationHoldsEveryValueOnce) {
  JUDGE_REQUIRE_GPU();
  for (std::int64_t n : {1, 2, 3, 1000, 65537}) {
    std::vector<double> v = generated(custom("permutation", 10, 10), DType::int32, n, 9);
    std::sort(v.begin(), v.end());
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(v[i], 10 + i) << "n = " << n;
  }
  // Another key, another order.
  EXPECT_NE(generated(custom("permutation", 0, 0), DType::int32, 1000, 1),
            generated(custom("permutation", 0, 0), DType::int32, 1000, 2));
}

TEST(Generators, SortedIsNonDecreasingAndSpreadOverTheRange) {
  JUDGE_REQUIRE_GPU();
  for (DType t : {DType::float32, DType::int32}) {
    std::vector<double> v = generated(custom("sorted", -50, 50), t, 100003, 5);
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
    EXPECT_LT(v.front(), -49);
    EXPECT_GT(v.back(), 49);
  }
}

TEST(Generators, UniqueValuesAreDistinct) {
  JUDGE_REQUIRE_GPU();
  std::vector<double> f = generated(custom("unique", -1000, 1000), DType::float32, 200003, 8);
  EXPECT_EQ(std::set<double>(f.begin(), f.end()).size(), f.size());
  std::vector<double> i = generated(custom("unique", 0, 5000), DType::int32, 5001, 8);
  EXPECT_EQ(std::set<double>(i.begin(), i.end()).size(), i.size());
  // More values than the range holds: refused with the generator's name.
  DeviceBuffer b(6000 * 4);
  EXPECT_THROW(judge::generate(b.get(), DType::int32, 6000, custom("unique", 0, 5000), 1, {}, 0), judge::Error);
}

TEST(Generators, SparseHasExactlyNnzNonZeros) {
  JUDGE_REQUIRE_GPU();
  for (double nnz : {0.0, 1.0, 777.0, 35000.0}) {
    std::vector<double> v = generated(custom("sparse", -10, 10, {{"nnz", "nnz"}}), DType::float32, 100 * 350, 4,
                                      {{"nnz", nnz}});
    auto nonzero = std::count_if(v.begin(), v.end(), [](double x) { return x != 0; });
    EXPECT_EQ(nonzero, static_cast<long>(nnz));
  }
  DeviceBuffer b(100 * 4);
  EXPECT_THROW(judge::generate(b.get(), DType::float32, 100, custom("sparse", -1, 1), 1, {}, 0), judge::Error)
      << "a missing 'nnz' argument must be named";
}

TEST(Generators, ProbabilityRowsSumToOne) {
  JUDGE_REQUIRE_GPU();
  const std::int64_t rows = 37, cols = 1000;
  std::vector<double> v =
      generated(custom("probability_rows", 0, 1, {{"cols", "C"}}), DType::float32, rows * cols, 6, {{"C", cols}});
  for (std::int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (std::int64_t j = 0; j < cols; ++j) {
      ASSERT_GT(v[r * cols + j], 0);
      sum += v[r * cols + j];
    }
    EXPECT_NEAR(sum, 1.0, 1e-5) << "row " << r;
  }
}

// The draw a spec names makes coupled buffers share one key; without it every parameter has its own.
TEST(Generate, ParametersNamingTheSameDrawShareAKey) {
  Distribution own, row_ptr, col_idx, other;
  row_ptr.draw = col_idx.draw = "A";
  other.draw = "B";
  EXPECT_EQ(judge::input_key(7, "case", "row_ptr", row_ptr), judge::input_key(7, "case", "col_idx", col_idx));
  EXPECT_NE(judge::input_key(7, "case", "row_ptr", row_ptr), judge::input_key(7, "case", "row_ptr", other));
  EXPECT_NE(judge::input_key(7, "case", "row_ptr", row_ptr), judge::input_key(7, "other", "row_ptr", row_ptr));
  EXPECT_NE(judge::input_key(7, "case", "row_ptr", row_ptr), judge::input_key(8, "case", "row_ptr", row_ptr));
  EXPECT_NE(judge::input_key(7, "case", "x", own), judge::input_key(7, "case", "y", own));
}

struct Csr {
  std::vector<double> row_ptr, col_idx;
};

Csr csr(std::int64_t rows, std::int64_t cols, std::int64_t nnz, double skew, DType t = DType::int32,
        std::uint64_t key = 11) {
  std::map<std::string, std::string> args = {{"rows", "R"}, {"cols", "C"}, {"nnz", "Z"}, {"skew", "S"}};
  judge::Env env = {{"R", double(rows)}, {"C", double(cols)}, {"Z", double(nnz)}, {"S", skew}};
  return {generated(custom("csr_row_ptr", 0, 0, args), t, rows + 1, key, env),
          generated(custom("csr_col_idx", 0, 0, args), t, nnz, key, env)};
}

// A valid CSR structure: offsets from 0 to nnz, no row longer than cols, columns strictly increasing in each row.
void expect_valid(const Csr& m, std::int64_t rows, std::int64_t cols, std::int64_t nnz) {
  ASSERT_EQ(m.row_ptr.size(), static_cast<std::size_t>(rows + 1));
  ASSERT_EQ(m.row_ptr.front(), 0);
  ASSERT_EQ(m.row_ptr.back(), nnz);
  for (std::int64_t r = 0; r < rows; ++r) {
    ASSERT_LE(m.row_ptr[r], m.row_ptr[r + 1]) << "row " << r;
    ASSERT_LE(m.row_ptr[r + 1] - m.row_ptr[r], cols) << "row " << r;
    for (auto e = static_cast<std::int64_t>(m.row_ptr[r]); e < m.row_ptr[r + 1]; ++e) {
      ASSERT_GE(m.col_idx[e], 0);
      ASSERT_LT(m.col_idx[e], cols);
      if (e > m.row_ptr[r]) ASSERT_LT(m.col_idx[e - 1], m.col_idx[e]) << "row " << r << " is not strictly increasing";
    }
  }
}

TEST(Generators, CsrIsValidAndEvenWithoutSkew) {
  JUDGE_REQUIRE_GPU();
  const std::int64_t rows = 1000, cols = 700, nnz = 20017;
  Csr m = csr(rows, cols, nnz, 0);
  expect_valid(m, rows, cols, nnz);
  std::int64_t shortest = cols, longest = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    auto len = static_cast<std::int64_t>(m.row_ptr[r + 1] - m.row_ptr[r]);
    shortest = std::min(shortest, len), longest = std::max(longest, len);
  }
  EXPECT_LE(longest - shortest, 1) << "skew 0 must spread the non-zeros evenly";
  // The columns are spread over the whole width, not packed at the left.
  EXPECT_GT(*std::max_element(m.col_idx.begin(), m.col_idx.end()), cols * 0.9);
}

TEST(Generators, CsrSkewMakesAFewLongRowsScatteredAmongShortOnes) {
  JUDGE_REQUIRE_GPU();
  const std::int64_t rows = 4096, cols = 4096, nnz = 4096 * 16;
  Csr m = csr(rows, cols, nnz, 1.0, DType::int64);
  expect_valid(m, rows, cols, nnz);
  std::vector<std::int64_t> len(rows);
  for (std::int64_t r = 0; r < rows; ++r) len[r] = static_cast<std::int64_t>(m.row_ptr[r + 1] - m.row_ptr[r]);
  std::int64_t longest_row = std::max_element(len.begin(), len.end()) - len.begin();
  EXPECT_GT(len[longest_row], 50 * 16) << "Zipf-like rows: the longest holds many times the mean of 16";
  std::vector<std::int64_t> sorted = len;
  std::nth_element(sorted.begin(), sorted.begin() + rows / 2, sorted.end());
  EXPECT_LT(sorted[rows / 2], 16 / 2) << "and the median row holds less than half the mean";
  std::int64_t long_in_top_half = 0, long_rows = 0;  // the long rows are not all at the top
  for (std::int64_t r = 0; r < rows; ++r)
    if (len[r] > 64) ++long_rows, long_in_top_half += r < rows / 2;
  EXPECT_GT(long_rows, 8);
  EXPECT_LT(long_in_top_half, long_rows);
  EXPECT_GT(long_in_top_half, 0);
}

TEST(Generators, CsrHandlesFullEmptyAndCappedRows) {
  JUDGE_REQUIRE_GPU();
  expect_valid(csr(33, 17, 33 * 17, 0), 33, 17, 33 * 17);  // dense: every column of every row
  expect_valid(csr(33, 17, 33 * 17, 2), 33, 17, 33 * 17);  // skew cannot pass the cap
  expect_valid(csr(1, 1, 1, 0), 1, 1, 1);
  Csr empty = csr(50, 50, 0, 1);
  EXPECT_TRUE(std::all_of(empty.row_ptr.begin(), empty.row_ptr.end(), [](double x) { return x == 0; }));
  expect_valid(csr(100, 3, 250, 3), 100, 3, 250);  // heavy skew with short rows: most rows capped at 3
  // Sizes that cannot hold: named in the error.
  DeviceBuffer b(64 * 4);
  std::map<std::string, std::string> args = {{"rows", "4"}, {"cols", "4"}, {"nnz", "17"}};
  EXPECT_THROW(judge::generate(b.get(), DType::int32, 5, custom("csr_row_ptr", 0, 0, args), 1, {}, 0), judge::Error);
  args["nnz"] = "3";
  EXPECT_THROW(judge::generate(b.get(), DType::int32, 4, custom("csr_row_ptr", 0, 0, args), 1, {}, 0), judge::Error)
      << "row_ptr must hold rows + 1 elements";
  EXPECT_THROW(judge::generate(b.get(), DType::float32, 3, custom("csr_col_idx", 0, 0, args), 1, {}, 0), judge::Error)
      << "indices are integers";
}

TEST(Generators, GraphHasZeroDiagonalAndInfinityForMissingEdges) {
  JUDGE_REQUIRE_GPU();
  const std::int64_t n = 300;
  std::vector<double> d = generated(custom("graph", 1, 10, {{"nodes", "N"}, {"density", "0.25"}}), DType::float32,
                                    n * n, 5, {{"N", double(n)}});
  std::int64_t edges = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double w = d[i * n + j];
      if (i == j) {
        ASSERT_EQ(w, 0);
      } else if (!std::isinf(w)) {
        ++edges;
        ASSERT_GE(w, 1);
        ASSERT_LT(w, 10);
      } else {
        ASSERT_GT(w, 0);
      }
    }
  EXPECT_NEAR(double(edges) / double(n * (n - 1)), 0.25, 0.01);
  // Directed: w(i, j) and w(j, i) are drawn independently.
  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < i; ++j) differ += d[i * n + j] != d[j * n + i];
  // Both directions are absent with probability 0.75^2, so about 44% of the pairs differ.
  EXPECT_GT(differ, n * (n - 1) / 2 * 4 / 10);
  // potential: negative edges, but h(i) - h(j) cancels around a cycle, so a 2-cycle weighs at least 2 low.
  std::vector<double> p = generated(custom("graph", 1, 10, {{"nodes", "N"}, {"density", "0.25"}, {"potential", "30"}}),
                                    DType::float32, n * n, 5, {{"N", double(n)}});
  std::int64_t negative = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(p[i * n + i], 0);
    for (std::int64_t j = 0; j < n; ++j) {
      ASSERT_EQ(std::isinf(p[i * n + j]), std::isinf(d[i * n + j])) << "the same edges as without potential";
      negative += p[i * n + j] < 0;
      if (j < i && !std::isinf(p[i * n + j]) && !std::isinf(p[j * n + i]))
        ASSERT_GE(p[i * n + j] + p[j * n + i], 2 - 1e-4);
    }
  }
  EXPECT_GT(negative, edges / 10) << "potential 30 over weights in [1, 10) makes many edges negative";
  DeviceBuffer b(16 * 4);
  EXPECT_THROW(judge::generate(b.get(), DType::int32, 16, custom("graph", 1, 9, {{"nodes", "4"}, {"density", "1"}}),
                               1, {}, 0),
               judge::Error)
      << "an integer matrix needs args.none";
}

TEST(Generators, PointsStayInTheBoxAndClusterWhenAsked) {
  JUDGE_REQUIRE_GPU();
  const std::int64_t n = 20000, dims = 3;
  auto spread_of = [&](const std::vector<double>& v) {  // mean distance to the nearest of 64 sampled points
    double total = 0;
    for (std::int64_t p = 0; p < 2000; ++p) {
      double best = 1e300;
      for (std::int64_t q = 2000; q < 2064; ++q) {
        double s = 0;
        for (std::int64_t d = 0; d < dims; ++d) s += std::pow(v[p * dims + d] - v[q * dims + d], 2);
        best = std::min(best, s);
      }
      total += std::sqrt(best);
    }
    return total / 2000;
  };
  std::vector<double> uniform = generated(custom("points", -5, 5, {{"dims", "3"}}), DType::float32, n * dims, 9);
  std::vector<double> clustered =
      generated(custom("points", -5, 5, {{"dims", "3"}, {"clusters", "4"}, {"spread", "0.02"}}), DType::float32,
                n * dims, 9);
  for (double x : uniform) ASSERT_TRUE(x >= -5 && x < 5);
  for (double x : clustered) ASSERT_TRUE(x >= -5 && x < 5);
  EXPECT_LT(spread_of(clustered), spread_of(uniform) / 4) << "clustered points lie close to one another";
  // step: every coordinate on the grid low + m * step, still inside the box, clustered or not.
  for (const char* clusters : {"0", "3"}) {
    std::vector<double> grid = generated(
        custom("points", -5, 5, {{"dims", "3"}, {"clusters", clusters}, {"step", "0.25"}}), DType::float32,
        n * dims, 9);
    for (double x : grid) {
      ASSERT_TRUE(x >= -5 && x < 5) << x;
      ASSERT_EQ((x + 5) / 0.25, std::floor((x + 5) / 0.25)) << x << " is off the 0.25 grid";
    }
  }
}

TEST(Generators, UnknownNameListsTheKnownOnes) {
  JUDGE_REQUIRE_GPU();
  DeviceBuffer b(16);
  try {
    judge::generate(b.get(), DType::float32, 4, custom("no_such_generator", 0, 1), 1, {}, 0);
    FAIL() << "expected an error";
  } catch (const judge::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_generator"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("permutation"), std::string::npos);
  }
}

}  // namespace
