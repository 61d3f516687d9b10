// `judge batch <challenge> <files or directories...> [--gpus all|0,2]`: many submissions judged as `judge submit`
// judges one (each its own worker and verdict, accepted ones recorded under their names), spread over the chosen GPUs
// of the host; a line per submission as it finishes, then a summary table, or one JSON document. With --slurm, over
// a Slurm cluster's GPUs instead (cmd_batch_slurm.cpp).
#include <algorithm>
#include <chrono>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "judge/cli/batch_cli.hpp"
#include "judge/cli/cli.hpp"
#include "judge/cli/record.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/base/progress_line.hpp"
#include "judge/core/batch/batch.hpp"
#include "judge/core/measure/calibration.hpp"

namespace judge::cli {

std::string score_text(bool accepted, double score_ms) {
  return accepted ? format_duration_ms(score_ms) : std::string("-");
}

// Each run's own protections are in its report (--json); the summary says which were off, and in how many runs.
nlohmann::json protections_json(const BatchProtections& p) {
  nlohmann::json off = nlohmann::json::array();
  for (const auto& o : p.off) off.push_back({{"name", o.name}, {"why", o.why}, {"runs", o.runs}, {"of", o.of}});
  return {{"recorded_runs", p.recorded}, {"off", off}};
}

nlohmann::json judging_flags_json(const BatchOptions& o) {
  const TimingFlags& t = o.timing;
  return {{"budget_s", t.budget_s},
          {"min_samples", t.min_samples},
          {"noise_pct", t.noise_pct},
          {"warmup_s", t.warmup_s},
          {"no_reference_timing", t.no_reference_timing},
          {"no_calibration", t.no_calibration},
          {"arch", o.arch},
          {"nvcc_flags", o.nvcc_flags},
          {"runs_per_gpu", o.runs_per_gpu}};
}

void apply_judging_flags(const nlohmann::json& j, BatchOptions& o) {
  TimingFlags& t = o.timing;
  t.budget_s = j.value("budget_s", 0.0);
  t.min_samples = j.value("min_samples", 0);
  t.noise_pct = j.value("noise_pct", 0.0);
  t.warmup_s = j.value("warmup_s", 0.0);
  t.no_reference_timing = j.value("no_reference_timing", false);
  t.no_calibration = j.value("no_calibration", false);
  o.arch = j.value("arch", "");
  o.nvcc_flags = j.value("nvcc_flags", std::vector<std::string>{});
  o.runs_per_gpu = j.value("runs_per_gpu", 4);
}

BatchPlan make_batch_plan(const GlobalOptions& g, const BatchOptions& o, const ProbeResult& probe,
                          std::vector<int> gpus) {
  BatchPlan plan;
  plan.runs_per_gpu = o.runs_per_gpu;
  JudgeOptions& jo = plan.options;
  apply_timing_policy(o.timing, jo);
  jo.arch = o.arch;
  jo.nvcc_flags = o.nvcc_flags;
  jo.cache_dir = cache_dir();
  jo.worker = worker_path();
  plan.gpus = std::move(gpus);
  if (probe.devices.empty()) {
    // Nothing can run: each run builds its submission (the compile check) and says there is no GPU.
    plan.runs_per_gpu = 1;
    return plan;
  }
  // Build ahead on half the cores (the rest start workers and check outputs), for each architecture in use.
  plan.build_threads = std::max(1u, std::thread::hardware_concurrency() / 2);
  for (int d : plan.gpus) {
    const std::string arch = o.arch.empty() ? probe.devices[d].build_arch() : o.arch;
    if (std::find(plan.build_archs.begin(), plan.build_archs.end(), arch) == plan.build_archs.end())
      plan.build_archs.push_back(arch);
  }
  // Each GPU's ceilings, measured here (once per kind of GPU) rather than by runs that would wait for each other.
  for (int d : plan.gpus) {
    plan.calibration[d] = std::nullopt;
    if (o.timing.no_calibration) continue;
    try {
      plan.calibration[d] = ensure_calibration(jo.worker, probe.devices[d], !g.json && ::isatty(STDERR_FILENO),
                                               std::cerr);
    } catch (const std::exception& e) {
      if (!g.json) std::cerr << "warning: no calibration for GPU " << d << ": " << e.what() << "\n";
    }
  }
  return plan;
}

namespace {

void print_protections(const BatchProtections& p, std::ostream& out) {
  if (p.recorded == 0) return;
  if (p.off.empty()) {
    out << fmt::format("sandbox: every protection on in the {} runs that recorded them\n", p.recorded);
    return;
  }
  out << fmt::format("sandbox: {} off (`judge doctor` explains each):\n",
                     p.off.size() == 1 ? "one protection was" : fmt::format("{} protections were", p.off.size()));
  for (const auto& o : p.off)
    out << fmt::format("  {}: off in {} of {} runs{}\n", o.name, o.runs, o.of,
                       o.why.empty() ? "" : " (" + o.why + ")");
}

}  // namespace

void print_batch_summary(std::ostream& out, const std::string& headline, const std::vector<SummaryRow>& rows,
                         const BatchProtections& protections, const std::string& db) {
  // Accepted ones by score, then the rest in the order given.
  std::vector<std::size_t> order(rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (rows[a].accepted != rows[b].accepted) return rows[a].accepted;
    return rows[a].accepted && rows[a].score_ms < rows[b].score_ms;
  });
  out << "\n" << headline << "\n";
  out << fmt::format("{:<24} {:<18} {:>10}  {}\n", "name", "verdict", "score", "message");
  for (std::size_t i : order) {
    const auto& r = rows[i];
    std::string note = r.accepted ? "" : r.message.substr(0, 80);
    if (r.record.attempted && !r.record.recorded)
      note = "not recorded: " + r.record.error + (r.record.saved_to.empty() ? "" : "; kept in " + r.record.saved_to);
    out << fmt::format("{:<24} {:<18} {:>10}  {}\n", r.name, r.verdict, score_text(r.accepted, r.score_ms), note);
  }
  print_protections(protections, out);
  out << fmt::format("leaderboard: {}\n", db);
}

