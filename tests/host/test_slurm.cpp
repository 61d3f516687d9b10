// Reading Slurm's command-line tools (slurm.hpp) from their real output (Slurm 22.05), without a cluster: the job id
// of `sbatch --parsable`, the tasks of `scontrol --oneliner show job`, and what each end of a task is called.
// The cluster itself is exercised by tests/slurm/test_slurm_batch.sh.
#include "judge/core/batch/slurm.hpp"

#include <cstdlib>

#include <gtest/gtest.h>

namespace judge::slurm {
namespace {

TEST(Slurm, SbatchParsableGivesTheJobId) {
  EXPECT_EQ(parse_sbatch_parsable("42\n"), "42");
  EXPECT_EQ(parse_sbatch_parsable("sbatch: warning: something\n1234;cluster\n"), "1234");
  EXPECT_THROW(parse_sbatch_parsable("sbatch: error: nope\n"), SlurmError);
}

TEST(Slurm, TaskRangesAreExpanded) {
  EXPECT_EQ(parse_task_ranges("3"), (std::vector<int>{3}));
  EXPECT_EQ(parse_task_ranges("2-4"), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(parse_task_ranges("0,3-4%2"), (std::vector<int>{0, 3, 4}));
  EXPECT_THROW(parse_task_ranges("x"), SlurmError);
}

// Trimmed from scontrol 22.05 while a 4-task array ran two at a time, then after task 1 was cancelled.
const char* const kRunning =
    "JobId=2 ArrayJobId=1 ArrayTaskId=0 JobName=wrap JobState=RUNNING Reason=None ExitCode=0:0 NodeList=vm\n"
    "JobId=3 ArrayJobId=1 ArrayTaskId=1 JobName=wrap JobState=RUNNING Reason=None ExitCode=0:0 NodeList=vm\n"
    "JobId=1 ArrayJobId=1 ArrayTaskId=2-3 JobName=wrap JobState=PENDING Reason=Resources ExitCode=0:0 NodeList=\n";
const char* const kEnded =
    "JobId=2 ArrayJobId=7 ArrayTaskId=0 JobState=COMPLETED Reason=None ExitCode=0:0 NodeList=vm\n"
    "JobId=3 ArrayJobId=7 ArrayTaskId=1 JobState=CANCELLED Reason=None ExitCode=0:15 NodeList=vm\n"
    "JobId=4 ArrayJobId=7 ArrayTaskId=2 JobState=FAILED Reason=JobLaunchFailure ExitCode=0:53 NodeList=vm\n"
    "JobId=5 ArrayJobId=7 ArrayTaskId=3 JobState=TIMEOUT Reason=TimeLimit ExitCode=0:0 NodeList=vm\n";

TEST(Slurm, ScontrolRecordsBecomeOneEntryPerTask) {
  auto tasks = parse_scontrol_jobs(kRunning, "1");
  ASSERT_EQ(tasks.size(), 4u);
  EXPECT_EQ(tasks[0].state, "RUNNING");
  EXPECT_EQ(tasks[0].node, "vm");
  EXPECT_EQ(tasks[0].reason, "");
  EXPECT_EQ(tasks[3].task, 3);
  EXPECT_EQ(tasks[3].state, "PENDING");
  EXPECT_EQ(tasks[3].reason, "Resources");
  EXPECT_EQ(phase_of(tasks[0].state), Phase::running);
  EXPECT_EQ(phase_of(tasks[2].state), Phase::queued);
  EXPECT_TRUE(parse_scontrol_jobs(kRunning, "9").empty());  // another job's records are not ours
}

TEST(Slurm, EachEndIsNamed) {
  auto tasks = parse_scontrol_jobs(kEnded, "7");
  ASSERT_EQ(tasks.size(), 4u);
  EXPECT_EQ(phase_of(tasks[0].state), Phase::done);
  EXPECT_EQ(phase_of(tasks[1].state), Phase::ended);
  EXPECT_EQ(describe_end(tasks[1]), "CANCELLED (scancel)");
  EXPECT_EQ(describe_end(tasks[2]), "FAILED (Slurm could not launch it: JobLaunchFailure)");
  EXPECT_EQ(describe_end(tasks[3]), "TIMEOUT (time limit)");
  TaskInfo failed{0, "FAILED", "NonZeroExitCode", "vm", "3:0"};
  EXPECT_EQ(describe_end(failed), "FAILED (exit code 3:0)");
  EXPECT_EQ(describe_end({0, "NODE_FAIL", "", "", ""}), "NODE_FAIL (node failure)");
}

TEST(Slurm, MissingToolsAreNamedWithWhatToInstall) {
  const std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", "/nonexistent", 1);
  std::string message;
  try {
    Cli::find();
  } catch (const SlurmError& e) {
    message = e.what();
  }
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_NE(message.find("Slurm's command-line tools are not installed or not on PATH"), std::string::npos)
      << message;
  EXPECT_NE(message.find("sbatch"), std::string::npos) << message;
  EXPECT_NE(message.find("slurm-client"), std::string::npos) << message;
}

}  // namespace
}  // namespace judge::slurm
