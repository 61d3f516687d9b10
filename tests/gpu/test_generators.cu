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
