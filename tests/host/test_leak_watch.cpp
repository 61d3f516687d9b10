// When the memory solve() keeps across a benchmark's calls is a leak (judge/core/measure/leak_watch.hpp): a steady
// leak is caught and named with its instrument, one-time scratch and memory that comes back are not.
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>

#include "judge/core/measure/leak_watch.hpp"

namespace {

using judge::LeakWatch;
using judge::MemorySource;

constexpr std::size_t kMiB = std::size_t(1) << 20;

// Drives the watch through `calls` calls, each keeping `per_call` on top of `held`; returns the first message and
// the call (1-based) it came at.
struct Outcome {
  std::optional<std::string> message;
  int at_call = 0;
};
Outcome run(LeakWatch& w, std::size_t& held, int calls, std::size_t per_call) {
  for (int i = 1; i <= calls; ++i) {
    const std::size_t before = held;
    held += per_call;
    if (auto m = w.after_call(before, held, [&] { return held; })) return {m, i};
  }
  return {};
}

TEST(LeakWatch, SteadyLeakIsCaughtOnceStreakAndTotalAgree) {
  LeakWatch w(MemorySource::solver);
  std::size_t held = 600 * kMiB;
  Outcome o = run(w, held, 100, 64 * kMiB);
  ASSERT_TRUE(o.message);
  EXPECT_EQ(o.at_call, 4) << "4 calls of 64 MiB are the streak and the 256 MiB";
  EXPECT_NE(o.message->find("solve() leaks device memory"), std::string::npos) << *o.message;
  EXPECT_NE(o.message->find("256 MiB in 4 calls"), std::string::npos) << *o.message;
  EXPECT_NE(o.message->find("the solver's own device memory"), std::string::npos) << *o.message;
}

TEST(LeakWatch, SmallLeakNeedsTheTotal) {
  LeakWatch w(MemorySource::solver);
  std::size_t held = 0;
  Outcome o = run(w, held, 100, 8 * kMiB);
  ASSERT_TRUE(o.message);
  EXPECT_EQ(o.at_call, 32) << "8 MiB a call reaches 256 MiB at call 32";
}

TEST(LeakWatch, BelowEightMiBPerCallIsNeverALeak) {
  LeakWatch w(MemorySource::solver);
  std::size_t held = 0;
  EXPECT_FALSE(run(w, held, 1000, 8 * kMiB - 1).message);
}

TEST(LeakWatch, OneTimeScratchIsNoStreak) {
  // A cache allocated at the first call and kept: one call keeps 1 GiB, the rest nothing.
  LeakWatch w(MemorySource::solver);
  std::size_t held = 0;
  EXPECT_FALSE(run(w, held, 1, 1024 * kMiB).message);
  EXPECT_FALSE(run(w, held, 200, 0).message);
}

TEST(LeakWatch, AStreakBrokenByACallThatKeepsNothingStartsOver) {
  LeakWatch w(MemorySource::solver);
  std::size_t held = 0;
  for (int round = 0; round < 50; ++round) {
    EXPECT_FALSE(run(w, held, 3, 100 * kMiB).message) << "round " << round;
    EXPECT_FALSE(run(w, held, 1, 0).message) << "round " << round;
  }
}

TEST(LeakWatch, MemoryThatCameBackIsNoLeak) {
  // Device-wide: another process allocated inside four of our calls and freed it before the check.
  LeakWatch w(MemorySource::device);
  std::size_t held = 1024 * kMiB;
  const std::size_t start = held;
  for (int i = 0; i < 4; ++i) {
    const std::size_t before = held;
    held += 100 * kMiB;
    EXPECT_FALSE(w.after_call(before, held, [&] { return start; })) << "call " << i + 1;
  }
  // The streak and total were reset: the next leak must build its own.
  held = start;
  Outcome o = run(w, held, 10, 64 * kMiB);
  ASSERT_TRUE(o.message);
  EXPECT_EQ(o.at_call, 4);
  EXPECT_NE(o.message->find("device-wide"), std::string::npos) << *o.message;
}

TEST(LeakWatch, FreedMemoryBetweenReadingsIsNotNegative) {
  // A call that frees more than it allocates (held goes down) keeps nothing, and breaks a streak.
  LeakWatch w(MemorySource::solver);
  std::size_t held = 2048 * kMiB;
  EXPECT_FALSE(run(w, held, 3, 100 * kMiB).message);
  EXPECT_FALSE(w.after_call(held, held - 512 * kMiB, [&] { return held; }));
  held -= 512 * kMiB;
  EXPECT_FALSE(run(w, held, 3, 100 * kMiB).message);
}

TEST(LeakWatch, SourcesHaveNames) {
  EXPECT_STREQ(judge::memory_source_name(MemorySource::solver), "solver");
  EXPECT_STREQ(judge::memory_source_name(MemorySource::device), "device");
}

}  // namespace
