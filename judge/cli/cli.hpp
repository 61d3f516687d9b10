#pragma once
// Shared pieces of the CLI. Each subcommand lives in its own file as an options struct, setup_x(CLI::App&) and
// run_x(); main.cpp only wires them. Exit codes: 0 success / accepted, 1 a verdict other than accepted,
// 2 bad input or an environment problem (the message says which file, field or tool).
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "judge/core/report.hpp"

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

void setup_list(CLI::App& app, const GlobalOptions& g);
void setup_show(CLI::App& app, const GlobalOptions& g);
void setup_init(CLI::App& app, const GlobalOptions& g);
void setup_run(CLI::App& app, const GlobalOptions& g);  // run and submit
void setup_leaderboard(CLI::App& app, const GlobalOptions& g);
void setup_calibrate(CLI::App& app, const GlobalOptions& g);
void setup_report(CLI::App& app, const GlobalOptions& g);
void setup_batch(CLI::App& app, const GlobalOptions& g);
void setup_profile(CLI::App& app, const GlobalOptions& g);

}  // namespace judge::cli
