#pragma once
// Shared pieces of the CLI. Each subcommand lives in its own file as an options struct, setup_x(CLI::App&) and
// run_x(); main.cpp only wires them. Exit codes: 0 success / accepted, 1 a verdict other than accepted,
// 2 bad input or an environment problem (the message says which file, field or tool).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "judge/core/base/progress_line.hpp"
#include "judge/core/present/report.hpp"

namespace judge::cli {

enum class ColorMode { automatic, always, never };

struct GlobalOptions {
  bool json = false;
  ColorMode color = ColorMode::automatic;
  std::string challenges;  // empty: default_challenges_dir()
};

constexpr int kExitOk = 0;
constexpr int kExitRejected = 1;
constexpr int kExitError = 2;

// The exit code chosen by the subcommand that ran.
int& exit_code();

std::unique_ptr<Reporter> make_reporter(const GlobalOptions& g);
std::filesystem::path challenges_root(const GlobalOptions& g);
// Runs body; an Error becomes a reported error and kExitError.
int guarded(const GlobalOptions& g, const std::function<int(Reporter&)>& body);

// The flags of the commands that judge a file (run, submit, ladder): how it is built and where it runs.
struct BuildFlags {
  double timeout_s = 0;  // 0: the challenge's
  int device = 0;
  std::string arch;
  std::vector<std::string> nvcc_flags;
  bool no_cupti = false;
  bool strict = false;  // stress cases decide the verdict too
  bool under_tool = false;  // a tool (ncu, nsys) runs this judge and must follow it into the solver
};
// And of those that time it (submit, ladder): how.
struct TimingFlags {
  double budget_s = 0;  // 0: TimingPolicy's default, as for the others
  int min_samples = 0;
  double noise_pct = 0;
  double warmup_s = 0;
  bool no_reference_timing = false;
  bool no_calibration = false;
};
// --arch's help, the same wherever a command compiles a solution.
extern const char* const kArchHelp;
void add_build_flags(CLI::App* sub, BuildFlags& f);
void add_timing_flags(CLI::App* sub, TimingFlags& f);
// Options to judge with these flags (Mode::run), with the cache and the worker.
JudgeOptions judge_options(const BuildFlags& f);
// Makes them `judge submit`'s: every test and the timed benchmarks, with the GPU's ceilings (measured the first time
// this GPU is seen) unless --no-calibration.
void add_timing(const GlobalOptions& g, const TimingFlags& f, JudgeOptions& jo);
// The same without the calibration (`judge batch` calibrates each of its GPUs itself).
void apply_timing_policy(const TimingFlags& f, JudgeOptions& jo);
// On a terminal (never under --json), where the run is, on `line`, after `prefix`; waits are said on stderr.
void show_progress(const GlobalOptions& g, ProgressLine& line, JudgeOptions& jo, const std::string& prefix = {});

void setup_list(CLI::App& app, const GlobalOptions& g);
void setup_show(CLI::App& app, const GlobalOptions& g);
void setup_init(CLI::App& app, const GlobalOptions& g);
void setup_run(CLI::App& app, const GlobalOptions& g);  // run and submit
void setup_leaderboard(CLI::App& app, const GlobalOptions& g);
void setup_calibrate(CLI::App& app, const GlobalOptions& g);
void setup_report(CLI::App& app, const GlobalOptions& g);
void setup_batch(CLI::App& app, const GlobalOptions& g);
void setup_profile(CLI::App& app, const GlobalOptions& g);
void setup_ladder(CLI::App& app, const GlobalOptions& g);
void setup_doctor(CLI::App& app, const GlobalOptions& g);

}  // namespace judge::cli
