// The wrong-answer sentence for one output: counts, errors and the first mismatch, kept as they were, and the likely
// cause added only for the pattern that points at it (every wrong written value NaN: accumulating into an output
// that was never zeroed), not for overflow (Inf, or NaN among finite wrong values) nor for plain wrong values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "judge/core/run/output_diagnosis.hpp"

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

judge::OutputCheck check(std::int64_t count, std::int64_t mismatches, std::int64_t unwritten,
                         std::int64_t non_finite, std::vector<double> got) {
  judge::OutputCheck o;
  o.name = "output";
  o.count = count;
  o.mismatches = mismatches;
  o.unwritten = unwritten;
  o.non_finite = non_finite;
  for (std::size_t i = 0; i < got.size(); ++i)
    o.first.push_back(judge::Mismatch{static_cast<std::int64_t>(i), {static_cast<std::int64_t>(i)}, got[i], -0.36});
  return o;
}

TEST(OutputDiagnosis, AccumulatingIntoTheNaNPoisonIsNamed) {
  // A reduction that atomicAdds into its one-element output without zeroing it.
  std::string m = judge::describe_wrong_output(check(1, 1, 0, 1, {kNaN}));
  EXPECT_NE(m.find("output: 1 of 1 elements wrong (1 NaN/Inf where the reference is finite)"), std::string::npos)
      << m;
  EXPECT_NE(m.find("first at output[0] (index 0): got nan, expected -0.36"), std::string::npos) << m;
  EXPECT_NE(m.find("read before it was written"), std::string::npos) << m;
  EXPECT_NE(m.find("zero it first (cudaMemset"), std::string::npos) << m;
  // The cause comes last, after the facts it explains.
  EXPECT_LT(m.find("expected -0.36"), m.find("read before it was written")) << m;
}

TEST(OutputDiagnosis, NaNsMadeFromThePoisonAreCertainEvenAmongOtherWrongValues) {
  // The GPU check recognises NaNs that carry the poison's payload: then the cause is certain, whatever else is wrong.
  auto o = check(100, 10, 0, 3, {1.5, kNaN, 2.5});
  o.poison_derived = 3;
  std::string cause = judge::likely_cause(o);
  EXPECT_NE(cause.find("3 of the wrong values are NaNs computed from the judge's poison"), std::string::npos) << cause;
  EXPECT_NE(cause.find("read before it was written"), std::string::npos) << cause;
  o.poison_derived = 0;  // the same mix without that proof: NaN among finite wrong values names nothing
  EXPECT_EQ(judge::likely_cause(o), "");
}

TEST(OutputDiagnosis, ManyElementsAllNaNWithSomeNeverWrittenIsNamedToo) {
  // C += ... over a matrix whose last rows the kernel never reached: NaN where it accumulated, poison elsewhere.
  auto o = check(4096, 4096, 96, 4000, {kNaN, kNaN, kNaN});
  EXPECT_NE(judge::likely_cause(o).find("read before it was written"), std::string::npos);
}

TEST(OutputDiagnosis, AllNaNWithoutProofNamesTheOverflowToo) {
  // Attention without the max subtracted: every exp overflows, inf / inf is NaN everywhere. Nothing proves the poison,
  // so the message names both causes.
  std::string cause = judge::likely_cause(check(64, 64, 0, 64, {kNaN, kNaN, kNaN}));
  EXPECT_NE(cause.find("read before it was written"), std::string::npos) << cause;
  EXPECT_NE(cause.find("overflowed to infinity"), std::string::npos) << cause;
  EXPECT_NE(cause.find("maximum subtracted"), std::string::npos) << cause;
}

TEST(OutputDiagnosis, InfinityIsOverflowNotAReadBeforeWrite) {
  EXPECT_EQ(judge::likely_cause(check(8, 2, 0, 2, {kInf, -kInf})), "");
  EXPECT_EQ(judge::likely_cause(check(8, 2, 0, 2, {kNaN, kInf})), "");
}

TEST(OutputDiagnosis, NaNAmongFiniteWrongValuesIsNotNamed) {
  // Softmax without the max subtracted: Inf / Inf = NaN for some elements, finite wrong values (0) for the others.
  EXPECT_EQ(judge::likely_cause(check(1000, 1000, 0, 3, {kNaN, 0.0})), "");
  std::string m = judge::describe_wrong_output(check(1000, 1000, 0, 3, {kNaN, 0.0}));
  EXPECT_EQ(m.find("read before"), std::string::npos) << m;
}

TEST(OutputDiagnosis, PlainWrongValuesKeepTheOldSentence) {
  auto o = check(7, 3, 1, 0, {1.5});
  o.max_abs_error = 0.5;
  o.max_rel_error = 0.25;
  EXPECT_EQ(judge::describe_wrong_output(o),
            "output: 3 of 7 elements wrong (1 never written); max abs error 0.5, max rel error 0.25; first at "
            "output[0] (index 0): got 1.5, expected -0.36");
}

TEST(OutputDiagnosis, MatrixCoordinatesAreShown) {
  judge::OutputCheck o = check(6, 1, 0, 0, {});
  o.name = "C";
  o.first.push_back(judge::Mismatch{5, {1, 2}, 3.0, 4.0});
  EXPECT_NE(judge::describe_wrong_output(o).find("first at C[1][2] (index 5): got 3, expected 4"), std::string::npos);
}

}  // namespace
