// The staged batch of `judge batch --slurm` (batch_stage.hpp) without Slurm: what is copied, how submissions are
// sharded, the state files, and what a task that ended leaves as not judged (never a verdict).
#include "judge/core/batch/batch_stage.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include "judge/core/challenge/catalog.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

using judge::testing::TempDir;
namespace fs = std::filesystem;

TEST(BatchStage, ShardsRoundRobinWithoutEmptyTasks) {
  EXPECT_EQ(shard({0, 1, 2, 3, 4}, 2), (std::vector<std::vector<std::size_t>>{{0, 2, 4}, {1, 3}}));
  EXPECT_EQ(shard({5, 9}, 4), (std::vector<std::vector<std::size_t>>{{5}, {9}}));
  EXPECT_EQ(shard({}, 3).size(), 0u);
}

struct Staged {
  TempDir tmp;
  std::vector<BatchEntry> entries;
  std::optional<BatchStage> stage;
  Staged() {
    fs::create_directories(tmp / "in" / "alice");
    judge::testing::write_file(tmp / "in" / "alice" / "solve.cu", "#include \"helper.cuh\"\n");
    judge::testing::write_file(tmp / "in" / "alice" / "helper.cuh", "// helper\n");
    judge::testing::write_file(tmp / "in" / "bob.cu", "// bob\n");
    judge::testing::write_file(tmp / "in" / "carol.cu", "// carol\n");
    entries = {{tmp / "in" / "alice" / "solve.cu", "alice"}, {tmp / "in" / "bob.cu", "bob"},
               {tmp / "in" / "carol.cu", "carol"}};
    fs::create_directories(tmp / "stage");
    StageManifest m;
    m.db = "/shared/leaderboard.sqlite";
    stage = BatchStage::create(tmp / "stage", find_challenge(judge::testing::challenges_dir(), "vector_add"),
                               entries, m);
  }
};

TEST(BatchStage, CopiesTheChallengeAndEachSubmissionWithItsHeaders) {
  Staged s;
  const BatchStage& st = *s.stage;
  EXPECT_TRUE(fs::exists(st.challenges_dir() / "vector_add" / "spec.json"));
  EXPECT_EQ(judge::testing::read_file(st.submission_path(0)), "#include \"helper.cuh\"\n");
  EXPECT_TRUE(fs::exists(st.submission_path(0).parent_path() / "helper.cuh"));
  EXPECT_EQ(judge::testing::read_file(st.submission_path(2)), "// carol\n");
  // Read back by another process: the manifest says the same.
  BatchStage again = BatchStage::open(st.dir());
  ASSERT_EQ(again.manifest().submissions.size(), 3u);
  EXPECT_EQ(again.manifest().submissions[1].name, "bob");
  EXPECT_EQ(again.manifest().db, "/shared/leaderboard.sqlite");
  EXPECT_EQ(again.manifest().challenge, "vector_add");
}

