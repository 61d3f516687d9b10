#include "judge/core/batch/slurm.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "judge/core/sandbox/process.hpp"

namespace judge::slurm {

namespace fs = std::filesystem;

namespace {

const char* const kInstall =
    "install Slurm's client tools (Debian/Ubuntu: apt-get install slurm-client) on this machine, configured for "
    "your cluster, or put them on PATH";

fs::path on_path(const std::string& tool) {
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');) {
      if (dir.empty()) continue;
      fs::path p = fs::path(dir) / tool;
      if (::access(p.c_str(), X_OK) == 0) return p;
    }
  }
  return {};
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& a : argv) line += (line.empty() ? "" : " ") + a;
  return line;
}

// Runs a Slurm tool; its merged output, or SlurmError naming the command line and quoting what it said.
Captured run_tool(const std::vector<std::string>& argv, std::chrono::seconds limit) {
  SpawnOptions o;
  o.argv = argv;
  Captured c;
  try {
    c = run_captured(o, limit);
  } catch (const ProcessError& e) {
    JUDGE_THROW(SlurmError, "{} could not be started: {}; {}", argv[0], e.what(), kInstall);
  }
  if (c.timed_out) {
    JUDGE_THROW(SlurmError,
                "`{}` did not answer within {} s: is the Slurm controller up and reachable (SLURM_CONF, `scontrol "
                "ping`)?",
                command_line(argv), limit.count());
  }
  return c;
}

}  // namespace

Phase phase_of(const std::string& state) {
  static const std::set<std::string> queued = {"PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD",
                                               "CONFIGURING"};
  static const std::set<std::string> running = {"RUNNING", "COMPLETING", "SUSPENDED", "STOPPED", "SIGNALING",
                                                "STAGE_OUT", "RESIZING"};
  if (queued.count(state)) return Phase::queued;
  if (running.count(state)) return Phase::running;
  if (state == "COMPLETED") return Phase::done;
  return Phase::ended;
}

std::string describe_end(const TaskInfo& t) {
  static const std::map<std::string, std::string> why = {
      {"CANCELLED", "scancel"},          {"TIMEOUT", "time limit"},       {"NODE_FAIL", "node failure"},
      {"PREEMPTED", "preempted"},        {"OUT_OF_MEMORY", "out of memory"}, {"BOOT_FAIL", "node boot failure"},
      {"DEADLINE", "deadline reached"}};
  auto w = why.find(t.state);
  if (w != why.end()) return fmt::format("{} ({})", t.state, w->second);
  if (t.state == "FAILED") {
    if (t.reason == "JobLaunchFailure")
      return "FAILED (Slurm could not launch it: JobLaunchFailure)";
    return fmt::format("FAILED (exit code {})", t.exit_code.empty() ? "unknown" : t.exit_code);
  }
  return t.state;
}

Cli Cli::find() {
  Cli cli;
  std::vector<std::string> missing;
  cli.sbatch_ = on_path("sbatch");
  cli.scontrol_ = on_path("scontrol");
  if (cli.sbatch_.empty()) missing.push_back("sbatch");
  if (cli.scontrol_.empty()) missing.push_back("scontrol");
  if (!missing.empty())
    JUDGE_THROW(SlurmError, "Slurm's command-line tools are not installed or not on PATH: {} not found; {}",
                fmt::join(missing, " and "), kInstall);
  return cli;
}

std::string parse_sbatch_parsable(const std::string& out) {
  std::stringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    line = trim(line);
    std::string id = line.substr(0, line.find(';'));
    if (!id.empty() && id.find_first_not_of("0123456789") == std::string::npos) return id;
  }
  JUDGE_THROW(SlurmError, "sbatch printed no job id: {}", trim(out));
}

std::vector<int> parse_task_ranges(const std::string& spec_in) {
  std::string spec = spec_in.substr(0, spec_in.find('%'));  // "%2": the array's throttle, not a task
  std::vector<int> out;
  std::stringstream items(spec);
  auto number = [&](const std::string& s) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
      JUDGE_THROW(SlurmError, "scontrol reported the array tasks '{}', which the judge cannot read", spec_in);
    return std::stoi(s);
  };
  for (std::string item; std::getline(items, item, ',');) {
    const auto dash = item.find('-');
    if (dash == std::string::npos) {
      out.push_back(number(item));
      continue;
    }
    int a = number(item.substr(0, dash)), b = number(item.substr(dash + 1));
    for (int k = a; k <= b; ++k) out.push_back(k);
  }
  return out;
}

std::vector<TaskInfo> parse_scontrol_jobs(const std::string& out, const std::string& job_id) {
  std::vector<TaskInfo> tasks;
  std::stringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::map<std::string, std::string> f;
    std::stringstream words(line);
    for (std::string w; words >> w;) {
      auto eq = w.find('=');
      if (eq != std::string::npos) f.emplace(w.substr(0, eq), w.substr(eq + 1));
    }
    if (!f.count("JobState") || f["ArrayJobId"] != job_id || !f.count("ArrayTaskId")) continue;
    for (int k : parse_task_ranges(f["ArrayTaskId"])) {
      TaskInfo t;
      t.task = k;
      t.state = f["JobState"];
      t.reason = f["Reason"] == "None" ? "" : f["Reason"];
      t.node = f["NodeList"] == "(null)" ? "" : f["NodeList"];
      t.exit_code = f["ExitCode"];
      tasks.push_back(t);
    }
  }
  std::sort(tasks.begin(), tasks.end(), [](const TaskInfo& a, const TaskInfo& b) { return a.task < b.task; });
  return tasks;
}

std::string Cli::submit(const ArraySubmission& job) const {
  std::vector<std::string> argv = {sbatch_.string(),
                                   "--parsable",
                                   fmt::format("--array=0-{}", job.tasks - 1),
                                   fmt::format("--gres=gpu:{}", job.gpus_per_task),
                                   "--ntasks=1",
                                   "--job-name=" + job.job_name,
                                   "--output=" + job.output.string(),
                                   "--chdir=" + job.workdir.string()};
  if (!job.partition.empty()) argv.push_back("--partition=" + job.partition);
  argv.push_back(job.script.string());
  argv.insert(argv.end(), job.args.begin(), job.args.end());
  Captured c = run_tool(argv, limit);
  if (!c.status.ok())
    JUDGE_THROW(SlurmError, "`{}` failed ({}): {}\nCheck the partition (`sinfo` lists them) and that it has GPUs as "
                "GRES (`--gres=gpu:{}`).",
                command_line(argv), c.status.describe(), trim(c.output), job.gpus_per_task);
  return parse_sbatch_parsable(c.output);
}

std::optional<std::vector<TaskInfo>> Cli::tasks(const std::string& job_id) const {
  std::vector<std::string> argv = {scontrol_.string(), "--oneliner", "show", "job", job_id};
  Captured c = run_tool(argv, limit);
  if (!c.status.ok()) {
    if (c.output.find("Invalid job id") != std::string::npos) return std::nullopt;
    JUDGE_THROW(SlurmError, "`{}` failed ({}): {}\nIs the Slurm controller up (`scontrol ping`)?", command_line(argv),
                c.status.describe(), trim(c.output));
  }
  return parse_scontrol_jobs(c.output, job_id);
}

}  // namespace judge::slurm
