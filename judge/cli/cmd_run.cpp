// `judge run` (functional tests, fast feedback) and `judge submit` (all tests + benchmarks, recorded when
// accepted). Both build, judge in a worker process and report; they differ in what runs and what is kept.
#include <chrono>
#include <fstream>

#include <unistd.h>

#include "judge/cli/cli.hpp"
#include "judge/cli/record.hpp"
#include "judge/core/calibration.hpp"
#include "judge/core/leaderboard.hpp"
#include "judge/core/sanitizer.hpp"
#include "judge/core/paths.hpp"
#include "judge/core/progress_line.hpp"
#include "judge/core/run_progress.hpp"
#include "judge/core/version.hpp"

namespace judge::cli {

namespace {

struct RunOptions {
  Mode mode = Mode::run;
  std::string challenge;
  std::string source;
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::vector<std::string> cases;
  int call = 1;
  double timeout_s = 0;
  int device = 0;
  std::string arch;
  bool no_cupti = false;
  bool no_reference_timing = false;
  std::string sanitize;  // run: compute-sanitizer tool
  double warmup_s = 0;
  bool no_calibration = false;
  std::vector<std::string> nvcc_flags;
  // submit
  std::string user;
  std::string db;
  double budget_s = 0;
  int min_samples = 0;
  double noise_pct = 0;
};

// The GPU's ceilings for speed-of-light and the physical floor: measured the first time this GPU is seen.
std::optional<Calibration> calibration_for(const GlobalOptions& g, const JudgeOptions& jo) {
  ProbeResult probe = probe_devices(jo.worker);
  if (jo.device < 0 || jo.device >= static_cast<int>(probe.devices.size())) return std::nullopt;
  try {
    return ensure_calibration(jo.worker, probe.devices[jo.device], !g.json && ::isatty(STDERR_FILENO), std::cerr);
  } catch (const std::exception& e) {
    if (!g.json) std::cerr << "warning: no calibration, so no speed-of-light figures: " << e.what() << "\n";
    return std::nullopt;
  }
}

void add_common(CLI::App* sub, RunOptions& o) {
  sub->add_option("challenge", o.challenge, "Challenge id (see `judge list`)")->required();
  sub->add_option("file", o.source, "Your solve.cu")->required()->check(CLI::ExistingFile);
  sub->add_option("--timeout", o.timeout_s, "Seconds one solve() call may take (default: the challenge's)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--device", o.device, "CUDA device ordinal")->check(CLI::NonNegativeNumber);
  sub->add_option("--arch", o.arch, "GPU architecture to compile for, e.g. sm_90 (default: the device's)");
  sub->add_option("--nvcc-flag", o.nvcc_flags, "Extra flag for nvcc (repeatable), e.g. --nvcc-flag=-maxrregcount=64");
  sub->add_flag("--no-cupti", o.no_cupti, "Time with CUDA events on the default stream instead of CUPTI records");
}

int run_judge(const GlobalOptions& g, const RunOptions& o) {
  return guarded(g, [&](Reporter& rep) {
    Challenge c = find_challenge(challenges_root(g), o.challenge);
    JudgeOptions jo;
    jo.mode = o.mode;
    if (o.seed_given) jo.seed = o.seed;
    if (o.timeout_s > 0) jo.timeout_s = o.timeout_s;
    jo.cases = o.cases;
    jo.calls = o.call;
    jo.device = o.device;
    jo.arch = o.arch;
    jo.cupti = !o.no_cupti;
    jo.time_reference = !o.no_reference_timing;
    jo.nvcc_flags = o.nvcc_flags;
    if (o.budget_s > 0) jo.timing.budget_s = o.budget_s;
    if (o.min_samples > 0) jo.timing.min_samples = o.min_samples;
    if (o.noise_pct > 0) jo.timing.target_noise_pct = o.noise_pct;
    if (o.warmup_s > 0) jo.timing.warmup_s = o.warmup_s;
    if (!o.sanitize.empty()) jo.sanitize = parse_sanitizer_tool(o.sanitize);
    jo.cache_dir = cache_dir();
    jo.worker = worker_path();
    if (o.mode == Mode::submit && !o.no_calibration) jo.calibration = calibration_for(g, jo);
    jo.lock_holder = fmt::format("judge submit by {}", o.user.empty() ? default_user_name() : o.user);
    // On a terminal, one line that says where the run is, erased before the report; never under --json or when
    // stdout is a file or a pipe.
    ProgressLine line(std::cout);
    if (!g.json && ::isatty(STDOUT_FILENO))
      jo.on_progress = [&line](const RunProgress& p) { line.update(progress_text(p), progress_fraction(p)); };
    // Said on stderr, also under --json (stdout stays one JSON document): a judge that waits says why.
    jo.on_notice = [&line](const std::string& text) {
      line.finish();
      std::cerr << text << std::endl;
    };
    JudgeReport r = judge_submission(c, o.source, jo);
    line.finish();
    RecordOutcome rec;
    if (o.mode == Mode::submit && r.accepted())
      rec = record_submission(r, o.user.empty() ? default_user_name() : o.user,
                              o.db.empty() ? default_database_path() : std::filesystem::path(o.db));
    rep.judge_result(r, o.source, rec, std::cout);
    return r.accepted() ? kExitOk : kExitRejected;
  });
}

}  // namespace

void setup_run(CLI::App& app, const GlobalOptions& g) {
  auto run = std::make_shared<RunOptions>();
  auto* r = app.add_subcommand("run", "Compile and run the functional tests (fast feedback; nothing is recorded)");
  add_common(r, *run);
  r->add_option("--seed", run->seed, "Seed for the inputs: replays a failure exactly")
      ->each([run](const std::string&) { run->seed_given = true; });
  r->add_option("--case", run->cases, "Run only this case (repeatable); a benchmark case runs untimed, as checked calls "
                                      "(see --call)");
  r->add_option("--call", run->call,
                "Replay call N of each case, as `judge submit` made it: calls 1..N run, each with its own inputs, "
                "each checked (default 1)")
      ->check(CLI::PositiveNumber);
  r->add_flag("--sanitize{memcheck}", run->sanitize,
              "Run under compute-sanitizer: --sanitize (memcheck) or --sanitize=racecheck|initcheck|synccheck")
      ->check(CLI::IsMember({"memcheck", "racecheck", "initcheck", "synccheck"}));
  r->callback([run, &g] { exit_code() = run_judge(g, *run); });

  auto submit = std::make_shared<RunOptions>();
  submit->mode = Mode::submit;
  auto* s = app.add_subcommand("submit", "Run every test and time the benchmarks; accepted runs join the leaderboard");
  add_common(s, *submit);
  s->add_option("--name", submit->user, "Your name on the leaderboard (default: $JUDGE_USER, else your login)");
  s->add_option("--db", submit->db, "Leaderboard database file")->envname("JUDGE_DB");
  s->add_option("--budget", submit->budget_s, "Seconds of timed calls per benchmark case, at most (default 3)")
      ->check(CLI::PositiveNumber);
  s->add_option("--min-samples", submit->min_samples, "Timed calls per benchmark case, at least (default 10)")
      ->check(CLI::PositiveNumber);
  s->add_option("--noise", submit->noise_pct, "Stop sampling once the relative noise is below this percentage "
                                              "(default 0.5)")
      ->check(CLI::PositiveNumber);
  s->add_flag("--no-reference-timing", submit->no_reference_timing, "Skip timing the reference (no speedup column)");
  s->add_option("--warmup", submit->warmup_s, "Seconds of warm-up calls per benchmark case (default 0.1)")
      ->check(CLI::PositiveNumber);
  s->add_flag("--no-calibration", submit->no_calibration,
              "Do not measure or use this GPU's ceilings (no speed-of-light, no physical-floor check)");
  s->callback([submit, &g] { exit_code() = run_judge(g, *submit); });
}

}  // namespace judge::cli
