// The output check for every dtype and tolerance form, and the named checkers (judge/worker/checkers/): each
// accepts what it should and, on failure, says what is wrong in the words its notes promise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <vector>

#include <cuda_fp16.h>

#include "judge/worker/check.hpp"
#include "judge/worker/cuda_check.hpp"
#include "judge/worker/device_buffer.hpp"
#include "support/test_support.hpp"

namespace {

using judge::DeviceBuffer;
using judge::DType;
using judge::Tolerance;

template <class T>
DeviceBuffer upload(const std::vector<T>& v) {
  DeviceBuffer b(std::max<std::size_t>(v.size(), 1) * sizeof(T));
  JUDGE_CUDA_CHECK(cudaMemcpy(b.get(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return b;
}

template <class T>
judge::OutputCheck check(const std::string& checker, const std::vector<T>& got, const std::vector<T>& want, DType t,
                         Tolerance tol) {
  DeviceBuffer g = upload(got), w = upload(want);
  auto n = static_cast<std::int64_t>(got.size());
  return judge::check_output(checker, {"out", g.get(), w.get(), t, n, {n}, tol, 0});
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Check, IntegersAreExactAtEverySize) {
  JUDGE_REQUIRE_GPU();
  std::vector<unsigned char> want(1001, 200), got = want;
  got[1000] = 201;
  auto r = check("", got, want, DType::uint8, {false, 0.5, 0.5});  // exact for integers whatever the tolerance
  EXPECT_EQ(r.mismatches, 1);
  ASSERT_FALSE(r.first.empty());
  EXPECT_EQ(r.first[0].index, 1000);
  std::vector<long long> w64(10, 1ll << 40), g64 = w64;
  EXPECT_EQ(check("", g64, w64, DType::int64, {true, 0, 0}).mismatches, 0);
  g64[3] += 1;
  EXPECT_EQ(check("", g64, w64, DType::int64, {true, 0, 0}).mismatches, 1);
}

TEST(Check, HalfOutputsAreComparedAsFloats) {
  JUDGE_REQUIRE_GPU();
  std::vector<__half> want(64, __float2half(1.0f)), got = want;
  got[5] = __float2half(1.001f);  // within 1e-2
  got[9] = __float2half(1.5f);
  auto r = check("", got, want, DType::float16, {false, 0, 1e-2});
  EXPECT_EQ(r.mismatches, 1);
  ASSERT_FALSE(r.first.empty());
  EXPECT_EQ(r.first[0].index, 9);
  EXPECT_NEAR(r.first[0].got, 1.5, 1e-6);
}

TEST(Check, NaNsMadeFromThePoisonAreCounted) {
  JUDGE_REQUIRE_GPU();
  std::vector<float> want(100, -0.36f), got = want;
  std::uint32_t quieted = judge::kPoison32 | 0x00400000u;  // what atomicAdd(poison, x) leaves
  std::memcpy(&got[7], &quieted, 4);
  got[8] = NAN;  // an ordinary NaN
  auto r = check("", got, want, DType::float32, {false, 1e-5, 1e-5});
  EXPECT_EQ(r.non_finite, 2);
  EXPECT_EQ(r.poison_derived, 1);
}

TEST(Check, RelativeNormToleranceJudgesTheWholeOutput) {
  JUDGE_REQUIRE_GPU();
  std::vector<float> want(1000), close(1000), far(1000);
  for (int i = 0; i < 1000; ++i) {
    want[i] = std::sin(0.1f * i);
    close[i] = want[i] * (1 + ((i % 2) ? 5e-4f : -5e-4f));
    far[i] = want[i] * 1.05f;
  }
  Tolerance tol;
  tol.rel_norm = 1e-3;
  EXPECT_EQ(check("", close, want, DType::float32, tol).mismatches, 0);
  auto r = check("", far, want, DType::float32, tol);
  EXPECT_GT(r.mismatches, 0);
  EXPECT_NEAR(r.norm_error, 0.05, 1e-3);
  EXPECT_TRUE(contains(r.message, "relative L2 error")) << r.message;
  // NaN still never passes where the reference is finite.
  close[3] = NAN;
  EXPECT_EQ(check("", close, want, DType::float32, tol).non_finite, 1);
}

TEST(SortedPermutation, SaysWhereTheFirstDescentIs) {
  JUDGE_REQUIRE_GPU();
  std::vector<float> want = {1, 2, 3, 4, 5}, got = {1, 3, 2, 4, 5};
  auto r = check("sorted_permutation", got, want, DType::float32, {true, 0, 0});
  EXPECT_GT(r.mismatches, 0);
  EXPECT_TRUE(contains(r.message, "not sorted in ascending order: out[1] = 3 > out[2] = 2")) << r.message;
  EXPECT_EQ(check("sorted_permutation", want, want, DType::float32, {true, 0, 0}).mismatches, 0);
}

TEST(SortedPermutation, SortedButNotTheInputsValues) {
  JUDGE_REQUIRE_GPU();
  std::vector<float> want = {1, 2, 3, 4, 5}, got = {1, 2, 2, 4, 5};  // 3 lost, 2 duplicated
  auto r = check("sorted_permutation", got, want, DType::float32, {true, 0, 0});
  EXPECT_TRUE(contains(r.message, "sorted but is not a permutation of the input")) << r.message;
  EXPECT_TRUE(contains(r.message, "first at index 2")) << r.message;
}

TEST(TopK, RightValuesWrongOrder) {
  JUDGE_REQUIRE_GPU();
  std::vector<float> want = {9, 7, 5}, got = {7, 9, 5};
  auto r = check("topk", got, want, DType::float32, {false, 1e-5, 1e-5});
  EXPECT_TRUE(contains(r.message, "right 3 values but not in descending order")) << r.message;
}

TEST(TopK, WrongValueIsNamed) {
  JUDGE_REQUIRE_GPU();
  std::vector<float> want = {9, 7, 5}, got = {9, 7, 4};
  auto r = check("topk", got, want, DType::float32, {false, 1e-5, 1e-5});
  EXPECT_TRUE(contains(r.message, "at position 2 the value should be 5, got 4")) << r.message;
  // Ties: equal values in any order are the same output.
  std::vector<float> ties = {7, 7, 5};
  EXPECT_EQ(check("topk", ties, ties, DType::float32, {false, 1e-5, 1e-5}).mismatches, 0);
}

TEST(Statistical, AcceptsWithinZStandardErrorsAndSaysHowFarOff) {
  JUDGE_REQUIRE_GPU();
  // One sample's sigma 1.6422 (pi from hits in the quarter disc), 10^6 samples: one standard error is 0.0016422.
  const float pi = 3.14159265f;
  std::vector<float> want = {pi};
  auto run = [&](float got, std::map<std::string, double> args) {
    DeviceBuffer g = upload(std::vector<float>{got}), w = upload(want);
    judge::CheckRequest q{"estimate", g.get(), w.get(), DType::float32, 1, {1}, {false, 1e-6, 1e-6}, 0, args};
    return judge::check_output("statistical", q);
  };
  std::map<std::string, double> args = {{"sigma", 1.6422}, {"samples", 1e6}};
  EXPECT_EQ(run(pi + 5.9f * 0.0016422f, args).mismatches, 0) << "5.9 standard errors: inside the default z = 6";
  EXPECT_EQ(run(pi - 5.9f * 0.0016422f, args).mismatches, 0);
  auto far = run(pi + 10 * 0.0016422f, args);
  EXPECT_EQ(far.mismatches, 1);
  EXPECT_TRUE(contains(far.message, "10.0 standard errors from the exact 3.14159")) << far.message;
  EXPECT_TRUE(contains(far.message, "own random sequence")) << far.message;
  args["z"] = 12;
  EXPECT_EQ(run(pi + 10 * 0.0016422f, args).mismatches, 0) << "z is the spec's to choose";
  // NaN never passes, however wide the bound.
  EXPECT_EQ(run(std::nanf(""), args).mismatches, 1);
  // A missing argument names the output and the argument.
  try {
    run(pi, {{"sigma", 1.0}});
    FAIL() << "expected an error";
  } catch (const judge::Error& e) {
    EXPECT_TRUE(contains(e.what(), "'estimate' needs the argument 'samples'")) << e.what();
  }
}

// int8_quantized_matmul's checker (beside its reference): a rejection made only of halves rounded away from zero
// says so; one with any other wrong element does not.
TEST(Int8Rounding, NamesHalvesRoundedAwayFromZeroAndNothingElse) {
  JUDGE_REQUIRE_GPU();
  const double zp = 3;
  // Expected e + zp, e = C - zero_point_C. Halves away from zero: e even, one step further from zero (e = 0: either).
  std::vector<signed char> want = {3, 5, 1, 3, 7, 3}, away = {3, 6, 0, 4, 7, 2};
  auto run = [&](const std::vector<signed char>& got) {
    DeviceBuffer g = upload(got), w = upload(want);
    judge::CheckRequest q{"C", g.get(), w.get(), DType::int8, 6, {2, 3}, {true, 0, 0}, 0, {{"zero_point_C", zp}}};
    return judge::check_output("int8_rounding", q);
  };
  auto ties = run(away);
  EXPECT_EQ(ties.mismatches, 4);
  EXPECT_TRUE(contains(ties.message, "every one of the 4 wrong elements is one step further from zero")) << ties.message;
  EXPECT_TRUE(contains(ties.message, "C: 4 of 6 elements wrong")) << ties.message;
  auto toward = away;
  toward[1] = 4;  // e = 2 rounded toward zero: not a half rounded away
  auto other = run(toward);
  EXPECT_EQ(other.mismatches, 4);
  EXPECT_FALSE(contains(other.message, "further from zero")) << other.message;
  // One step away from zero from an odd e (3 -> 4) is no half: x = 3.5 rounds to 4 either way.
  want[4] = 6;
  auto from_odd = want;
  from_odd[4] = 7;
  auto odd = run(from_odd);
  EXPECT_EQ(odd.mismatches, 1);
  EXPECT_FALSE(contains(odd.message, "further from zero")) << odd.message;
}

TEST(Checkers, UnknownNameIsAnError) {
  JUDGE_REQUIRE_GPU();
  std::vector<float> v = {1};
  EXPECT_THROW(check("no_such_checker", v, v, DType::float32, {true, 0, 0}), judge::Error);
}

}  // namespace