TEST(BatchStage, AStageThatIsNotThereIsNamed) {
  TempDir tmp;
  try {
    BatchStage::create(tmp / "nope", find_challenge(judge::testing::challenges_dir(), "vector_add"), {}, {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("every Slurm node sees"), std::string::npos) << e.what();
  }
}

TEST(BatchStage, JobsAreFoundByIdAndRunKeysOutliveRounds) {
  Staged s;
  BatchStage& st = *s.stage;
  const int r0 = st.add_round({0, 1, 2}, 2);
  st.set_job_id(r0, "41");
  EXPECT_EQ(BatchStage::find_job(st.stage_root(), "41"), st.dir());
  EXPECT_THROW(BatchStage::find_job(st.stage_root(), "40"), Error);
  const std::string key = st.manifest().run_key(1);
  const int r1 = st.add_round({1}, 2);
  st.set_job_id(r1, "57");
  EXPECT_EQ(BatchStage::find_job(st.stage_root(), "57"), st.dir());
  EXPECT_EQ(st.manifest().run_key(1), key);  // a resumed run keeps its key: it cannot be recorded twice
  EXPECT_NE(st.manifest().run_key(0), key);
  EXPECT_EQ(st.state(1).round, 1);
  EXPECT_EQ(st.state(1).task, 0);
}

slurm::TaskInfo task(int k, const std::string& state) { return {k, state, "", "node7", "0:0"}; }

TEST(BatchStage, AKilledTasksSubmissionsAreNotJudgedWithItsEnd) {
  Staged s;
  BatchStage& st = *s.stage;
  st.set_job_id(st.add_round({0, 1, 2}, 2), "41");  // task 0: 0 and 2; task 1: 1
  SubmissionState judged = st.state(0);
  judged.state = StageState::judged;
  judged.verdict = Verdict::no_device;
  st.write_state(0, judged);
  SubmissionState judging = st.state(1);
  judging.state = StageState::judging;
  st.write_state(1, judging);

  // Still running: nothing is settled.
  auto running = stage_status(st, {{"41", std::vector<slurm::TaskInfo>{task(0, "RUNNING"), task(1, "RUNNING")}}},
                              true);
  EXPECT_FALSE(running.finished());
  EXPECT_EQ(running.submissions[1].state, StageState::judging);
  EXPECT_EQ(running.tasks[0].describe(), "running on node7");
  // Not asked (the controller did not answer): nothing is settled either.
  EXPECT_FALSE(stage_status(st, {}, true).finished());

  auto ended = stage_status(st, {{"41", std::vector<slurm::TaskInfo>{task(0, "TIMEOUT"), task(1, "CANCELLED")}}},
                            true);
  EXPECT_TRUE(ended.finished());
  EXPECT_EQ(ended.submissions[0].state, StageState::judged);
  EXPECT_EQ(ended.submissions[1].state, StageState::not_judged);
  EXPECT_EQ(ended.submissions[1].reason, "task 1 of job 41 ended CANCELLED (scancel)");
  EXPECT_EQ(ended.submissions[2].reason, "task 0 of job 41 ended TIMEOUT (time limit)");
  EXPECT_EQ(ended.count(StageState::not_judged), 2u);
  EXPECT_EQ(ended.tasks[0].judged, 1u);
  // Settled: written to the state files, so it is known after Slurm has forgotten the job.
  EXPECT_EQ(st.state(1).state, StageState::not_judged);
  auto forgotten = stage_status(st, {{"41", std::nullopt}}, false);
  EXPECT_TRUE(forgotten.finished());
  EXPECT_EQ(forgotten.tasks[1].describe(), "ended (no longer known to Slurm)");
  EXPECT_EQ(forgotten.submissions[1].reason, "task 1 of job 41 ended CANCELLED (scancel)");
}

TEST(BatchStage, StateFilesRoundTrip) {
  Staged s;
  BatchStage& st = *s.stage;
  st.add_round({0, 1, 2}, 1);
  SubmissionState j;
  j.state = StageState::judged;
  j.verdict = Verdict::compile_error;
  j.message = "does not compile";
  j.node = "n1";
  j.record.attempted = true;
  j.record.error = "locked";
  j.protections = {{"compile_sandbox", true, "landlock"}};
  st.write_state(2, j);
  SubmissionState back = st.state(2);
  EXPECT_EQ(back.state, StageState::judged);
  EXPECT_EQ(back.verdict, Verdict::compile_error);
  EXPECT_EQ(back.message, "does not compile");
  EXPECT_EQ(back.node, "n1");
  EXPECT_TRUE(back.record.attempted);
  EXPECT_EQ(back.record.error, "locked");
  ASSERT_EQ(back.protections.size(), 1u);
  EXPECT_FALSE(back.updated_at.empty());
  // No temporary file is left beside it.
  int files = 0;
  for (const auto& e : fs::directory_iterator(st.dir() / "state")) files += e.is_regular_file();
  EXPECT_EQ(files, 3);
}

}  // namespace
}  // namespace judge
