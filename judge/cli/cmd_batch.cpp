// `judge batch <challenge> <files or directories...> [--gpus all|0,2]`: many submissions judged as `judge submit`
// judges one (each its own worker and verdict, accepted ones recorded under their names), spread over the chosen GPUs
// of the host; a line per submission as it finishes, then a summary table, or one JSON document.
#include <algorithm>
#include <chrono>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "judge/cli/cli.hpp"
#include "judge/cli/record.hpp"
#include "judge/core/batch.hpp"
#include "judge/core/calibration.hpp"
#include "judge/core/paths.hpp"
#include "judge/core/progress_line.hpp"

namespace judge::cli {

namespace {

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
};

std::string score_text(const JudgeReport& r) {
  return r.accepted() ? format_duration_ms(r.score_ms) : std::string("-");
}

// Each run's own protections are in its report (--json); the summary says which were off, and in how many runs.
nlohmann::json protections_json(const BatchProtections& p) {
  nlohmann::json off = nlohmann::json::array();
  for (const auto& o : p.off) off.push_back({{"name", o.name}, {"why", o.why}, {"runs", o.runs}, {"of", o.of}});
  return {{"recorded_runs", p.recorded}, {"off", off}};
}

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

int run_batch_command(const GlobalOptions& g, const BatchOptions& o) {
  return guarded(g, [&](Reporter&) {
    const auto t0 = std::chrono::steady_clock::now();
    Challenge c = find_challenge(challenges_root(g), o.challenge);
    std::vector<BatchEntry> entries =
        collect_submissions(o.paths, o.name_from == "folder" ? NameFrom::folder : NameFrom::file);

    BatchPlan plan;
    plan.runs_per_gpu = o.runs_per_gpu;
    JudgeOptions& jo = plan.options;
    apply_timing_policy(o.timing, jo);
    jo.arch = o.arch;
    jo.nvcc_flags = o.nvcc_flags;
    jo.cache_dir = cache_dir();
    jo.worker = worker_path();
    ProbeResult probe = probe_devices(jo.worker);
    plan.gpus = parse_gpus(o.gpus, static_cast<int>(probe.devices.size()));
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
                               to_string(r.report.verdict), score_text(r.report), r.device,
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
      // The summary: accepted ones by score, then the rest in the order given.
      std::vector<std::size_t> order(results.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto& ra = results[a].report;
        const auto& rb = results[b].report;
        if (ra.accepted() != rb.accepted()) return ra.accepted();
        return ra.accepted() && ra.score_ms < rb.score_ms;
      });
      std::cout << fmt::format("\n{} on {} GPU(s): {} submissions, {} accepted, {:.1f} s ({:.1f} per minute)\n",
                               c.id, plan.gpus.size(), results.size(), accepted, wall_s,
                               60.0 * static_cast<double>(results.size()) / std::max(wall_s, 1e-9));
      std::cout << fmt::format("{:<24} {:<18} {:>10}  {}\n", "name", "verdict", "score", "message");
      for (std::size_t i : order) {
        const auto& r = results[i];
        std::string note = r.report.accepted() ? "" : r.report.message.substr(0, 80);
        if (records[i].attempted && !records[i].recorded)
          note = "not recorded: " + records[i].error + (records[i].saved_to.empty() ? "" : "; kept in " +
                                                                                            records[i].saved_to);
        std::cout << fmt::format("{:<24} {:<18} {:>10}  {}\n", r.entry.name, to_string(r.report.verdict),
                                 score_text(r.report), note);
      }
      print_protections(protections, std::cout);
      std::cout << fmt::format("leaderboard: {}\n", db.string());
    }
    return accepted == results.size() ? kExitOk : kExitRejected;
  });
}

}  // namespace

void setup_batch(CLI::App& app, const GlobalOptions& g) {
  auto o = std::make_shared<BatchOptions>();
  auto* b = app.add_subcommand("batch", "Judge many submissions of one challenge, as submit does, on all the GPUs");
  b->add_option("challenge", o->challenge, "Challenge id (see `judge list`)")->required();
  b->add_option("paths", o->paths, "Submission files, or directories searched for .cu files")->required();
  b->add_option("--gpus", o->gpus, "GPUs to use: all (default) or ordinals, e.g. 0,2");
  b->add_option("--name-from", o->name_from, "Leaderboard name of each submission: its file name (default) or the "
                                              "folder that holds it")
      ->check(CLI::IsMember({"file", "folder"}));
  b->add_option("--runs-per-gpu", o->runs_per_gpu, "Judging runs in flight per GPU; one times at a time (default 4)")
      ->check(CLI::Range(1, 16));
  b->add_option("--db", o->db, "Leaderboard database file")->envname("JUDGE_DB");
  add_timing_flags(b, o->timing);
  b->add_option("--arch", o->arch, kArchHelp);
  b->add_option("--nvcc-flag", o->nvcc_flags, "Extra flag for nvcc (repeatable)");
  b->callback([o, &g] { exit_code() = run_batch_command(g, *o); });
}

}  // namespace judge::cli
