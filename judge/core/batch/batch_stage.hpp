#pragma once
// A batch judged on a Slurm cluster (`judge batch --slurm`), as files in a directory every node sees (`--stage DIR`):
// the challenge and the submissions copied there, a manifest saying which submission is in which task of which job,
// and one state file per submission that the tasks write as they go (atomically: write, then rename). The judge on
// the login node, now or later (`--status`, `--resume`), reads the same files; together with what Slurm says about
// each task they tell what was judged, what is being judged, and what a killed task left not judged.
//
//   DIR/jobs/<job id>                    the batch directory that job judges (for `--status ID`, `--resume ID`)
//   DIR/batch-<stamp>-<pid>/manifest.json
//                          challenges/<id>/         the challenge folder
//                          submissions/<i>/<file>   each submission with the headers beside it
//                          state/<i>.json           its state: pending, judging, judged (verdict), not_judged (why)
//                          logs/<job>-<task>.log    each task's output
//                          task.sh                  what each task runs: the judge, on its shard
// No Slurm and no CUDA here.
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/core/batch/batch.hpp"
#include "judge/core/batch/slurm.hpp"
#include "judge/core/present/report.hpp"

namespace judge {

// The submissions of one job array, task by task: round k of a batch is its first job (k = 0) or its k-th resume.
struct StageRound {
  std::string job_id;                           // empty until sbatch has answered
  std::vector<std::vector<std::size_t>> tasks;  // each task's submissions (indices into the manifest's)
};

struct StagedSubmission {
  std::string name;    // the leaderboard name
  std::string file;    // relative to the batch directory
  std::string source;  // where it came from, as given
  std::string sha256;
};

struct StageManifest {
  std::string challenge;
  std::string created_at;
  std::string db;                 // the leaderboard every task records to, as given (a file path or a URI)
  std::string judge;              // the judge executable the tasks run
  nlohmann::json options;         // the judging flags, as cmd_batch passes them to its tasks
  std::vector<StagedSubmission> submissions;
  std::vector<StageRound> rounds;
  // Each run's key on the leaderboard, the same for every round: a resumed or retried task cannot record twice.
  std::string run_key(std::size_t index) const;
};
void to_json(nlohmann::json& j, const StageManifest& m);
void from_json(const nlohmann::json& j, StageManifest& m);

enum class StageState { pending, judging, judged, not_judged };
std::string to_string(StageState s);

struct SubmissionState {
  StageState state = StageState::pending;
  int round = 0;
  int task = 0;
  std::string node;     // where it is or was judged
  std::string updated_at;
  // judged:
  Verdict verdict = Verdict::internal_error;
  double score_ms = 0;
  std::string message;
  std::vector<Protection> protections;
  RecordOutcome record;
  nlohmann::json report;  // the whole JudgeReport, for --json
  // not_judged: why ("task 3 ended CANCELLED (scancel)"), an infrastructure error, never a verdict
  std::string reason;
};
void to_json(nlohmann::json& j, const SubmissionState& s);
void from_json(const nlohmann::json& j, SubmissionState& s);

// Writes text to a temporary file beside path, then renames it over path: readers see the old file or the new one.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

// Spreads indices over at most `tasks` tasks, round-robin (so submissions given in order of size mix), never an empty
// task: fewer submissions than tasks make fewer tasks.
std::vector<std::vector<std::size_t>> shard(const std::vector<std::size_t>& indices, int tasks);

class BatchStage {
 public:
  // Makes a new batch directory under stage_root and copies the challenge folder and the submissions there (each
  // with the headers beside it). Throws Error naming the stage when it does not exist or cannot be written.
  static BatchStage create(const std::filesystem::path& stage_root, const Challenge& challenge,
                           const std::vector<BatchEntry>& entries, StageManifest manifest);
  // A batch directory made by create(). Throws Error naming it when its manifest cannot be read.
  static BatchStage open(const std::filesystem::path& dir);
  // The batch directory of a job, from stage_root/jobs/<id>. Throws Error saying the job is unknown there.
  static std::filesystem::path find_job(const std::filesystem::path& stage_root, const std::string& job_id);

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path stage_root() const { return dir_.parent_path(); }
  const StageManifest& manifest() const { return manifest_; }
  std::filesystem::path challenges_dir() const { return dir_ / "challenges"; }
  std::filesystem::path submission_path(std::size_t index) const { return dir_ / manifest_.submissions[index].file; }
  std::filesystem::path task_script() const { return dir_ / "task.sh"; }
  // sbatch's --output pattern (%A: the job, %a: the task), and the log of one task.
  std::filesystem::path log_pattern() const { return dir_ / "logs" / "%A-%a.log"; }
  std::filesystem::path task_log(const std::string& job_id, int task) const;

  // A new round of these submissions over at most `tasks` tasks: written to the manifest, and every submission's
  // state set to pending in it, before the job is submitted (its tasks may start before sbatch returns).
  int add_round(const std::vector<std::size_t>& indices, int tasks);
  // The job id sbatch gave round k; also indexed under stage_root/jobs/.
  void set_job_id(int round, const std::string& job_id);

  SubmissionState state(std::size_t index) const;
  void write_state(std::size_t index, const SubmissionState& s) const;

 private:
  void save_manifest() const;
  std::filesystem::path dir_;
  StageManifest manifest_;
};

// One task of one round as the login node sees it: Slurm's view when it still has one.
struct StageTask {
  int round = 0;
  int task = 0;
  std::string job_id;
  std::optional<slurm::TaskInfo> slurm;  // nullopt: Slurm was not asked, or no longer knows the job
  bool forgotten = false;                // asked, and Slurm no longer knows it (purged after MinJobAge): over
  std::size_t submissions = 0;
  std::size_t judged = 0;
  // "queued", "running on node1", "done", "ended CANCELLED (scancel)", "ended (no longer known to Slurm)"
  std::string describe() const;
  bool finished() const;  // it will judge nothing more
};

struct StageStatus {
  std::vector<StageTask> tasks;               // every round's, in order
  std::vector<SubmissionState> submissions;   // by index; a killed task's unfinished ones as not_judged
  bool finished() const;                      // every task of every round finished
  std::size_t count(StageState s) const;
};

// Combines the state files with what Slurm says about each round's job (slurm_jobs: job id -> its tasks, nullopt when
// Slurm no longer knows it; a job missing from the map was not asked about and counts as still running). A
// submission left pending or judging by a task that finished becomes not_judged, with the task's end as its reason;
// with settle, that is also written to its state file, so it is known after Slurm has forgotten the job.
StageStatus stage_status(const BatchStage& stage,
                         const std::map<std::string, std::optional<std::vector<slurm::TaskInfo>>>& slurm_jobs,
                         bool settle);

}  // namespace judge
