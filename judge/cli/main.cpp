// judge: a local GPU kernel judge. See README.md.
#include <csignal>
#include <map>

#include "judge/cli/cli.hpp"
#include "judge/core/base/phase_times.hpp"

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a worker that dies mid-message must not take the judge with it
  judge::note_phase("main");
  using namespace judge::cli;
  GlobalOptions g;
  CLI::App app{"judge: compile, check and time your CUDA solve() against reference kernels, on your own GPU"};
  app.require_subcommand(1);
  app.fallthrough();  // global flags are accepted after the subcommand too
  app.add_flag("--json", g.json, "Print one machine-readable JSON document instead of human output");
  std::map<std::string, ColorMode> colors{
      {"auto", ColorMode::automatic}, {"always", ColorMode::always}, {"never", ColorMode::never}};
  app.add_option("--color", g.color, "Colour human output: auto (on a terminal), always, never")
      ->transform(CLI::CheckedTransformer(colors, CLI::ignore_case));
  app.add_option("--challenges", g.challenges, "Directory of challenge folders (default: $JUDGE_CHALLENGES or the "
                                               "repository's challenges/)");
  setup_list(app, g);
  setup_show(app, g);
  setup_init(app, g);
  setup_run(app, g);
  setup_leaderboard(app, g);
  setup_calibrate(app, g);
  setup_report(app, g);
  setup_batch(app, g);
  setup_profile(app, g);
  setup_ladder(app, g);
  setup_doctor(app, g);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (g.json && e.get_exit_code() != 0) {
      make_reporter(g)->error(e.what(), std::cout);
      return kExitError;
    }
    return app.exit(e) == 0 ? kExitOk : kExitError;  // --help is 0; any usage error is bad input: 2, not CLI11's
  }
  return exit_code();
}
