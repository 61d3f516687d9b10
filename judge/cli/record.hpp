#pragma once
// Putting an accepted run on the leaderboard (`judge submit`, `judge batch`). If the database cannot take it, the
// result is written as a JSON file beside it (or, for a PostgreSQL database, in the judge's data folder; see
// pending_dirs()) and the outcome says where: nothing is lost.
#include <string>

#include "judge/core/present/report.hpp"
#include "judge/core/run/judging.hpp"

namespace judge::cli {

// database: an SQLite file or a postgresql:// URI (leaderboard_location.hpp). run_key, when not empty, identifies the
// run on the leaderboard (SubmissionRecord::run_key): a run recorded again under the same key (a Slurm task judging
// again what it judged before it was killed) is not recorded twice.
RecordOutcome record_submission(const JudgeReport& r, const std::string& user, const std::string& database,
                                const std::string& run_key = {});

}  // namespace judge::cli
