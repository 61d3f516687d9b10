#pragma once
// Putting an accepted run on the leaderboard (`judge submit`, `judge batch`). If the database cannot take it, the
// result is written beside it as a JSON file and the outcome says where: nothing is lost.
#include <filesystem>
#include <string>

#include "judge/core/judging.hpp"
#include "judge/core/report.hpp"

namespace judge::cli {

RecordOutcome record_submission(const JudgeReport& r, const std::string& user, const std::filesystem::path& db);

}  // namespace judge::cli
