// The comparison rule the GPU checker applies (judge/core/challenge/tolerance.hpp), tested on the host.
#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include "judge/core/challenge/tolerance.hpp"

namespace {

using judge::element_matches;
using judge::Tolerance;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Tolerance, AbsoluteAndRelativeBoundsAdd) {
  Tolerance t{false, 1e-3, 1e-2};
  EXPECT_TRUE(element_matches(1.0, 1.0, t));
  EXPECT_TRUE(element_matches(1.0 + 0.0109, 1.0, t));  // 1e-3 + 1e-2 * 1
  EXPECT_FALSE(element_matches(1.0 + 0.0112, 1.0, t));
  EXPECT_TRUE(element_matches(-100.0 - 1.0, -100.0, t));  // rtol scales with |ref|
  EXPECT_FALSE(element_matches(-100.0 - 1.1, -100.0, t));
  EXPECT_TRUE(element_matches(0.0009, 0.0, t));  // only atol near zero
  EXPECT_FALSE(element_matches(0.0011, 0.0, t));
}

TEST(Tolerance, NonFiniteOutputNeverPassesForAFiniteReference) {
  Tolerance loose{false, 1e30, 1e30};
  EXPECT_FALSE(element_matches(kNaN, 1.0, loose));
  EXPECT_FALSE(element_matches(kInf, 1.0, loose));
  EXPECT_FALSE(element_matches(-kInf, 0.0, loose));
}

TEST(Tolerance, NonFiniteReferenceNeedsTheSameNonFiniteOutput) {
  Tolerance t{false, 1e-3, 1e-3};
  EXPECT_TRUE(element_matches(kNaN, kNaN, t));
  EXPECT_FALSE(element_matches(1.0, kNaN, t));
  EXPECT_TRUE(element_matches(kInf, kInf, t));
  EXPECT_FALSE(element_matches(-kInf, kInf, t));
  EXPECT_FALSE(element_matches(1e308, kInf, t));
}

TEST(Tolerance, ExactComparesValues) {
  Tolerance exact{true, 0, 0};
  EXPECT_TRUE(element_matches(3.0, 3.0, exact));
  EXPECT_FALSE(element_matches(std::nextafter(3.0, 4.0), 3.0, exact));
  EXPECT_TRUE(element_matches(-0.0, 0.0, exact));
}

TEST(Tolerance, PoisonIsASignallingNanNoArithmeticProduces) {
  float f;
  std::uint32_t bits = judge::kPoison32;
  std::memcpy(&f, &bits, 4);
  EXPECT_TRUE(std::isnan(f));
  EXPECT_EQ(bits & 0x00400000u, 0u) << "quiet bit must be clear";
  float quieted = f + 1.0f;
  std::uint32_t qbits;
  std::memcpy(&qbits, &quieted, 4);
  EXPECT_NE(qbits, judge::kPoison32);
}

}  // namespace
