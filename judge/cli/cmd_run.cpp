// `judge run` (functional tests, fast feedback) and `judge submit` (all tests + benchmarks, recorded when
// accepted). Both build, judge in a worker process and report; they differ in what runs and what is kept.
#include <chrono>
#include <ctime>
#include <fstream>

#include "judge/cli/cli.hpp"
#include "judge/cli/record.hpp"
#include "judge/core/store/leaderboard.hpp"
#include "judge/core/run/sanitizer.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/base/phase_times.hpp"
#include "judge/core/base/version.hpp"

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
  std::string sanitize;  // run: compute-sanitizer tool
  BuildFlags build;
  // submit
  TimingFlags timing;
  std::string user;
  std::string db;
};

void add_common(CLI::App* sub, RunOptions& o) {
  sub->add_option("challenge", o.challenge, "Challenge id (see `judge list`)")->required();
  sub->add_option("file", o.source, "Your solve.cu")->required()->check(CLI::ExistingFile);
  add_build_flags(sub, o.build);
}

int run_judge(const GlobalOptions& g, const RunOptions& o) {
  return guarded(g, [&](Reporter& rep) {
    note_phase("cli: parsed");
    Challenge c = find_challenge(challenges_root(g), o.challenge);
    note_phase("cli: challenge found");
    JudgeOptions jo = judge_options(o.build);
    if (o.seed_given) jo.seed = o.seed;
    jo.cases = o.cases;
    jo.calls = o.call;
    if (!o.sanitize.empty()) jo.sanitize = parse_sanitizer_tool(o.sanitize);
    if (o.mode == Mode::submit) add_timing(g, o.timing, jo);
    note_phase("cli: calibration ready");
    jo.lock_holder = fmt::format("judge submit by {}", o.user.empty() ? default_user_name() : o.user);
    ProgressLine line(std::cout);
    show_progress(g, line, jo);
    JudgeReport r = judge_submission(c, o.source, jo);
    line.finish();
    note_phase("cli: judged");
    RecordOutcome rec;
    if (o.mode == Mode::submit && r.accepted() && jo.under_tool) {
      // The solver ran unconfined (the tool needs it so): solve() could reach the leaderboard itself, so nothing
      // of this run may stand on it.
      rec.attempted = true;
      rec.database = o.db.empty() ? default_database_path().string() : o.db;
      rec.error = "--under-tool ran solve() without its sandbox (no Landlock, seccomp or uid drop), so the result "
                  "is not put on the leaderboard; submit without it to be ranked";
    } else if (o.mode == Mode::submit && r.accepted())
      rec = record_submission(r, o.user.empty() ? default_user_name() : o.user,
                              o.db.empty() ? default_database_path() : std::filesystem::path(o.db));
    note_phase("cli: recorded");
    rep.judge_result(r, o.source, rec, std::cout);
    note_phase("cli: reported");
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
  s->add_option("--db", submit->db, "Leaderboard database: an SQLite file, or a postgresql:// URI")->envname("JUDGE_DB");
  add_timing_flags(s, submit->timing);
  s->callback([submit, &g] { exit_code() = run_judge(g, *submit); });
}

}  // namespace judge::cli
