// `judge batch --slurm`: the submissions staged in a shared directory (batch_stage.hpp), sharded over a Slurm job
// array with a GPU per task (slurm.hpp), each task the judge itself judging its shard as a local batch does and
// recording to the same leaderboard; then, unless --no-wait, the tasks and the verdicts followed as they land, and
// the local batch's summary. `--status ID` shows the same later, `--resume ID` judges what a killed task left.
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "judge/cli/batch_cli.hpp"
#include "judge/cli/cli.hpp"
#include "judge/cli/record.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/base/progress_line.hpp"
#include "judge/core/batch/batch_stage.hpp"
#include "judge/core/batch/slurm.hpp"
#include "judge/core/challenge/catalog.hpp"

namespace judge::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// sh's single quotes around anything.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The task's exit code when the stage is not where the manifest says (its own check, before the judge starts).
constexpr int kStageNotVisible = 97;

void write_task_script(const BatchStage& stage) {
  const std::string dir = shell_quote(stage.dir().string());
  const std::string judge = shell_quote(stage.manifest().judge);
  write_file_atomically(stage.task_script(),
                        fmt::format("#!/bin/sh\n"
                                    "# One task of `judge batch --slurm`: the judge on its shard of the batch in {dir}.\n"
                                    "if [ ! -r {dir}/manifest.json ]; then\n"
                                    "  echo \"judge: the stage {dir} is not visible on $(hostname): give --stage a "
                                    "directory every node sees (a shared filesystem)\" >&2\n"
                                    "  exit {code}\n"
                                    "fi\n"
                                    "if [ ! -x {judge} ]; then\n"
                                    "  echo \"judge: {judge} is not on $(hostname): install the judge at the same "
                                    "path on every node\" >&2\n"
                                    "  exit {code}\n"
                                    "fi\n"
                                    "exec {judge} batch --slurm-task {dir} --round \"$1\"\n",
                                    fmt::arg("dir", dir), fmt::arg("judge", judge),
                                    fmt::arg("code", kStageNotVisible)));
  fs::permissions(stage.task_script(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                           fs::perms::others_read | fs::perms::others_exec);
}

// Where `--status ID` finds a job's stage when --stage is not given: an index in the cache, one file per job.
fs::path job_index(const std::string& job_id) { return cache_dir() / "slurm-jobs" / job_id; }

fs::path stage_of_job(const BatchOptions& o, const std::string& job_id) {
  fs::path root = o.slurm.stage;
  if (root.empty()) {
    std::ifstream f(job_index(job_id));
    std::string line;
    if (!f || !std::getline(f, line) || line.empty())
      JUDGE_THROW(Error, "job {} was not submitted by `judge batch --slurm` from here ({} has no record of it): give "
                  "the --stage it was submitted with", job_id, job_index(job_id).parent_path().string());
    root = line;
  }
  return BatchStage::find_job(root, job_id);
}

int default_tasks(const SlurmFlags& f, std::size_t submissions) {
  return f.tasks > 0 ? f.tasks : static_cast<int>(std::min<std::size_t>(submissions, kDefaultSlurmTasks));
}

// Submits round k of the stage as a job array.
void submit_round(const slurm::Cli& cli, BatchStage& stage, int round, const std::string& partition,
                         int gpus_per_task) {
  slurm::ArraySubmission job;
  job.script = stage.task_script();
  job.args = {std::to_string(round)};
  job.tasks = static_cast<int>(stage.manifest().rounds.at(static_cast<std::size_t>(round)).tasks.size());
  job.gpus_per_task = gpus_per_task;
  job.partition = partition;
  job.job_name = "judge-" + stage.manifest().challenge;
  job.output = stage.log_pattern();
  job.workdir = stage.dir();
  const std::string id = cli.submit(job);
  stage.set_job_id(round, id);
  std::error_code ec;
  fs::create_directories(job_index(id).parent_path(), ec);
  std::ofstream(job_index(id)) << stage.stage_root().string() << "\n";
}

// What Slurm says about every job of the stage. A controller that cannot be reached is said once, on stderr, and its
// jobs are left out (as still going: nothing is settled on a guess).
std::map<std::string, std::optional<std::vector<slurm::TaskInfo>>> ask_slurm(const slurm::Cli& cli,
                                                                            const BatchStage& stage,
                                                                            bool& warned) {
  std::map<std::string, std::optional<std::vector<slurm::TaskInfo>>> jobs;
  for (const auto& r : stage.manifest().rounds) {
    if (r.job_id.empty() || jobs.count(r.job_id)) continue;
    try {
      jobs[r.job_id] = cli.tasks(r.job_id);
    } catch (const slurm::SlurmError& e) {
      if (!warned) std::cerr << "warning: " << e.what() << "\n";
      warned = true;
    }
  }
  return jobs;
}

std::string verdict_text(const SubmissionState& s) {
  switch (s.state) {
    case StageState::judged: return std::string(to_string(s.verdict));
    case StageState::not_judged: return "not judged";
    default: return to_string(s.state);
  }
}

std::string task_name(const StageTask& t) { return fmt::format("task {} of job {}", t.task, t.job_id); }

// A task that never got to judge because the stage or the judge is not on its node.
bool launch_failed(const StageTask& t) {
  return t.slurm && ((t.slurm->state == "FAILED" && t.slurm->reason == "JobLaunchFailure") ||
                     t.slurm->exit_code.rfind(std::to_string(kStageNotVisible) + ":", 0) == 0);
}

json result_json(const BatchStage& stage, const StageStatus& st, std::size_t i) {
  const auto& m = stage.manifest();
  const SubmissionState& s = st.submissions[i];
  const StageRound& round = m.rounds.at(static_cast<std::size_t>(s.round));
  json e = {{"name", m.submissions[i].name}, {"source", m.submissions[i].source},
            {"state", to_string(s.state)},   {"job_id", round.job_id},
            {"task", s.task},                {"node", s.node}};
  if (s.state == StageState::judged) {
    e["report"] = s.report;
    if (s.record.attempted)
      e["record"] = {{"recorded", s.record.recorded}, {"rank", s.record.rank}, {"error", s.record.error},
                     {"saved_to", s.record.saved_to}};
  }
  if (s.state == StageState::not_judged) e["reason"] = s.reason;
  return e;
}

// The end of a Slurm batch, now or later: one JSON document, or the local batch's summary (with show_tasks, each
// task's state above it).
// The exit code: 0 when every submission is judged and accepted; 2 when tasks could not start (the stage or the
// judge not on the nodes); 1 otherwise.
int report_stage(const GlobalOptions& g, const BatchStage& stage, const StageStatus& st, bool show_tasks) {
  const auto& m = stage.manifest();
  std::size_t accepted = 0;
  for (const auto& s : st.submissions) accepted += s.state == StageState::judged && s.verdict == Verdict::accepted;
  const std::size_t not_judged = st.count(StageState::not_judged);
  std::vector<std::string> jobs;
  for (const auto& r : m.rounds) jobs.push_back(r.job_id);
  bool unreachable = false;
  for (const auto& t : st.tasks) unreachable = unreachable || launch_failed(t);

  if (g.json) {
    json tasks = json::array();
    for (const auto& t : st.tasks)
      tasks.push_back({{"job_id", t.job_id}, {"task", t.task}, {"state", t.slurm ? t.slurm->state : ""},
                       {"status", t.describe()}, {"node", t.slurm ? t.slurm->node : ""},
                       {"submissions", t.submissions}, {"judged", t.judged}});
    json list = json::array();
    for (std::size_t i = 0; i < m.submissions.size(); ++i) list.push_back(result_json(stage, st, i));
    std::cout << json{{"challenge", m.challenge},   {"jobs", jobs},
                      {"stage", stage.dir().string()}, {"finished", st.finished()},
                      {"submissions", list.size()}, {"accepted", accepted},
                      {"not_judged", not_judged},   {"tasks", tasks},
                      {"results", list}}
                     .dump(2)
              << "\n";
  } else {
    if (show_tasks)
      for (const auto& t : st.tasks) std::cout << fmt::format("{}: {}\n", task_name(t), t.describe());
    std::vector<SummaryRow> rows;
    std::vector<BatchResult> results;
    for (std::size_t i = 0; i < m.submissions.size(); ++i) {
      const SubmissionState& s = st.submissions[i];
      const bool ok = s.state == StageState::judged && s.verdict == Verdict::accepted;
      rows.push_back({m.submissions[i].name, verdict_text(s), ok, s.score_ms,
                      s.state == StageState::not_judged ? s.reason : s.message, s.record});
      BatchResult r;
      r.report.protections = s.protections;
      results.push_back(r);
    }
    print_batch_summary(std::cout,
                        fmt::format("{} on Slurm (job {}, {} task(s)): {} submissions, {} accepted{}{}", m.challenge,
                                    fmt::join(jobs, ", then "), st.tasks.size(), m.submissions.size(), accepted,
                                    not_judged ? fmt::format(", {} not judged", not_judged) : "",
                                    st.finished() ? "" : " (still running)"),
                        rows, batch_protections(results), m.db);
    if (unreachable)
      std::cout << fmt::format("error: tasks could not start: the stage {} (or the judge, {}) is not visible on "
                               "their node at the same path. Give --stage a directory every node sees (a shared "
                               "filesystem), then `judge batch --resume {}`\n",
                               stage.stage_root().string(), m.judge, jobs.back());
    else if (not_judged && st.finished())
      std::cout << fmt::format("{} not judged (an infrastructure error, never a verdict): `judge batch --resume {}` "
                               "judges them\n",
                               not_judged, jobs.back());
  }
  if (unreachable) return kExitError;
  return accepted == m.submissions.size() ? kExitOk : kExitRejected;
}

// Follows the stage until every task has finished: each task's moves (queued, running, done, ended) and each verdict
// as it lands, one line each, for the rounds from `from` on (a resume shows only its own); on a terminal, a progress
// line under them.
StageStatus follow(const GlobalOptions& g, const slurm::Cli& cli, const BatchStage& stage, int from) {
  const auto& m = stage.manifest();
  std::size_t total = 0;
  for (std::size_t r = static_cast<std::size_t>(from); r < m.rounds.size(); ++r)
    for (const auto& t : m.rounds[r].tasks) total += t.size();
  const bool live = !g.json && ::isatty(STDOUT_FILENO);
  ProgressLine line(std::cout);
  std::map<std::pair<int, int>, std::string> said;  // (round, task) -> what was last said of it
  std::set<std::pair<std::size_t, int>> landed;     // (submission, round) already shown
  std::size_t shown = 0;
  bool warned = false;
  const std::string width = std::to_string(std::to_string(total).size());
  while (true) {
    StageStatus st = stage_status(stage, ask_slurm(cli, stage, warned), true);
    if (!g.json) {
      line.finish();
      for (std::size_t i = 0; i < st.submissions.size(); ++i) {
        const auto& s = st.submissions[i];
        if (s.round < from || (s.state != StageState::judged && s.state != StageState::not_judged)) continue;
        if (!landed.insert({i, s.round}).second) continue;
        ++shown;
        std::cout << fmt::format("[{:>" + width + "}/{}] {:<24} {:<18} {:>10}  {}\n", shown, total,
                                 m.submissions[i].name, verdict_text(s),
                                 score_text(s.state == StageState::judged && s.verdict == Verdict::accepted,
                                            s.score_ms),
                                 s.state == StageState::judged
                                     ? fmt::format("task {} on {}", s.task, s.node.empty() ? "?" : s.node)
                                     : s.reason);
      }
      // After the verdicts: a task is said done once what it judged is shown.
      for (const auto& t : st.tasks) {
        if (t.round < from) continue;
        std::string now = t.describe();
        auto& before = said[{t.round, t.task}];
        if (now == before || (before.empty() && now == "submitted")) continue;
        before = now;
        std::cout << fmt::format("{}: {}\n", task_name(t), now);
      }
      std::cout.flush();
    }
    if (st.finished()) return st;
    if (live) {
      std::map<std::string, int> phases;
      for (const auto& t : st.tasks) {
        if (t.round < from) continue;
        if (t.finished()) ++phases["finished"];
        else if (t.slurm && slurm::phase_of(t.slurm->state) == slurm::Phase::running) ++phases["running"];
        else ++phases["queued"];
      }
      line.update(fmt::format("tasks: {} queued, {} running, {} finished; {} of {} judged", phases["queued"],
                              phases["running"], phases["finished"], shown, total),
                  static_cast<double>(shown) / static_cast<double>(std::max<std::size_t>(1, total)));
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

// After a job is submitted: its id (and, without --no-wait, everything until the summary).
int submitted(const GlobalOptions& g, const BatchOptions& o, const slurm::Cli& cli, const BatchStage& stage,
              int round) {
  const StageRound& r = stage.manifest().rounds.at(static_cast<std::size_t>(round));
  const std::string& job_id = r.job_id;
  const std::size_t tasks = r.tasks.size();
  std::size_t submissions = 0;
  for (const auto& t : r.tasks) submissions += t.size();
  if (o.slurm.no_wait) {
    if (g.json)
      std::cout << json{{"job_id", job_id}, {"stage", stage.dir().string()}, {"submissions", submissions},
                        {"tasks", tasks}}
                       .dump(2)
                << "\n";
    else
      std::cout << fmt::format("submitted Slurm job {}: {} submission(s) in {} task(s), staged in {}\n"
                               "follow it with: judge batch --status {}\n",
                               job_id, submissions, tasks, stage.dir().string(), job_id);
    return kExitOk;
  }
  if (!g.json)
    std::cout << fmt::format("Slurm job {}: {} submission(s) in {} task(s), staged in {}\n", job_id, submissions,
                             tasks, stage.dir().string());
  return report_stage(g, stage, follow(g, cli, stage, round), false);
}

}  // namespace

int run_slurm_batch(const GlobalOptions& g, const BatchOptions& o) {
  return guarded(g, [&](Reporter&) {
    const slurm::Cli cli = slurm::Cli::find();
    if (o.slurm.stage.empty())
      throw Error("--slurm needs --stage DIR: a directory every Slurm node sees at the same path (a shared "
                  "filesystem), where the challenge, the submissions and their states go");
    Challenge c = find_challenge(challenges_root(g), o.challenge);
    std::vector<BatchEntry> entries =
        collect_submissions(o.paths, o.name_from == "folder" ? NameFrom::folder : NameFrom::file);
    StageManifest m;
    // A database path is made absolute (the tasks start elsewhere); a URI is passed as given.
    const std::string db = o.db.empty() ? default_database_path().string() : o.db;
    m.db = db.find("://") != std::string::npos ? db : fs::absolute(db).string();
    m.judge = self_path().string();
    m.options = judging_flags_json(o);
    m.options["partition"] = o.slurm.partition;
    m.options["gpus_per_task"] = o.slurm.gpus_per_task;
    BatchStage stage = BatchStage::create(o.slurm.stage, c, entries, m);
    write_task_script(stage);
    std::vector<std::size_t> all(entries.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const int round = stage.add_round(all, default_tasks(o.slurm, entries.size()));
    submit_round(cli, stage, round, o.slurm.partition, o.slurm.gpus_per_task);
    return submitted(g, o, cli, stage, round);
  });
}

int run_slurm_status(const GlobalOptions& g, const BatchOptions& o) {
  return guarded(g, [&](Reporter&) {
    const slurm::Cli cli = slurm::Cli::find();
    BatchStage stage = BatchStage::open(stage_of_job(o, o.slurm.status));
    bool warned = false;
    return report_stage(g, stage, stage_status(stage, ask_slurm(cli, stage, warned), true), true);
  });
}

int run_slurm_resume(const GlobalOptions& g, const BatchOptions& o) {
  return guarded(g, [&](Reporter&) {
    const slurm::Cli cli = slurm::Cli::find();
    BatchStage stage = BatchStage::open(stage_of_job(o, o.slurm.resume));
    bool warned = false;
    const StageStatus st = stage_status(stage, ask_slurm(cli, stage, warned), true);
    // A task still going may yet judge what it holds: judging it again now could judge it twice.
    for (const auto& t : st.tasks)
      if (!t.finished())
        JUDGE_THROW(Error, "{} is still {}: wait for it to end (`judge batch --status {}`) or cancel it (`scancel "
                    "{}_{}`), then resume", task_name(t), t.describe(), o.slurm.resume, t.job_id, t.task);
    std::vector<std::size_t> missing;
    for (std::size_t i = 0; i < st.submissions.size(); ++i)
      if (st.submissions[i].state != StageState::judged) missing.push_back(i);
    if (missing.empty()) {
      if (!g.json) std::cout << fmt::format("nothing to resume: every submission of job {} was judged\n",
                                            o.slurm.resume);
      return report_stage(g, stage, st, true);
    }
    const json& opts = stage.manifest().options;
    const std::string partition = !o.slurm.partition.empty() ? o.slurm.partition : opts.value("partition", "");
    const int gpus = o.slurm.gpus_per_task != 1 ? o.slurm.gpus_per_task : opts.value("gpus_per_task", 1);
    const int round = stage.add_round(missing, default_tasks(o.slurm, missing.size()));
    submit_round(cli, stage, round, partition, gpus);
    return submitted(g, o, cli, stage, round);
  });
}

int run_slurm_task(const GlobalOptions& g, const BatchOptions& flags) {
  return guarded(g, [&](Reporter&) {
    const char* job = std::getenv("SLURM_ARRAY_JOB_ID");
    const char* task_env = std::getenv("SLURM_ARRAY_TASK_ID");
    if (!job || !task_env)
      throw Error("--slurm-task is what each task of `judge batch --slurm` runs, under Slurm (SLURM_ARRAY_JOB_ID and "
                  "SLURM_ARRAY_TASK_ID are not set)");
    const int task = std::atoi(task_env);
    const BatchStage stage = BatchStage::open(flags.slurm.task_dir);
    const StageManifest& m = stage.manifest();
    const auto& round = m.rounds.at(static_cast<std::size_t>(flags.slurm.task_round));
    if (task < 0 || static_cast<std::size_t>(task) >= round.tasks.size())
      JUDGE_THROW(Error, "task {} is not in round {} of {} ({} tasks)", task, flags.slurm.task_round,
                  stage.dir().string(), round.tasks.size());
    const char* node_env = std::getenv("SLURMD_NODENAME");
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const std::string node = node_env ? node_env : host;

    // What this task still has to judge: a task Slurm starts again (requeued) skips what it judged before.
    std::vector<std::size_t> indices;
    std::vector<BatchEntry> entries;
    for (std::size_t i : round.tasks[static_cast<std::size_t>(task)]) {
      const SubmissionState s = stage.state(i);
      if (s.state == StageState::judged || s.round != flags.slurm.task_round) continue;
      indices.push_back(i);
      entries.push_back({stage.submission_path(i), m.submissions[i].name});
    }
    std::cout << fmt::format("judge: task {} of job {} on {}: {} submission(s) to judge\n", task, job, node,
                             entries.size())
              << std::flush;
    if (entries.empty()) return kExitOk;

    BatchOptions o = flags;
    apply_judging_flags(m.options, o);
    const Challenge c = find_challenge(stage.challenges_dir(), m.challenge);
    ProbeResult probe = probe_devices(worker_path());
    // The GPUs Slurm gave this task (CUDA_VISIBLE_DEVICES): all the worker sees.
    std::vector<int> gpus;
    for (int d = 0; d < static_cast<int>(probe.devices.size()); ++d) gpus.push_back(d);
    if (gpus.empty()) gpus.push_back(0);
    const BatchPlan plan = make_batch_plan(g, o, probe, gpus);
    // Test hook: hold each run after it is marked judging, so that a test can kill the task mid-shard.
    const char* delay = std::getenv("JUDGE_TEST_SLURM_TASK_DELAY_S");
    run_batch(
        c, entries, plan,
        [&](const BatchResult& r) {
          const std::size_t i = indices[r.index];
          SubmissionState s;
          s.state = StageState::judged;
          s.round = flags.slurm.task_round;
          s.task = task;
          s.node = node;
          s.verdict = r.report.verdict;
          s.score_ms = r.report.score_ms;
          s.message = r.report.message;
          s.protections = r.report.protections;
          s.report = to_json(r.report);
          if (r.report.accepted()) s.record = record_submission(r.report, r.entry.name, m.db, m.run_key(i));
          stage.write_state(i, s);
          std::cout << fmt::format("judge: judged {} ({}): {}\n", r.entry.name, i, to_string(r.report.verdict))
                    << std::flush;
        },
        [&](std::size_t k, int) {
          SubmissionState s;
          s.state = StageState::judging;
          s.round = flags.slurm.task_round;
          s.task = task;
          s.node = node;
          stage.write_state(indices[k], s);
          std::cout << fmt::format("judge: judging {} ({})\n", entries[k].name, indices[k]) << std::flush;
          if (delay) std::this_thread::sleep_for(std::chrono::duration<double>(std::atof(delay)));
        });
    return kExitOk;
  });
}

}  // namespace judge::cli
