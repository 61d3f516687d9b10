#include <gtest/gtest.h>

#include "judge/core/measure/statistics.hpp"

namespace {

using judge::should_stop;
using judge::summarize;
using judge::TimingPolicy;

TEST(Statistics, SummarizeOddAndEven) {
  auto s = summarize({5, 1, 3});
  EXPECT_EQ(s.n, 3);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.stdev, 2);
  EXPECT_NEAR(s.noise_pct, 66.6667, 1e-3);
  EXPECT_DOUBLE_EQ(summarize({4, 1, 2, 3}).median, 2.5);
  EXPECT_EQ(summarize({}).n, 0);
}

TEST(Statistics, StopsOnlyAfterMinSamples) {
  TimingPolicy p;
  p.min_samples = 10;
  std::vector<double> flat(9, 1.0);
  EXPECT_FALSE(should_stop(flat, 100.0, p));
  flat.push_back(1.0);
  EXPECT_TRUE(should_stop(flat, 0.0, p)) << "converged: zero noise";
}

TEST(Statistics, NoisySamplesRunUntilTheBudget) {
  TimingPolicy p;
  p.min_samples = 4;
  p.budget_s = 1.0;
  std::vector<double> noisy = {1, 2, 1, 2, 1, 2};
  EXPECT_FALSE(should_stop(noisy, 0.5, p));
  EXPECT_TRUE(should_stop(noisy, 1.0, p));
}

TEST(Statistics, MaxSamplesCaps) {
  TimingPolicy p;
  p.min_samples = 2;
  p.max_samples = 5;
  p.budget_s = 1e9;
  EXPECT_TRUE(should_stop({1, 2, 1, 2, 1}, 0.0, p));
}

}  // namespace
