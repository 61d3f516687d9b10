#pragma once
// `judge batch`'s pieces shared by its two places of judging: this host's GPUs (cmd_batch.cpp) and a Slurm cluster's
// (cmd_batch_slurm.cpp), whose tasks each run the judge's local batch on their shard.
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/cli/cli.hpp"
#include "judge/core/batch/batch.hpp"

namespace judge::cli {

struct SlurmFlags {
  bool enabled = false;            // --slurm
  std::string partition;
  int gpus_per_task = 1;
  int tasks = 0;                   // 0: one per submission, at most kDefaultSlurmTasks
  bool no_wait = false;
  std::string stage;               // --stage: a directory every node sees
  std::string status;              // --status ID
  std::string resume;              // --resume ID
  std::string task_dir;            // --slurm-task DIR (hidden): what each task runs
  int task_round = 0;              // --round K (hidden)
};
constexpr int kDefaultSlurmTasks = 8;

struct BatchOptions {
  std::string challenge;
  std::vector<std::string> paths;
  std::string gpus = "all";
  std::string name_from = "file";
  int runs_per_gpu = 4;
  std::string db;
  TimingFlags timing;
  std::string arch;
  std::vector<std::string> nvcc_flags;
  SlurmFlags slurm;
};

// The judging flags a Slurm task needs, as the stage's manifest keeps them, and back.
nlohmann::json judging_flags_json(const BatchOptions& o);
void apply_judging_flags(const nlohmann::json& j, BatchOptions& o);

// The plan of a batch on these GPUs of this host (from the worker's probe): each run's options, building ahead, and
// each GPU's calibration. With no GPU (a Slurm task on a node without one), one run at a time on "GPU 0", so that
// each submission is built and gets the no-GPU verdict as `judge submit` would give it.
BatchPlan make_batch_plan(const GlobalOptions& g, const BatchOptions& o, const ProbeResult& probe,
                          std::vector<int> gpus);

// One line of the summary table.
struct SummaryRow {
  std::string name;
  std::string verdict;  // the verdict's name, or a state that is not one ("not judged", "pending")
  bool accepted = false;
  double score_ms = 0;
  std::string message;  // shown when not accepted
  RecordOutcome record;
};
// The table a batch ends with: the headline, accepted rows by score, then the rest in the order given, the sandbox's
// protections and the leaderboard.
void print_batch_summary(std::ostream& out, const std::string& headline, const std::vector<SummaryRow>& rows,
                         const BatchProtections& protections, const std::string& db);
nlohmann::json protections_json(const BatchProtections& p);
std::string score_text(bool accepted, double score_ms);

// --slurm, --status, --resume and the tasks' --slurm-task: cmd_batch_slurm.cpp.
int run_slurm_batch(const GlobalOptions& g, const BatchOptions& o);
int run_slurm_status(const GlobalOptions& g, const BatchOptions& o);
int run_slurm_resume(const GlobalOptions& g, const BatchOptions& o);
int run_slurm_task(const GlobalOptions& g, const BatchOptions& o);

}  // namespace judge::cli