namespace {

int run_batch_command(const GlobalOptions& g, const BatchOptions& o) {
  return guarded(g, [&](Reporter&) {
    const auto t0 = std::chrono::steady_clock::now();
    Challenge c = find_challenge(challenges_root(g), o.challenge);
    std::vector<BatchEntry> entries =
        collect_submissions(o.paths, o.name_from == "folder" ? NameFrom::folder : NameFrom::file);

    ProbeResult probe = probe_devices(worker_path());
    BatchPlan plan = make_batch_plan(g, o, probe, parse_gpus(o.gpus, static_cast<int>(probe.devices.size())));
    const std::filesystem::path db = o.db.empty() ? default_database_path() : std::filesystem::path(o.db);
    const bool live = !g.json && ::isatty(STDOUT_FILENO);
    ProgressLine line(std::cout);
    std::vector<RecordOutcome> records(entries.size());
    std::size_t finished = 0, accepted = 0;
    if (live) line.update(fmt::format("{} submissions on {} GPU(s)", entries.size(), plan.gpus.size()), 0);
    std::vector<BatchResult> results = run_batch(c, entries, plan, [&](const BatchResult& r) {
      const std::size_t i = r.index;
      if (r.report.accepted()) {
        records[i] = record_submission(r.report, r.entry.name, db);
        ++accepted;
      }
      ++finished;
      if (g.json) return;
      line.finish();
      std::cout << fmt::format("[{:>{}}/{}] {:<24} {:<18} {:>10}  GPU {}{}\n", finished,
                               std::to_string(entries.size()).size(), entries.size(), r.entry.name,
                               to_string(r.report.verdict), score_text(r.report.accepted(), r.report.score_ms),
                               r.device,
                               records[i].attempted && !records[i].recorded ? "  (not recorded: see below)" : "");
      if (live)
        line.update(fmt::format("{} of {} judged, {} accepted", finished, entries.size(), accepted),
                    static_cast<double>(finished) / static_cast<double>(entries.size()));
    });
    line.finish();
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const BatchProtections protections = batch_protections(results);

    if (g.json) {
      nlohmann::json list = nlohmann::json::array();
      for (std::size_t i = 0; i < results.size(); ++i) {
        nlohmann::json e = {{"name", results[i].entry.name},
                            {"source", results[i].entry.source.string()},
                            {"device", results[i].device},
                            {"report", to_json(results[i].report)}};
        if (records[i].attempted)
          e["record"] = {{"recorded", records[i].recorded}, {"rank", records[i].rank}, {"error", records[i].error},
                         {"saved_to", records[i].saved_to}};
        list.push_back(e);
      }
      std::cout << nlohmann::json{{"challenge", c.id},          {"gpus", plan.gpus},
                                  {"runs_per_gpu", o.runs_per_gpu}, {"wall_s", wall_s},
                                  {"submissions", list.size()},  {"accepted", accepted},
                                  {"protections", protections_json(protections)},
                                  {"results", list}}
                       .dump(2)
                << "\n";
    } else {
      std::vector<SummaryRow> rows;
      for (std::size_t i = 0; i < results.size(); ++i) {
        const JudgeReport& r = results[i].report;
        rows.push_back({results[i].entry.name, std::string(to_string(r.verdict)), r.accepted(), r.score_ms, r.message, records[i]});
      }
      print_batch_summary(std::cout,
                          fmt::format("{} on {} GPU(s): {} submissions, {} accepted, {:.1f} s ({:.1f} per minute)",
                                      c.id, plan.gpus.size(), results.size(), accepted, wall_s,
                                      60.0 * static_cast<double>(results.size()) / std::max(wall_s, 1e-9)),
                          rows, protections, db.string());
    }
    return accepted == results.size() ? kExitOk : kExitRejected;
  });
}

}  // namespace

