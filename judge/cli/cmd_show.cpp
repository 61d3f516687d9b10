#include <fstream>
#include <sstream>

#include "judge/cli/cli.hpp"

namespace judge::cli {

namespace {
struct ShowOptions {
  std::string challenge;
};
}  // namespace

void setup_show(CLI::App& app, const GlobalOptions& g) {
  auto opt = std::make_shared<ShowOptions>();
  auto* sub = app.add_subcommand("show", "Statement, solve() signature, test and benchmark cases, tolerances");
  sub->add_option("challenge", opt->challenge, "Challenge id (see `judge list`)")->required();
  sub->callback([opt, &g] {
    exit_code() = guarded(g, [&](Reporter& rep) {
      Challenge c = find_challenge(challenges_root(g), opt->challenge);
      std::ifstream in(c.statement_path());
      std::ostringstream statement;
      if (in) statement << in.rdbuf();
      else statement << "(no statement.md in " << c.dir.string() << ")\n";
      rep.challenge_detail(c, statement.str(), std::cout);
      return kExitOk;
    });
  });
}

}  // namespace judge::cli
