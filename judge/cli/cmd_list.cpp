#include "judge/cli/cli.hpp"

namespace judge::cli {

void setup_list(CLI::App& app, const GlobalOptions& g) {
  auto* sub = app.add_subcommand("list", "List the challenges, with difficulty and a one-line summary");
  sub->callback([&g] {
    exit_code() = guarded(g, [&](Reporter& rep) {
      auto entries = scan_challenges(challenges_root(g));
      rep.challenge_list(entries, std::cout);
      for (const auto& e : entries)
        if (!e.challenge) return kExitError;  // the broken spec is listed with its error
      return kExitOk;
    });
  });
}

}  // namespace judge::cli
