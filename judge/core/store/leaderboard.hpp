#pragma once
// The leaderboard: one SQLite file on one machine (the default, embedded), or one PostgreSQL database that judges on
// many machines share (a postgresql:// location; leaderboard_location.hpp). One row per accepted submission
// (rejected runs never write), per-case results and the full source beside it so any entry can be re-run. Ranking is
// per challenge per GPU, best run per user; history is kept. Writes are single transactions that read the new rank
// before they commit, so concurrent judges lose nothing, duplicate nothing and each sees its own moment. Both
// storages sit behind LeaderboardStore (leaderboard_store.hpp) and read back the same.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/core/base/error.hpp"
#include "judge/core/sandbox/protections.hpp"

namespace judge {

class LeaderboardError : public Error {
 public:
  using Error::Error;
};

struct CaseRecord {
  std::string name;
  double median_ms = 0;
  double min_ms = 0;
  double spread_pct = 0;  // relative spread of the samples (see timing)
  int samples = 0;
  double gflops = 0;
  double gbps = 0;
  double reference_ms = 0;
  // A case beyond the statement's promises (its sizes or values go past what the statement guarantees): reported
  // apart, never part of the score.
  bool stress = false;
  std::string verdict;  // empty or "accepted" when accepted; else the verdict's name
  std::string beyond;   // for a stress case, the message naming the promise it goes past
};

struct SubmissionRecord {
  std::int64_t id = 0;             // assigned by record()
  std::string challenge;
  std::string user;
  std::string gpu_name;
  std::string compute_capability;  // "9.0"
  std::string created_at;          // ISO 8601 UTC, assigned by record() if empty
  double score_ms = 0;             // geometric mean of the benchmark medians; lower is better
  std::string source_hash;         // sha256 of the source text
  std::string source;
  std::string judge_version;
  std::vector<CaseRecord> cases;
  // What kept the submission from the judge's records when it ran (JudgeReport::protections). Empty for runs
  // recorded before judges recorded it (schema version 1): "not recorded", not "none".
  std::vector<Protection> protections;
  // Names the run across attempts (a batch shard resumed after a failure judges it again): when not empty, at most
  // one submission has it, and recording it a second time inserts nothing (Recorded::duplicate). Empty: none.
  std::string run_key;
};

struct RankingEntry {
  int rank = 0;
  std::string user;
  double score_ms = 0;
  std::int64_t submission_id = 0;
  std::string created_at;
  int attempts = 0;  // accepted submissions by this user on this challenge and GPU
};

// What record() did: the new submission's id and where its user stands right after it, read in the same
// transaction as the insert, so another judge's insert cannot slip in between.
// A submission whose run_key was already recorded is not inserted again: id is the existing row's, duplicate is set,
// and the rank is its user's current one.
struct Recorded {
  std::int64_t id = 0;
  int rank = 0;    // the user's place on this challenge and GPU (with their best run, which may be an earlier one)
  int ranked = 0;  // how many users the ranking had then
  bool duplicate = false;
};

// One challenge on one GPU, for the overview: who leads and how many take part.
struct BoardSummary {
  std::string challenge;
  std::string gpu_name;
  std::string leader;  // the user ranked first
  double score_ms = 0;
  std::int64_t submission_id = 0;
  std::string created_at;
  int users = 0;
  int submissions = 0;
};

class LeaderboardStore;

class Leaderboard {
 public:
  // read_write creates what is missing (directories, file, schema) and refuses a file it could not write;
  // read_only (reports) creates nothing and writes nothing: a missing file is an error naming it, and a file with no
  // tables yet reads as empty.
  enum class Access { read_write, read_only };

  // Opens the leaderboard at location: a postgresql:// (or postgres://) URI is a PostgreSQL database, anything else an
  // SQLite file (creating directories, file or tables as needed). Throws LeaderboardError naming the location
  // (password hidden) and what to do when it cannot be reached, is not a leaderboard, is corrupt, is read-only, or
  // has a newer schema, and for a PostgreSQL location when this judge was built without libpq.
  explicit Leaderboard(const std::string& location, Access access = Access::read_write);
  ~Leaderboard();
  Leaderboard(const Leaderboard&) = delete;
  Leaderboard& operator=(const Leaderboard&) = delete;

  // Inserts the submission and its cases in one transaction and ranks its user in that same transaction (a run_key
  // already recorded inserts nothing). Waits for a lock held by another judge up to the busy timeout, then throws
  // LeaderboardError (nothing half-written).
  Recorded record(SubmissionRecord submission);

  // Best accepted run per user for this challenge on this GPU, best (lowest score) first.
  std::vector<RankingEntry> ranking(const std::string& challenge, const std::string& gpu_name) const;
  // GPU names that have entries for this challenge.
  std::vector<std::string> gpus(const std::string& challenge) const;
  // Every challenge and GPU with entries, by challenge then GPU name.
  std::vector<BoardSummary> overview() const;
  // Every accepted run for the challenge (optionally one user's), newest first, with cases and source.
  std::vector<SubmissionRecord> history(const std::string& challenge,
                                        const std::optional<std::string>& user = std::nullopt) const;
  std::optional<SubmissionRecord> get(std::int64_t id) const;

  // Where it is, as messages show it (a password in a URI hidden).
  const std::string& location() const { return location_; }

  // How long a write waits for another judge's lock before giving up (10 s unless set). Tests shorten it.
  void set_busy_timeout(std::chrono::milliseconds timeout);

 private:
  std::string location_;
  Access access_;
  std::unique_ptr<LeaderboardStore> store_;
  // One connection runs one transaction at a time; this keeps a Leaderboard shared between threads from
  // interleaving statements of different transactions.
  mutable std::mutex mutex_;
};

nlohmann::json to_json(const SubmissionRecord& s);
// The inverse of to_json(SubmissionRecord): reads a result saved beside the database when it could not be recorded.
// Throws nlohmann::json::exception when a field is missing or of the wrong type.
SubmissionRecord submission_from_json(const nlohmann::json& j);
nlohmann::json to_json(const RankingEntry& r);
nlohmann::json to_json(const BoardSummary& b);

}  // namespace judge
