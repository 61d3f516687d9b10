// The trusted bound on a submission's time (judge/core/measure/trusted_timing.hpp): an honest report keeps its GPU
// span, a trace that left work out is charged the trusted time, an impossible report is called so.
#include <gtest/gtest.h>

#include "judge/core/measure/trusted_timing.hpp"

namespace {

using judge::bound_timing;
using judge::estimate_overhead;

// A round trip of about 40 us with a little jitter, as null calls measure it.
judge::Overhead typical_overhead() { return estimate_overhead({0.038, 0.039, 0.040, 0.040, 0.041, 0.042, 0.045}); }

TEST(TrustedTiming, OverheadIsMedianAndNinetiethPercentile) {
  judge::Overhead o = estimate_overhead({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(o.median_ms, 3);
  EXPECT_NEAR(o.p90_ms, 4.6, 1e-12);
  EXPECT_EQ(o.samples, 5);
  judge::Overhead none = estimate_overhead({});
  EXPECT_EQ(none.median_ms, 0);
  EXPECT_EQ(none.samples, 0);
}

TEST(TrustedTiming, HonestCallKeepsItsGpuSpan) {
  // 1 ms of GPU work; the trusted clock sees it plus the round trip.
  std::vector<double> gpu = {1.000, 1.002, 0.999, 1.001}, trusted = {1.041, 1.043, 1.040, 1.042};
  auto b = bound_timing(gpu, trusted, typical_overhead());
  EXPECT_EQ(b.charged, "gpu");
  EXPECT_EQ(b.charged_ms, gpu);
  EXPECT_FALSE(b.suspicious);
}

TEST(TrustedTiming, TinyHonestKernelKeepsItsGpuSpan) {
  // 3 us of GPU work: the round trip dwarfs it, and that is no reason to charge more.
  std::vector<double> gpu(9, 0.003), trusted(9, 0.044);
  auto b = bound_timing(gpu, trusted, typical_overhead());
  EXPECT_EQ(b.charged, "gpu");
}

TEST(TrustedTiming, TraceThatMissedWorkIsChargedTheTrustedTime) {
  // Tracing switched off during the real work: the trace saw a 2 us decoy, the call took 1.2 ms.
  std::vector<double> gpu(5, 0.002), trusted = {1.240, 1.238, 1.242, 1.241, 1.239};
  auto b = bound_timing(gpu, trusted, typical_overhead());
  EXPECT_EQ(b.charged, "trusted");
  ASSERT_EQ(b.charged_ms.size(), 5u);
  EXPECT_NEAR(b.charged_ms[0], 1.240 - 0.040, 1e-9);
  EXPECT_FALSE(b.suspicious);
  EXPECT_NEAR(b.trusted_median_ms, 1.240, 1e-9);
  EXPECT_NEAR(b.gpu_median_ms, 0.002, 1e-9);
}

TEST(TrustedTiming, HostWorkInsideSolveIsCharged) {
  // A cudaMalloc and cudaFree per call: 150 us of host time around 100 us of kernels.
  std::vector<double> gpu(7, 0.100), trusted(7, 0.290);
  auto b = bound_timing(gpu, trusted, typical_overhead());
  EXPECT_EQ(b.charged, "trusted");
  EXPECT_NEAR(b.charged_ms[3], 0.250, 1e-9);
}

TEST(TrustedTiming, JustInsideTheAllowanceStaysGpu) {
  const judge::Overhead o = typical_overhead();
  std::vector<double> gpu(3, 1.0);
  const double allowance = o.p90_ms + judge::kRelative * 1.0 + judge::kAbsoluteMs;
  EXPECT_EQ(bound_timing(gpu, std::vector<double>(3, 1.0 + allowance * 0.99), o).charged, "gpu");
  EXPECT_EQ(bound_timing(gpu, std::vector<double>(3, 1.0 + allowance * 1.01), o).charged, "trusted");
}

TEST(TrustedTiming, SpanLongerThanTheCallIsImpossible) {
  // A forged report: 5 ms of GPU time in calls that lasted 1 ms.
  std::vector<double> gpu(5, 5.0), trusted(5, 1.0);
  auto b = bound_timing(gpu, trusted, typical_overhead());
  ASSERT_TRUE(b.suspicious);
  EXPECT_NE(b.suspicious->find("5 ms"), std::string::npos) << *b.suspicious;
  EXPECT_NE(b.suspicious->find("1 ms"), std::string::npos) << *b.suspicious;
}

TEST(TrustedTiming, SpanEqualToTheCallIsNotSuspicious) {
  // Clock granularity: a span a hair above the trusted time is not a forgery.
  std::vector<double> gpu(5, 0.500), trusted(5, 0.502);
  EXPECT_FALSE(bound_timing(gpu, trusted, judge::Overhead{}).suspicious);
  EXPECT_FALSE(bound_timing(std::vector<double>(5, 0.504), trusted, judge::Overhead{}).suspicious);
}

}  // namespace
