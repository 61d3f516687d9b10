// The progress line of `judge submit`: what it says at each phase of a run, and how far along the bar is.
#include "judge/core/run/run_progress.hpp"

#include <gtest/gtest.h>

namespace judge {
namespace {

RunProgress at(const std::string& phase) {
  RunProgress p;
  p.case_name = "N_250000";
  p.kind = "benchmark";
  p.case_index = 12;
  p.case_count = 14;
  p.phase = phase;
  return p;
}

TEST(RunProgress, SaysWhichCaseAndWhatIsHappening) {
  EXPECT_EQ(progress_text(at("preparing")), "case 13/14 N_250000: preparing");
  EXPECT_EQ(progress_text(at("warm-up")), "case 13/14 N_250000: warming up");
  RunProgress call = at("call");
  call.kind = "test";
  call.call = 2;
  EXPECT_EQ(progress_text(call), "case 13/14 N_250000: test call 2");
}

TEST(RunProgress, ATimedCaseShowsSamplesMedianNoiseAndBudgetLeft) {
  RunProgress p = at("timing");
  p.calls = 37;
  p.median_ms = 0.012345;
  p.noise_pct = 0.4123;
  p.elapsed_s = 1.2;
  p.budget_s = 3;
  EXPECT_EQ(progress_text(p), "case 13/14 N_250000: 37 calls, median 0.01235 ms \u00b1 0.41%, 1.8 s of the 3 s "
                              "budget left");
  p.elapsed_s = 5;  // past the budget (the last sample runs over): never a negative time left
  EXPECT_NE(progress_text(p).find("0.0 s of the 3 s budget left"), std::string::npos) << progress_text(p);
}

TEST(RunProgress, FractionCountsFinishedCasesAndTheBudgetUsed) {
  RunProgress p = at("preparing");
  EXPECT_DOUBLE_EQ(progress_fraction(p), 12.0 / 14);
  p.phase = "timing";
  p.budget_s = 2;
  p.elapsed_s = 1;
  EXPECT_DOUBLE_EQ(progress_fraction(p), 12.5 / 14);
  p.elapsed_s = 10;
  EXPECT_DOUBLE_EQ(progress_fraction(p), 13.0 / 14);
  p.case_count = 0;  // nothing known yet
  EXPECT_EQ(progress_fraction(p), 0.0);
}

}  // namespace
}  // namespace judge
