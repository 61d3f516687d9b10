// `judge profile`: one checked call of a case under Nsight Compute; per kernel solve() launched, the figures that say
// what limits it, and the .ncu-rep for the GUI. A rejected call prints its verdict as `judge run` would.
#include "judge/cli/cli.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/run/profile.hpp"

namespace judge::cli {

namespace {

struct ProfileCommandOptions {
  std::string challenge;
  std::string source;
  std::string case_name;
  std::string output;
  int max_kernels = 20;
  double timeout_s = 0;
  int device = 0;
  std::string arch;
  std::vector<std::string> nvcc_flags;
};

int run_profile(const GlobalOptions& g, const ProfileCommandOptions& o) {
  return guarded(g, [&](Reporter& rep) {
    Challenge c = find_challenge(challenges_root(g), o.challenge);
    ProfileOptions po;
    po.case_name = o.case_name;
    po.report = o.output;
    po.max_kernels = o.max_kernels;
    if (o.timeout_s > 0) po.judge.timeout_s = o.timeout_s;
    po.judge.device = o.device;
    po.judge.arch = o.arch;
    po.judge.nvcc_flags = o.nvcc_flags;
    po.judge.cache_dir = cache_dir();
    po.judge.worker = worker_path();
    ProfileReport p = profile_submission(c, o.source, po);
    if (!p.run.accepted()) {
      rep.judge_result(p.run, o.source, {}, std::cout);
      return kExitRejected;
    }
    rep.profile(p, o.source, std::cout);
    return kExitOk;
  });
}

}  // namespace

void setup_profile(CLI::App& app, const GlobalOptions& g) {
  auto opt = std::make_shared<ProfileCommandOptions>();
  auto* sub = app.add_subcommand("profile", "Run one checked call of a case under Nsight Compute (ncu) and show what "
                                            "limits each kernel solve() launched; keeps the .ncu-rep");
  sub->add_option("challenge", opt->challenge, "Challenge id (see `judge list`)")->required();
  sub->add_option("file", opt->source, "Your solve.cu")->required()->check(CLI::ExistingFile);
  sub->add_option("--case", opt->case_name, "The case to profile (default: the first benchmark)");
  sub->add_option("-o,--output", opt->output,
                  "Where to save the Nsight Compute report (default: <challenge>-<case>.ncu-rep here)");
  sub->add_option("--max-kernels", opt->max_kernels, "Profile at most this many of solve()'s kernels (default 20)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--timeout", opt->timeout_s, "Seconds the solve() call may take before Nsight Compute's slowdown "
                                               "(default: the challenge's)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--device", opt->device, "CUDA device ordinal")->check(CLI::NonNegativeNumber);
  sub->add_option("--arch", opt->arch, kArchHelp);
  sub->add_option("--nvcc-flag", opt->nvcc_flags, "Extra flag for nvcc (repeatable)");
  sub->callback([opt, &g] { exit_code() = run_profile(g, *opt); });
}

}  // namespace judge::cli
