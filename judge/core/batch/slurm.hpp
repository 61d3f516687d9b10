#pragma once
// Talking to Slurm through its command-line tools (sbatch, scontrol), whose interface is stable across Slurm
// versions (libslurm's is not): each tool run through process.hpp with a time limit, its output parsed here, and every
// failure an error that names the command, quotes its stderr and says what to do. No accounting daemon is assumed
// (sacct may not exist): jobs are followed with scontrol while the controller remembers them (MinJobAge), and by the
// tasks' own state files (batch_stage.hpp) after that.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/base/error.hpp"

namespace judge::slurm {

class SlurmError : public Error {
 public:
  using Error::Error;
};

// A job array to submit: `script` runs once per task, with SLURM_ARRAY_JOB_ID and SLURM_ARRAY_TASK_ID set.
struct ArraySubmission {
  std::filesystem::path script;
  std::vector<std::string> args;   // the script's arguments
  int tasks = 1;                   // --array=0-(tasks-1)
  int gpus_per_task = 1;           // --gres=gpu:N
  std::string partition;           // empty: the cluster's default
  std::string job_name;
  std::filesystem::path output;    // --output, with %A (job) and %a (task) as sbatch expands them
  std::filesystem::path workdir;   // --chdir
};

// One task of an array as the controller reports it.
struct TaskInfo {
  int task = -1;
  std::string state;      // Slurm's JobState: PENDING, RUNNING, COMPLETED, CANCELLED, TIMEOUT, NODE_FAIL, ...
  std::string reason;     // Reason=, "None" dropped
  std::string node;       // NodeList=, empty while pending
  std::string exit_code;  // ExitCode=, "code:signal"
};

// Where a task is, in the words the judge shows.
enum class Phase { queued, running, done, ended };  // ended: finished other than COMPLETED (killed, failed)
Phase phase_of(const std::string& state);
// "CANCELLED (scancel)", "TIMEOUT (time limit)", "NODE_FAIL (node failure)", "FAILED (exit code 3)" ...
std::string describe_end(const TaskInfo& task);

class Cli {
 public:
  // Finds sbatch and scontrol on PATH. Throws SlurmError saying they are not installed or not on PATH, and how to
  // install them, when one is missing.
  static Cli find();

  // sbatch --parsable: the job id. Throws SlurmError quoting sbatch's message (an unknown partition, no such GRES).
  std::string submit(const ArraySubmission& job) const;
  // Every task of the array job, from `scontrol show job <id>`; a range of tasks still pending together is expanded
  // to one entry per task. nullopt when the controller no longer knows the job (purged after MinJobAge). Throws
  // SlurmError when the controller cannot be reached.
  std::optional<std::vector<TaskInfo>> tasks(const std::string& job_id) const;

  std::chrono::seconds limit{30};  // for each command

 private:
  std::filesystem::path sbatch_, scontrol_;
};

// Parsers, public for the tests.
// `sbatch --parsable` prints "<id>" or "<id>;<cluster>".
std::string parse_sbatch_parsable(const std::string& out);
// `scontrol show job --oneliner <id>`: one line per record; an array's pending tasks share a record whose
// ArrayTaskId is a range list ("2-3", "1,4-6%2"). Only records of array job `job_id` are taken.
std::vector<TaskInfo> parse_scontrol_jobs(const std::string& out, const std::string& job_id);
// "0-3,7%2" -> 0 1 2 3 7. Throws SlurmError on anything else.
std::vector<int> parse_task_ranges(const std::string& spec);

}  // namespace judge::slurm