void setup_batch(CLI::App& app, const GlobalOptions& g) {
  auto o = std::make_shared<BatchOptions>();
  auto* b = app.add_subcommand("batch", "Judge many submissions of one challenge, as submit does, on all the GPUs");
  // Required unless --status, --resume or --slurm-task names a batch already staged (checked in the callback).
  b->add_option("challenge", o->challenge, "Challenge id (see `judge list`)");
  b->add_option("paths", o->paths, "Submission files, or directories searched for .cu files");
  b->add_option("--gpus", o->gpus, "GPUs to use: all (default) or ordinals, e.g. 0,2");
  b->add_option("--name-from", o->name_from, "Leaderboard name of each submission: its file name (default) or the "
                                              "folder that holds it")
      ->check(CLI::IsMember({"file", "folder"}));
  b->add_option("--runs-per-gpu", o->runs_per_gpu, "Judging runs in flight per GPU; one times at a time (default 4)")
      ->check(CLI::Range(1, 16));
  b->add_option("--db", o->db, "Leaderboard database: an SQLite file, or a postgresql:// URI")->envname("JUDGE_DB");
  add_timing_flags(b, o->timing);
  b->add_option("--arch", o->arch, kArchHelp);
  b->add_option("--nvcc-flag", o->nvcc_flags, "Extra flag for nvcc (repeatable)");
  SlurmFlags& sl = o->slurm;
  const char* const slurm = "Slurm (a job array over a cluster's GPUs)";
  b->add_flag("--slurm", sl.enabled, "Judge on a Slurm cluster: a job array, one GPU per task, sharing the "
                                     "submissions; needs --stage")->group(slurm);
  b->add_option("--stage", sl.stage, "Directory every Slurm node sees at the same path (shared filesystem): the "
                                     "challenge, the submissions and each one's state go there")
      ->envname("JUDGE_SLURM_STAGE")->group(slurm);
  b->add_option("--partition", sl.partition, "Slurm partition (default: the cluster's)")->group(slurm);
  b->add_option("--gpus-per-task", sl.gpus_per_task, "GPUs each task asks for (--gres=gpu:N; default 1)")
      ->check(CLI::Range(1, 16))->group(slurm);
  b->add_option("--tasks", sl.tasks, fmt::format("Tasks of the array (default: one per submission, at most {})",
                                                 kDefaultSlurmTasks))
      ->check(CLI::Range(1, 10000))->group(slurm);
  b->add_flag("--no-wait", sl.no_wait, "Print the job id and return; `judge batch --status ID` follows it")
      ->group(slurm);
  b->add_option("--status", sl.status, "Show Slurm job ID's batch: each task, each verdict, the summary")
      ->group(slurm);
  b->add_option("--resume", sl.resume, "Judge what Slurm job ID's batch left not judged, in a new job array")
      ->group(slurm);
  // What each task of the array runs (the stage's task.sh): hidden.
  b->add_option("--slurm-task", sl.task_dir)->group("");
  b->add_option("--round", sl.task_round)->group("");
  b->callback([o, &g] {
    const SlurmFlags& s = o->slurm;
    if (!s.task_dir.empty()) {
      exit_code() = run_slurm_task(g, *o);
    } else if (!s.status.empty()) {
      exit_code() = run_slurm_status(g, *o);
    } else if (!s.resume.empty()) {
      exit_code() = run_slurm_resume(g, *o);
    } else {
      if (o->challenge.empty() || o->paths.empty())
        throw CLI::ValidationError("batch", "give the challenge and the submissions (files or directories), or "
                                            "--status ID / --resume ID");
      exit_code() = s.enabled ? run_slurm_batch(g, *o) : run_batch_command(g, *o);
    }
  });
}

}  // namespace judge::cli
