#pragma once
// The storage behind Leaderboard: one implementation per database (leaderboard_sqlite.cpp, leaderboard_postgres.cpp),
// each with the same tables (schema kLeaderboardSchema), the same ranking rules and the same results. Leaderboard
// picks one by the location's form, fills in what record() assigns, and keeps one thread at a time on a store.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/store/leaderboard.hpp"

namespace judge {

// Bump with a migration in every store whenever the tables change; older judges then refuse the database instead
// of misreading it.
//   1: submissions and case_results.
//   2: submissions.protections, each run's protections as a JSON array ('[]' for runs recorded under version 1).
//   3: submissions.run_key (unique when set); case_results.stress, verdict and beyond.
inline constexpr int kLeaderboardSchema = 3;

// Long enough for another judge's insert (milliseconds) even on a slow disk, short enough that a judge stuck
// holding the lock is reported rather than waited on forever.
inline constexpr std::chrono::milliseconds kDefaultBusyTimeout{10'000};

class LeaderboardStore {
 public:
  virtual ~LeaderboardStore() = default;
  // s is complete (created_at, source_hash, judge_version set). In one transaction: inserts s and its cases unless
  // its run_key is already recorded, then ranks the user.
  virtual Recorded record(const SubmissionRecord& s) = 0;
  virtual std::vector<RankingEntry> ranking(const std::string& challenge, const std::string& gpu_name) = 0;
  virtual std::vector<std::string> gpus(const std::string& challenge) = 0;
  virtual std::vector<BoardSummary> overview() = 0;
  virtual std::vector<SubmissionRecord> history(const std::string& challenge,
                                                const std::optional<std::string>& user) = 0;
  virtual std::optional<SubmissionRecord> get(std::int64_t id) = 0;
  virtual void set_busy_timeout(std::chrono::milliseconds timeout) = 0;
};

std::unique_ptr<LeaderboardStore> open_sqlite_store(const std::string& path, Leaderboard::Access access);
// Only in a judge built with libpq (JUDGE_HAVE_LIBPQ); Leaderboard says how to get one otherwise.
std::unique_ptr<LeaderboardStore> open_postgres_store(const std::string& uri, Leaderboard::Access access);

// What both stores share.
namespace store {
// The stored list of protections; a text that is not one (edited by hand) reads as a single protection, off,
// saying so, rather than as "not recorded" or as an error that would hide the rest of the leaderboard.
std::vector<Protection> protections_from_text(const std::string& text);
// What record() returns, from the ranking read in its transaction.
Recorded recorded(std::int64_t id, const std::string& user, const std::vector<RankingEntry>& ranking,
                  bool duplicate);
}  // namespace store

}  // namespace judge
