#pragma once
// Everything the CLI prints goes through a Reporter: one interface, one implementation per format (human console
// output with optional colour, machine-readable JSON), each writing to an injected stream so tests read it back.
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "judge/core/challenge/catalog.hpp"
#include "judge/core/measure/calibration.hpp"
#include "judge/core/present/html_report.hpp"
#include "judge/core/run/judging.hpp"
#include "judge/core/run/ladder.hpp"
#include "judge/core/run/profile.hpp"
#include "judge/core/store/leaderboard.hpp"

namespace judge {

struct LeaderboardView {
  std::string challenge;
  std::string gpu_name;
  std::vector<RankingEntry> ranking;
};

struct RecordOutcome {
  bool attempted = false;  // only accepted submits are recorded
  bool recorded = false;
  std::int64_t submission_id = 0;
  int rank = 0;            // the user's rank right after this submission was recorded
  int ranked = 0;          // of how many users, then
  std::string database;
  std::string error;       // why it could not be recorded
  std::string saved_to;    // where the result was kept instead, so nothing is lost
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void challenge_list(const std::vector<CatalogEntry>& entries, std::ostream& out) = 0;
  virtual void challenge_detail(const Challenge& c, const std::string& statement, std::ostream& out) = 0;
  virtual void initialised(const Challenge& c, const std::string& path, std::ostream& out) = 0;
  virtual void judge_result(const JudgeReport& r, const std::string& source, const RecordOutcome& record,
                            std::ostream& out) = 0;
  virtual void leaderboard(const std::vector<LeaderboardView>& views, std::ostream& out) = 0;
  // `judge leaderboard` without a challenge: each challenge and GPU with entries, its leader and how many take part.
  virtual void leaderboard_overview(const std::vector<BoardSummary>& boards, const std::string& database,
                                    std::ostream& out) = 0;
  // A GPU's ceilings (`judge calibrate`): measured just now, or found in the store; stored_in is the store's file.
  virtual void calibration(const Calibration& c, bool measured_now, const std::string& stored_in,
                           std::ostream& out) = 0;
  // `judge report` wrote its page to `file`: what it covers, and why some charts have no roofs.
  virtual void html_report_written(const ReportData& data, const std::string& file, std::ostream& out) = 0;
  // `judge profile` of an accepted call: per kernel solve() launched, what Nsight Compute measured, and the report.
  virtual void profile(const ProfileReport& p, const std::string& source, std::ostream& out) = 0;
  // `judge ladder`: every rung side by side; chart_file is where its chart was written (empty: none).
  virtual void ladder(const Ladder& ladder, const std::string& chart_file, std::ostream& out) = 0;
  virtual void error(const std::string& message, std::ostream& out) = 0;
};

std::unique_ptr<Reporter> make_console_reporter(bool color);
std::unique_ptr<Reporter> make_json_reporter();

// Human formatting helpers, shared by reporters and tests.
std::string format_duration_ms(double ms);  // "812 ns", "17.1 µs", "2.35 ms", "1.20 s"
std::string format_rate(double per_second, const char* unit);  // "8.04 T" + unit, ...
// A run's protections with one entry per name, in the order first met; a name met twice (the worker and the solver
// both report some) is off if either says so, with that one's reason.
std::vector<Protection> merge_protections(const std::vector<Protection>& protections);
// The same in one line, as `judge submit` prints it after "sandbox: ": the ones on by name, then the ones off with
// why ("landlock, seccomp, compile sandbox · off: uid drop (judge not running as root: ...)"). Empty when nothing
// was recorded (runs recorded before protections were).
std::string protections_text(const std::vector<Protection>& protections);
// The `judge run` command that replays a rejected run: its seed, the failed case and, when a later call of that case
// failed, `--call N`; the source is a shell word. Empty when there is nothing to replay (accepted, compile error, no
// device).
std::string replay_command(const JudgeReport& r, const std::string& source);
// The same for one case of the run that failed (a stress case's failure, reported beside an accepted verdict).
std::string replay_case_command(const JudgeReport& r, const std::string& source, const CaseResult& c);

}  // namespace judge
