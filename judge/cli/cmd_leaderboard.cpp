#include <algorithm>

#include "judge/cli/cli.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/store/leaderboard.hpp"

namespace judge::cli {

namespace {
struct LeaderboardOptions {
  std::string challenge;
  std::string gpu;
  std::string db;
};
}  // namespace

void setup_leaderboard(CLI::App& app, const GlobalOptions& g) {
  auto opt = std::make_shared<LeaderboardOptions>();
  auto* sub = app.add_subcommand("leaderboard", "Ranking per GPU: each user's best accepted run, best first; "
                                                "without a challenge, who leads each one");
  sub->add_option("challenge", opt->challenge, "Challenge id (default: an overview of every challenge with entries)");
  sub->add_option("--gpu", opt->gpu, "Only this GPU (exact name as shown); default: every GPU with entries");
  sub->add_option("--db", opt->db, "Leaderboard database: an SQLite file, or a postgresql:// URI")->envname("JUDGE_DB");
  sub->callback([opt, &g] {
    exit_code() = guarded(g, [&](Reporter& rep) {
      Leaderboard board(opt->db.empty() ? default_database_path().string() : opt->db);
      if (opt->challenge.empty()) {
        std::vector<BoardSummary> boards = board.overview();
        if (!opt->gpu.empty())
          boards.erase(std::remove_if(boards.begin(), boards.end(),
                                      [&](const BoardSummary& b) { return b.gpu_name != opt->gpu; }),
                       boards.end());
        rep.leaderboard_overview(boards, board.location(), std::cout);
        return kExitOk;
      }
      find_challenge(challenges_root(g), opt->challenge);  // a typo gets suggestions, not an empty board
      std::vector<LeaderboardView> views;
      std::vector<std::string> gpus = opt->gpu.empty() ? board.gpus(opt->challenge)
                                                       : std::vector<std::string>{opt->gpu};
      for (const auto& gpu : gpus) views.push_back({opt->challenge, gpu, board.ranking(opt->challenge, gpu)});
      rep.leaderboard(views, std::cout);
      return kExitOk;
    });
  });
}

}  // namespace judge::cli
