#include <filesystem>

#include "judge/cli/cli.hpp"

namespace judge::cli {

namespace {
struct InitOptions {
  std::string challenge;
  std::string path = "solve.cu";
  bool force = false;
};
}  // namespace

void setup_init(CLI::App& app, const GlobalOptions& g) {
  auto opt = std::make_shared<InitOptions>();
  auto* sub = app.add_subcommand("init", "Write the challenge's starter solve.cu");
  sub->add_option("challenge", opt->challenge, "Challenge id")->required();
  sub->add_option("path", opt->path, "Where to write it (default: solve.cu)");
  sub->add_flag("-f,--force", opt->force, "Overwrite an existing file");
  sub->callback([opt, &g] {
    exit_code() = guarded(g, [&](Reporter& rep) {
      namespace fs = std::filesystem;
      Challenge c = find_challenge(challenges_root(g), opt->challenge);
      fs::path target = opt->path;
      if (fs::exists(target) && !opt->force)
        JUDGE_THROW(Error, "{} already exists: pass --force to overwrite it, or choose another path",
                    target.string());
      if (!fs::exists(c.starter_path()))
        JUDGE_THROW(Error, "challenge '{}' has no starter ({} is missing)", c.id, c.starter_path().string());
      if (target.has_parent_path()) fs::create_directories(target.parent_path());
      fs::copy_file(c.starter_path(), target, fs::copy_options::overwrite_existing);
      rep.initialised(c, target.string(), std::cout);
      return kExitOk;
    });
  });
}

}  // namespace judge::cli
