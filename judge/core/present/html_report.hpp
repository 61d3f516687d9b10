#pragma once
// `judge report`: one self-contained HTML page (inline CSS and SVG, no script, nothing fetched) made from what is
// stored — the leaderboard database, results saved beside it when they could not be recorded, the GPUs'
// calibrations and the challenge specs — so it needs no GPU. Per challenge and GPU: the ranking and each user's
// scores over time; per submission: the cases table of `judge submit` and a roofline (the GPU's calibrated ceilings
// as roofs, each benchmark case at its arithmetic intensity and achieved rate, the reference beside it); per ladder:
// the rung chart. Gathering (gather_report) is apart from drawing (write_html_report), so tests can draw hand-made
// data.
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "judge/core/challenge/spec.hpp"
#include "judge/core/measure/calibration.hpp"
#include "judge/core/store/leaderboard.hpp"

namespace judge {

// A result `judge submit` saved as JSON because the database could not take it (see cmd_run.cpp).
struct SavedResult {
  std::filesystem::path file;
  SubmissionRecord record;
};

// One challenge on one GPU.
struct BoardReport {
  std::string challenge;
  std::string gpu_name;
  std::optional<Challenge> spec;            // for the title, case sizes and the compute roof; absent if not found
  std::optional<Calibration> calibration;   // the roofs; absent when this GPU was never calibrated
  std::string calibration_note;             // why there are no roofs, when there are none
  std::vector<RankingEntry> ranking;        // best run per user, best first
  std::vector<SubmissionRecord> runs;       // every accepted run on this GPU, newest first
  std::vector<SavedResult> saved;           // results saved beside the database, not in it
};

// The rungs of one optimisation ladder (submissions/<challenge>/N_name.cu) timed on one GPU. For `judge ladder`'s
// results once they are stored: today it prints and charts them (judge/core/run/ladder.hpp) but stores nothing, so no
// ladder is gathered and the page has no ladder section.
struct LadderRung {
  std::string name;  // "1_naive"
  double score_ms = 0;
};
struct LadderReport {
  std::string challenge;
  std::string gpu_name;
  double reference_ms = 0;  // the reference's score on the same cases; 0 when unknown
  std::vector<LadderRung> rungs;
};

struct ReportData {
  std::string database;          // the leaderboard file read
  std::string calibration_file;  // the calibration store read
  std::string generated_at;      // ISO 8601 UTC
  std::string judge_version;
  std::vector<BoardReport> boards;    // by challenge, then GPU
  std::vector<LadderReport> ladders;  // empty: the section is left out
  std::vector<std::string> notes;     // things the reader should know (saved files that could not be read, ...)
  std::size_t submission_count() const;
};

struct ReportScope {
  std::optional<std::string> challenge;  // only this challenge
  std::optional<std::string> gpu;        // only this GPU (exact name)
};

// Gathers the page's content. board may be null (no database file) when saved results are reported alone.
// saved_dirs: where `judge submit` saves results it could not record (<database dir>/pending, <cache>/pending).
// Specs come from challenges_root when there is a folder of that id; a missing or broken spec only costs the
// titles and sizes.
ReportData gather_report(const Leaderboard* board, const std::string& database, const CalibrationStore& calibrations,
                         const std::filesystem::path& challenges_root,
                         const std::vector<std::filesystem::path>& saved_dirs, const ReportScope& scope);

void write_html_report(const ReportData& data, std::ostream& out);

}  // namespace judge
