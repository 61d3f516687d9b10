// `judge report`: one self-contained HTML page from what is stored (leaderboard, saved results, calibrations,
// specs). It reads only, so it runs anywhere the database is, GPU or not.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "judge/cli/cli.hpp"
#include "judge/core/base/leaderboard_location.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/measure/calibration.hpp"
#include "judge/core/present/html_report.hpp"
#include "judge/core/store/leaderboard.hpp"

namespace judge::cli {

namespace {
struct ReportOptions {
  std::string challenge;
  std::string gpu;
  std::string output = "judge-report.html";
  std::string db;
  std::string calibration;
};

void write_page(const ReportData& data, const std::filesystem::path& file) {
  std::ostringstream page;
  write_html_report(data, page);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << page.str();
  out.close();
  if (!out)
    JUDGE_THROW(Error, "cannot write the report {} ({}): is its directory there and writable? -o names another file",
                file.string(), std::strerror(errno));
}

int run_report(const GlobalOptions& g, const ReportOptions& o, Reporter& rep) {
  namespace fs = std::filesystem;
  const std::string db = o.db.empty() ? default_database_path().string() : o.db;
  // A PostgreSQL server is asked (a database without the tables reads as empty); a missing SQLite file is only an
  // error when there are no saved results to report either.
  std::error_code ec;
  const bool exists = is_postgres_location(db) || fs::exists(db, ec);
  std::optional<Leaderboard> board;
  if (exists) board.emplace(db, Leaderboard::Access::read_only);
  const CalibrationStore calibrations(o.calibration.empty() ? CalibrationStore::default_path()
                                                            : fs::path(o.calibration));
  ReportScope scope;
  if (!o.challenge.empty()) scope.challenge = o.challenge;
  if (!o.gpu.empty()) scope.gpu = o.gpu;
  ReportData data = gather_report(board ? &*board : nullptr, display_location(db), calibrations,
                                  challenges_root(g), pending_dirs(db), scope);
  if (data.boards.empty()) {
    if (!exists) Leaderboard{db, Leaderboard::Access::read_only};  // throws, naming the missing file
    if (scope.challenge) find_challenge(challenges_root(g), *scope.challenge);  // a typo gets suggestions
    std::string what = scope.challenge ? " for " + *scope.challenge : "";
    if (scope.gpu) what += " on " + *scope.gpu;
    JUDGE_THROW(Error, "{} has no accepted submissions{} yet, so there is nothing to report: `judge submit "
                       "<challenge> <file>` records one (--db / JUDGE_DB name another database{})",
                display_location(db), what, scope.challenge || scope.gpu ? "; without --challenge and --gpu, every board" : "");
  }
  write_page(data, o.output);
  rep.html_report_written(data, o.output, std::cout);
  return kExitOk;
}
}  // namespace

void setup_report(CLI::App& app, const GlobalOptions& g) {
  auto opt = std::make_shared<ReportOptions>();
  auto* sub = app.add_subcommand("report", "Write one self-contained HTML page: rankings, scores over time, and each "
                                           "submission's cases and roofline (reads the database; needs no GPU)");
  sub->add_option("--challenge", opt->challenge, "Only this challenge (default: every challenge with entries)");
  sub->add_option("--gpu", opt->gpu, "Only this GPU (exact name as shown); default: every GPU with entries");
  sub->add_option("-o,--output", opt->output, "The HTML file to write")->capture_default_str();
  sub->add_option("--db", opt->db, "Leaderboard database: an SQLite file, or a postgresql:// URI")->envname("JUDGE_DB");
  sub->add_option("--calibration", opt->calibration, "GPU ceilings file (default: calibration.json beside the "
                                                     "default database)")
      ->envname("JUDGE_CALIBRATION");
  sub->callback([opt, &g] { exit_code() = guarded(g, [&](Reporter& rep) { return run_report(g, *opt, rep); }); });
}

}  // namespace judge::cli
