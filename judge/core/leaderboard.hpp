#pragma once
// The local leaderboard: one SQLite file. One row per accepted submission (rejected runs never write), per-case
// results and the full source beside it so any entry can be re-run. Ranking is per challenge per GPU, best run per
// user; history is kept. Writes are single transactions with a busy timeout, so concurrent judges lose nothing.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/core/error.hpp"
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
  // A stress case (beyond the statement's promises): recorded with its own verdict, never part of the score.
  bool stress = false;
  std::string beyond;                // the promise it goes past, as the judge printed it
  std::string verdict = "accepted";  // a stress case may have failed in an accepted run
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
  std::string run_key;  // non-empty: this run's identity (`judge batch --slurm`: job, index, hash), recorded once
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
struct Recorded {
  std::int64_t id = 0;
  int rank = 0;    // the user's place on this challenge and GPU (with their best run, which may be an earlier one)
  int ranked = 0;  // how many users the ranking had then
  bool duplicate = false;  // a run of this run_key was already recorded: nothing inserted, id is that run's
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

class Leaderboard {
 public:
  // read_write creates what is missing (directories, file, schema) and refuses a file it could not write;
  // read_only (reports) creates nothing and writes nothing: a missing file is an error naming it, and a file with no
  // tables yet reads as empty.
  enum class Access { read_write, read_only };

  // Opens (creating directories, file and schema as needed). Throws LeaderboardError naming the path and what to
  // do when the file is not a database, is corrupt, is read-only, or has a newer schema.
  explicit Leaderboard(const std::filesystem::path& path, Access access = Access::read_write);
  ~Leaderboard();
  Leaderboard(const Leaderboard&) = delete;
  Leaderboard& operator=(const Leaderboard&) = delete;

  // Inserts the submission and its cases in one transaction and ranks its user in that same transaction. Waits for a
  // lock held by another judge up to the busy timeout, then throws LeaderboardError (nothing half-written).
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

  const std::filesystem::path& path() const { return path_; }

  // How long a write waits for another judge's lock before giving up (10 s unless set). Tests shorten it.
  void set_busy_timeout(std::chrono::milliseconds timeout);

 private:
  std::filesystem::path path_;
  struct Db;
  Db* db_ = nullptr;
};

nlohmann::json to_json(const SubmissionRecord& s);
// The inverse of to_json(SubmissionRecord): reads a result saved beside the database when it could not be recorded.
// Throws nlohmann::json::exception when a field is missing or of the wrong type.
SubmissionRecord submission_from_json(const nlohmann::json& j);
nlohmann::json to_json(const RankingEntry& r);
nlohmann::json to_json(const BoardSummary& b);

}  // namespace judge
