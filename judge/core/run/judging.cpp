#include "judge/core/run/judging.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>

#include <unistd.h>

#include "judge/core/base/phase_times.hpp"
#include "judge/core/measure/gpu_lock.hpp"
#include "judge/core/measure/kernel_resources.hpp"
#include "judge/core/sandbox/process.hpp"

namespace judge {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

// Generous limits for everything that is not a solve() call: context creation, generating gigabytes of input,
// the reference, the checks.
constexpr std::chrono::duration<double> kStartupLimit = std::chrono::seconds(120);
constexpr std::chrono::duration<double> kSetupLimit = std::chrono::seconds(180);
constexpr std::size_t kOutputLimit = 64 * 1024;

// CLOCK_MONOTONIC seconds, the clock the worker stamps its timing window with.
double monotonic_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Clock::time_point from_now(std::chrono::duration<double> d) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(d);
}

// A job file that removes itself.
class JobFile {
 public:
  JobFile(const fs::path& dir, const json& job) {
    fs::create_directories(dir);
    path_ = dir / fmt::format("job-{}-{}.json", ::getpid(), random_seed());
    std::ofstream out(path_);
    out << job.dump(2);
    if (!out) JUDGE_THROW(Error, "cannot write the job file {}: is {} writable?", path_.string(), dir.string());
  }
  ~JobFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  JobFile(const JobFile&) = delete;
  JobFile& operator=(const JobFile&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The cases one worker runs: "tests" as checked calls, "benchmarks" timed.
struct CaseLists {
  std::vector<std::string> tests, benchmarks;
  bool stop_on_failure = false;
  bool empty() const { return tests.empty() && benchmarks.empty(); }
  std::size_t size() const { return tests.size() + benchmarks.size(); }
};

// What decides the verdict: the graded cases (every case under --strict), or the cases named with --case, which run
// as checked calls without timing, benchmarks included (the worker finds them among either): that is how a failure in
// submit is replayed.
CaseLists graded_cases(const Challenge& ch, const JudgeOptions& o) {
  CaseLists l;
  l.stop_on_failure = o.mode == Mode::submit;
  auto graded = [&](const Case& k) { return !k.stress || o.strict; };
  if (!o.cases.empty()) {
    for (const auto& name : o.cases) {
      require_case(ch, name);
      l.tests.push_back(name);
    }
    return l;
  }
  for (const auto& c : ch.tests)
    if (graded(c)) l.tests.push_back(c.name);
  if (o.mode == Mode::submit)
    for (const auto& c : ch.benchmarks)
      if (graded(c)) l.benchmarks.push_back(c.name);
  return l;
}

// The stress cases, run once the graded ones pass, each for its own verdict: a failure does not stop the others. The
// graded cases' worker goes on to them (one worker start, not two); a fresh worker takes over from a stress case that
// ended its worker.
// None under --strict (they were graded), for named cases, or under a tool (the sanitizer and Nsight Compute are for
// the graded failure at hand, and slow on large cases).
CaseLists stress_cases(const Challenge& ch, const JudgeOptions& o) {
  CaseLists l;
  if (o.strict || !o.cases.empty() || o.sanitize || o.wrapper) return l;
  for (const auto& c : ch.tests)
    if (c.stress) l.tests.push_back(c.name);
  if (o.mode == Mode::submit)
    for (const auto& c : ch.benchmarks)
      if (c.stress) l.benchmarks.push_back(c.name);
  return l;
}

// `then`: the stress cases the same worker goes on to once every case of `lists` was accepted (stress_cases()).
json job_for(const Challenge& ch, const fs::path& library, const std::string& library_sha256, const JudgeOptions& o,
             std::uint64_t seed, const CaseLists& lists, const CaseLists& then) {
  json timing = {{"warmup_s", o.timing.warmup_s},       {"min_warmup_calls", o.timing.min_warmup_calls},
                 {"min_samples", o.timing.min_samples}, {"max_samples", o.timing.max_samples},
                 {"target_noise_pct", o.timing.target_noise_pct}, {"budget_s", o.timing.budget_s}};
  return {{"challenge_dir", fs::absolute(ch.dir).string()},
          {"library", fs::absolute(library).string()},
          {"library_sha256", library_sha256},
          {"seed", seed},
          {"device", o.device},
          {"tests", lists.tests},
          {"benchmarks", lists.benchmarks},
          {"stop_on_failure", lists.stop_on_failure},
          {"stress_tests", then.tests},
          {"stress_benchmarks", then.benchmarks},
          {"calls", o.mode == Mode::submit ? 1 : o.calls},
          {"timing", timing},
          {"time_reference", o.time_reference},
          // Only submit times anything. CUPTI, compute-sanitizer and Nsight Compute all attach through the tools
          // interface and exclude one another: `judge run` leaves it to them (under ncu, under the sanitizer).
          {"cupti", o.mode == Mode::submit && o.cupti && !o.sanitize},
          {"sanitize", o.sanitize.has_value()}};
}

// Follows one worker to its end.
class WorkerSession {
 public:
  WorkerSession(JudgeReport& report, const Challenge& ch, const JudgeOptions& o, int case_count)
      : r_(report), ch_(ch), o_(o), case_count_(case_count) {}

  void run(const fs::path& job, const std::vector<std::string>& prefix) {
    SpawnOptions spawn;
    spawn.argv = prefix;
    for (const std::string& a : {o_.worker.string(), std::string("run"), std::string("--job"), job.string(),
                                 std::string("--message-fd"), std::string("3")})
      spawn.argv.push_back(a);
    spawn.output_limit = kOutputLimit;
    spawned_ = Clock::now();
    ChildProcess child = ChildProcess::spawn(spawn);
    deadline_ = from_now(kStartupLimit * slowdown());
    std::string line;
    bool hung = false;
    for (;;) {
      auto next = child.next_message(line, deadline_);
      if (next == ChildProcess::Next::closed) break;
      if (next == ChildProcess::Next::timeout) {
        hung = true;
        child.kill_group();
        break;
      }
      handle(line);
      if (done_) break;
    }
    ExitStatus status = child.wait(Clock::now() + std::chrono::seconds(10));
    // A worker that ended holding the lock released it by ending.
    if (holding_) release_gpu(monotonic_s());
    r_.output = child.output();
    r_.output_dropped = child.output_dropped();
    if (hung) return on_hang();
    if (!done_ && !fatal_) on_death(status);
  }

 private:
  void handle(const std::string& line) {
    json m = json::parse(line, nullptr, false);
    // Not ours (the submission wrote to the pipe): ignored; the verdicts do not depend on it.
    if (m.is_discarded() || !m.is_object() || !m.contains("event")) return;
    std::string ev = m.value("event", "");
    if (phase_times_on() && ev != "call" && ev != "progress")
      note_phase("worker: " + ev + (ev == "case_begin" ? " " + m.value("case", "") : ""));
    try {
      if (ev == "device") {
        r_.worker_start_s = std::chrono::duration<double>(Clock::now() - spawned_).count();
        r_.device = m.at("device").get<DeviceInfo>();
        r_.timer = m.value("timer", "");
        stage_ = "loading the submission";
        deadline_ = from_now(kSetupLimit * slowdown());
      } else if (ev == "protections") {
        for (const auto& p : m.at("protections")) r_.protections.push_back(p.get<Protection>());
      } else if (ev == "timer") {
        r_.timer = m.value("timer", r_.timer);
        r_.timer_warning = m.value("warning", "");
      } else if (ev == "stage") {
        deadline_ = from_now(kSetupLimit * slowdown());
      } else if (ev == "gpu_wait") {
        // Another judge is timing on this GPU: its worker's own deadlines bound how long that can take (and the
        // lock dies with it), so ours waits without one.
        if (!r_.gpu_lock) r_.gpu_lock = GpuLockReport{};
        r_.gpu_lock->waited = true;
        r_.gpu_lock->waited_for = m.value("holder", "");
        stage_ = "waiting for the GPU";
        deadline_ = Clock::time_point::max();
        if (o_.on_notice)
          o_.on_notice(fmt::format("waiting for GPU {}: {}", o_.device,
                                   r_.gpu_lock->waited_for.empty() ? "another judge is timing on it"
                                                                   : r_.gpu_lock->waited_for));
      } else if (ev == "gpu_lock") {
        if (!r_.gpu_lock) r_.gpu_lock = GpuLockReport{};
        r_.gpu_lock->waited_s += m.value("waited_s", 0.0);
        hold_from_ = m.value("at", 0.0);
        holding_ = true;
        if (r_.gpu_lock->holds.empty()) r_.gpu_lock->start_s = hold_from_;
        stage_ = "between cases";
        deadline_ = from_now(kSetupLimit * slowdown());
      } else if (ev == "gpu_release") {
        if (holding_) release_gpu(m.value("at", 0.0));
      } else if (ev == "progress") {
        progress_.phase = m.value("phase", "timing");
        progress_.calls = m.value("calls", 0);
        progress_.median_ms = m.value("median_ms", 0.0);
        progress_.noise_pct = m.value("noise_pct", 0.0);
        progress_.elapsed_s = m.value("elapsed_s", 0.0);
        progress_.budget_s = m.value("budget_s", 0.0);
        show_progress();
      } else if (ev == "case_begin") {
        case_ = m.value("case", "");
        kind_ = m.value("kind", "test");
        progress_ = RunProgress{case_, kind_, static_cast<int>(r_.cases.size()), case_count_};
        show_progress();
        stage_ = "preparing case " + case_;
        in_call_ = false;
        deadline_ = from_now(kSetupLimit * slowdown());
      } else if (ev == "call") {
        call_index_ = m.value("index", 0);
        stage_ = fmt::format("solve() call {} of case {}", call_index_ + 1, case_);
        in_call_ = true;
        deadline_ = from_now(std::chrono::duration<double>(timeout_s()));
        if (progress_.phase == "preparing" || progress_.phase == "call") {  // timed calls report as "progress"
          progress_.phase = "call";
          progress_.call = call_index_ + 1;
          show_progress();
        }
      } else if (ev == "case_end") {
        CaseResult c = m.at("result").get<CaseResult>();
        r_.cases.push_back(c);
        case_.clear();
        in_call_ = false;
        stage_ = "between cases";
        deadline_ = from_now(kSetupLimit * slowdown());
      } else if (ev == "fatal") {
        fatal_ = true;
        Verdict v = m.at("verdict").get<Verdict>();
        fail(v, m.value("message", ""));
      } else if (ev == "notice") {
        if (o_.on_notice) o_.on_notice(m.value("notice", ""));
      } else if (ev == "done") {
        done_ = true;
      }
    } catch (const std::exception&) {
      // A malformed message of ours cannot happen; a forged one is ignored like any other noise.
    }
  }

  void show_progress() {
    if (o_.on_progress) o_.on_progress(progress_);
  }

  // compute-sanitizer makes kernels and CUDA calls one to two orders of magnitude slower.
  double slowdown() const { return o_.sanitize ? 50.0 : o_.wrapper ? o_.wrapper->slowdown : 1.0; }
  double timeout_s() const { return o_.timeout_s.value_or(ch_.timeout_s) * slowdown(); }

  void fail(Verdict v, const std::string& message) {
    CaseResult c;
    c.name = case_.empty() ? "(no case)" : case_;
    c.kind = kind_;
    c.verdict = v;
    c.message = message;
    if (in_call_) c.failed_call = call_index_ + 1;
    if (!case_.empty()) r_.cases.push_back(c);
    fatal_verdict_ = v;
    fatal_message_ = message;
    fatal_case_ = case_;
  }

  void on_hang() {
    if (in_call_)
      fail(Verdict::timeout, fmt::format("solve() did not return within {:g} s (call {} of case {}); the worker "
                                         "process was killed",
                                         timeout_s(), call_index_ + 1, case_));
    else
      fail(Verdict::internal_error, fmt::format("the worker stopped responding while {}; it was killed", stage_));
  }

  void on_death(const ExitStatus& status) {
    std::string where = case_.empty() ? stage_ : (in_call_ ? stage_ : "preparing or checking case " + case_);
    if (status.exited && status.code == 0)
      fail(Verdict::crashed, fmt::format("the process exited normally (code 0) during {}: did solve() call exit()?",
                                         where));
    else if (status.exited)
      fail(Verdict::crashed, fmt::format("the process exited with code {} during {}", status.code, where));
    else
      fail(Verdict::crashed, fmt::format("the process was killed by {} during {}", describe_signal(status.signal),
                                         where));
  }

 public:
  std::optional<Verdict> fatal_verdict_;
  std::string fatal_message_;
  std::string fatal_case_;  // the case the fatal error struck; empty between cases

 private:
  JudgeReport& r_;
  const Challenge& ch_;
  const JudgeOptions& o_;
  Clock::time_point deadline_;
  Clock::time_point spawned_;
  std::string stage_ = "starting the worker";
  std::string case_;
  std::string kind_ = "test";
  int call_index_ = 0;
  bool in_call_ = false;
  bool done_ = false;
  bool holding_ = false;  // the worker holds the GPU lock, since hold_from_
  double hold_from_ = 0;

  void release_gpu(double at) {
    holding_ = false;
    r_.gpu_lock->end_s = at;
    r_.gpu_lock->holds.emplace_back(hold_from_, at);
  }
  bool fatal_ = false;
  int case_count_ = 0;
  RunProgress progress_;
};

// The worker knows nothing of stress: the judge marks those results from the spec.
void mark_stress_cases(std::vector<CaseResult>& results, const Challenge& ch) {
  for (auto& result : results)
    for (const auto* list : {&ch.tests, &ch.benchmarks})
      for (const auto& k : *list)
        if (k.name == result.name && k.stress) {
          result.stress = true;
          result.beyond = k.beyond;
        }
}

bool erase_name(std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return false;
  names.erase(it);
  return true;
}

// Whether a reported case is one of `lists` (a benchmark among its benchmarks, a test among its tests).
bool in_lists(const CaseLists& lists, const CaseResult& c) {
  const auto& names = c.kind == "benchmark" ? lists.benchmarks : lists.tests;
  return std::find(names.begin(), names.end(), c.name) != names.end();
}

// How a worker ended: the fatal error it met, if any, and the case that error struck (empty: between cases).
struct WorkerEnd {
  std::optional<Verdict> verdict;
  std::string message;
  std::string case_name;
};

// Moves the reported cases that `remaining` still waits for onto the report, striking them off it.
void take_reported(JudgeReport& r, CaseLists& remaining, std::vector<CaseResult>& reported) {
  for (auto& c : reported)
    if (erase_name(c.kind == "benchmark" ? remaining.benchmarks : remaining.tests, c.name))
      r.cases.push_back(std::move(c));
}

// The first of `remaining` takes the verdict of a worker that ended before it reported it.
void settle_first(JudgeReport& r, CaseLists& remaining, const WorkerEnd& end) {
  CaseResult c;
  c.kind = remaining.tests.empty() ? "benchmark" : "test";
  c.name = c.kind == "test" ? remaining.tests.front() : remaining.benchmarks.front();
  c.verdict = end.verdict.value_or(Verdict::internal_error);
  c.message = end.verdict ? end.message : "the worker ended before it reported this case";
  erase_name(c.kind == "test" ? remaining.tests : remaining.benchmarks, c.name);
  r.cases.push_back(std::move(c));
}

// Runs the stress cases, each to its own verdict. A worker that dies on one (a crash, a hang, a sticky CUDA error)
// has its case take that verdict, and a fresh worker goes on with the cases after it; every round settles at least
// one case, so this ends.
template <typename RunWorker>
void run_stress_phase(JudgeReport& r, CaseLists remaining, RunWorker&& run_worker) {
  while (!remaining.empty()) {
    JudgeReport part;
    part.device = r.device;
    const WorkerEnd end = run_worker(part, remaining);
    const std::size_t before = remaining.size();
    take_reported(r, remaining, part.cases);
    if (remaining.size() == before && !remaining.empty()) settle_first(r, remaining, end);
    if (r.output.size() < kOutputLimit) r.output += part.output.substr(0, kOutputLimit - r.output.size());
    r.output_dropped += part.output_dropped;
    if (part.gpu_lock) {
      if (!r.gpu_lock) {
        r.gpu_lock = part.gpu_lock;
      } else {
        r.gpu_lock->waited = r.gpu_lock->waited || part.gpu_lock->waited;
        if (r.gpu_lock->waited_for.empty()) r.gpu_lock->waited_for = part.gpu_lock->waited_for;
        r.gpu_lock->waited_s += part.gpu_lock->waited_s;
        r.gpu_lock->end_s = part.gpu_lock->end_s;
        r.gpu_lock->holds.insert(r.gpu_lock->holds.end(), part.gpu_lock->holds.begin(), part.gpu_lock->holds.end());
      }
    }
  }
}

void read_sanitizer_log(JudgeReport& r, const fs::path& log, const fs::path& source) {
  std::ifstream in(log);
  std::ostringstream text;
  text << in.rdbuf();
  std::error_code ec;
  fs::remove(log, ec);
  if (!in && text.str().empty()) return;
  r.sanitizer = parse_sanitizer_output(text.str(), source.filename().string());
  r.sanitizer_text = format_findings(*r.sanitizer, r.build.source_text);
}

}  // namespace

void require_case(const Challenge& ch, const std::string& name) {
  for (const auto* list : {&ch.tests, &ch.benchmarks})
    for (const auto& c : *list)
      if (c.name == name) return;
  std::string known;
  for (const auto* list : {&ch.tests, &ch.benchmarks})
    for (const auto& c : *list) known += (known.empty() ? "" : ", ") + c.name;
  JUDGE_THROW(Error, "challenge '{}' has no case named '{}'; its cases are: {}", ch.id, name, known);
}

std::uint64_t random_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

double score_of(const std::vector<CaseResult>& cases) {
  double log_sum = 0;
  int n = 0;
  for (const auto& c : cases) {
    if (c.kind != "benchmark" || c.stress) continue;  // graded benchmarks only, also under --strict
    if (!c.timing || c.timing->median_ms <= 0) return 0;
    log_sum += std::log(c.timing->median_ms);
    ++n;
  }
  return n ? std::exp(log_sum / n) : 0;
}

ProbeResult probe_devices(const fs::path& worker) {
  // Once per process for each worker and GPU selection: a probe is a worker start (a second or so of a submit's
  // wall time, paid again per submission in a batch), and the GPUs of a host do not change under a running judge.
  static std::mutex mutex;
  static std::map<std::string, ProbeResult> found;
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  const char* order = std::getenv("CUDA_DEVICE_ORDER");
  const std::string key = fmt::format("{}\n{}\n{}", fs::absolute(worker).string(), visible ? visible : "(unset)",
                                      order ? order : "(unset)");
  std::lock_guard<std::mutex> hold(mutex);
  if (auto it = found.find(key); it != found.end()) return it->second;
  ProbeResult result = probe_devices_now(worker);
  if (!result.devices.empty()) found.emplace(key, result);  // none found: ask again next time
  return result;
}

ProbeResult probe_devices_now(const fs::path& worker) {
  ProbeResult result;
  SpawnOptions spawn;
  // judge-probe beside the worker answers the same without loading the worker's libraries; else the worker itself.
  const fs::path light = worker.parent_path() / "judge-probe";
  if (::access(light.c_str(), X_OK) == 0) spawn.argv = {light.string()};
  else spawn.argv = {worker.string(), "probe"};
  spawn.output_limit = 1 << 20;
  ChildProcess child = ChildProcess::spawn(spawn);
  std::string line;
  auto deadline = from_now(kStartupLimit);
  while (child.next_message(line, deadline) == ChildProcess::Next::line) {
  }
  ExitStatus status = child.wait(Clock::now() + std::chrono::seconds(5));
  json j = json::parse(child.output(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    result.error = fmt::format("{} probe failed ({}): {}", worker.string(), status.describe(), child.output());
    return result;
  }
  for (const auto& d : j.value("devices", json::array())) result.devices.push_back(d.get<DeviceInfo>());
  result.error = j.value("error", "");
  return result;
}

JudgeReport judge_submission(const Challenge& ch, const fs::path& source, const JudgeOptions& o) {
  auto t0 = Clock::now();
  JudgeReport r;
  r.challenge = ch.id;
  r.mode = o.mode;
  r.seed = o.mode == Mode::submit || !o.seed ? random_seed() : *o.seed;

  note_phase("judge: start");
  ProbeResult probe = probe_devices(o.worker);
  note_phase("judge: probed");
  if (o.device >= 0 && o.device < static_cast<int>(probe.devices.size())) r.device = probe.devices[o.device];

  BuildRequest req;
  req.source = source;
  req.cache_dir = o.cache_dir;
  req.extra_flags = o.nvcc_flags;
  req.arch = !o.arch.empty() ? o.arch : r.device ? r.device->build_arch() : "sm_90";
  r.build = build_solution(ch, req);
  note_phase("judge: built");
  {
    const bool confined = !r.build.sandbox.empty() && r.build.sandbox.rfind("none", 0) != 0;
    r.protections.push_back({protection::compile_sandbox, confined,
                             r.build.sandbox.empty() ? "not recorded for this build" : r.build.sandbox});
  }
  auto finish = [&] {
    r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    return r;
  };
  if (!r.build.ok) {
    r.verdict = Verdict::compile_error;
    r.message = fmt::format("{} does not compile for {}", source.string(), req.arch);
    return finish();
  }
  if (!r.device) {
    r.verdict = Verdict::no_device;
    r.message = probe.devices.empty()
                    ? fmt::format("{} compiles for {}, but no CUDA device is present, so nothing was run{}",
                                  source.string(), req.arch, probe.error.empty() ? "" : " (" + probe.error + ")")
                    : fmt::format("there is no CUDA device {} ({} present)", o.device, probe.devices.size());
    return finish();
  }

  // One worker for the graded cases and, once every one of them passed, the stress cases; a fresh one for the stress
  // cases after one that ended its worker (run_stress_phase).
  auto run_worker = [&](JudgeReport& into, const CaseLists& lists, const CaseLists& then) {
    json job_json = job_for(ch, r.build.library, r.build.library_sha256, o, r.seed, lists, then);
    // The GPU by its UUID, which the probe found: the worker starts the solver on it before making its own context.
    if (!r.device->uuid.empty()) job_json["device_uuid"] = r.device->uuid;
    // One timer per GPU: the worker holds this GPU's lock while it times (never under the sanitizer, which times
    // nothing).
    if (o.mode == Mode::submit && !o.sanitize && (!lists.benchmarks.empty() || !then.benchmarks.empty()))
      job_json["gpu_lock"] = {
          {"file", GpuLock::file_for(o.cache_dir, r.device->key()).string()},
          {"holder", fmt::format("{} (pid {})", o.lock_holder.empty() ? "judge submit" : o.lock_holder, ::getpid())}};
    // A tool (Nsight Compute, compute-sanitizer) runs the worker and follows it into the solver, where solve()'s
    // kernels are: the solver must then let the tool in (solver_process.hpp).
    if (o.wrapper || o.sanitize || o.under_tool) job_json["tool"] = true;
    JobFile job(o.cache_dir / "jobs", job_json);
    std::vector<std::string> prefix;
    fs::path sanitizer_log;
    if (o.wrapper) {
      if (o.sanitize || o.mode != Mode::run)
        throw Error("internal error: a tool around the worker only goes with `judge run`, without --sanitize");
      prefix = o.wrapper->prefix;
    }
    if (o.sanitize) {
      into.sanitizer_tool = o.sanitize;
      sanitizer_log = job.path().string() + ".sanitizer.log";
      prefix = sanitizer_prefix(find_compute_sanitizer(), *o.sanitize, sanitizer_log.string());
    }
    WorkerSession session(into, ch, o, static_cast<int>(lists.size() + then.size()));
    session.run(job.path(), prefix);
    if (o.sanitize) read_sanitizer_log(into, sanitizer_log, source);
    return WorkerEnd{session.fatal_verdict_, session.fatal_message_, session.fatal_case_};
  };

  const CaseLists graded = graded_cases(ch, o);
  const CaseLists stress = stress_cases(ch, o);
  const WorkerEnd end = run_worker(r, graded, stress);
  r.strict = o.strict;

  // What the worker reported of the stress cases waits aside: the verdict is the graded cases' alone.
  std::vector<CaseResult> stress_results;
  {
    std::vector<CaseResult> graded_results;
    for (auto& c : r.cases)
      (in_lists(stress, c) ? stress_results : graded_results).push_back(std::move(c));
    r.cases = std::move(graded_results);
  }
  const std::size_t graded_reported = r.cases.size();
  const bool graded_passed = graded_reported == graded.size() &&
                             std::all_of(r.cases.begin(), r.cases.end(),
                                         [](const CaseResult& c) { return c.verdict == Verdict::accepted; });
  // A fatal error is the stress phase's when the worker had got there: every graded case passed, and the error either
  // struck during a stress case or left some unreported. One after the last stress case (at exit, say) is graded.
  const bool fatal_in_stress = end.verdict && graded_passed && !stress.empty() &&
                               (stress_results.size() < stress.size() ||
                                std::any_of(stress_results.begin(), stress_results.end(),
                                            [&](const CaseResult& c) { return c.name == end.case_name; }));

  // The verdict is that of the first graded case that was not accepted, else of a fatal error, else accepted.
  r.verdict = Verdict::accepted;
  for (const auto& c : r.cases) {
    if (c.verdict != Verdict::accepted) {
      r.verdict = c.verdict;
      r.message = c.message;
      r.failed_case = c.name;
      break;
    }
  }
  if (r.verdict == Verdict::accepted && end.verdict && !fatal_in_stress) {
    r.verdict = *end.verdict;
    r.message = end.message;
  }
  if (r.verdict == Verdict::accepted && graded_reported != graded.size()) {
    r.verdict = Verdict::internal_error;
    r.message = fmt::format("the worker reported {} of {} cases and then stopped", graded_reported, graded.size());
  }
  if (r.verdict == Verdict::accepted) {
    CaseLists remaining = stress;
    take_reported(r, remaining, stress_results);
    // The worker died between two stress cases: the next one takes the verdict, as in run_stress_phase.
    if (fatal_in_stress && end.case_name.empty() && !remaining.empty()) settle_first(r, remaining, end);
    run_stress_phase(r, remaining, [&](JudgeReport& into, const CaseLists& lists) {
      return run_worker(into, lists, CaseLists{});
    });
  }
  mark_stress_cases(r.cases, ch);

  if (o.calibration) {
    r.calibration = o.calibration;
    std::vector<DType> inputs;
    for (const auto& p : ch.params)
      if (p.is_buffer() && p.role != Role::output) inputs.push_back(p.dtype);
    apply_speed_of_light(r.cases, *o.calibration, compute_roof_gflops(*o.calibration, inputs));
    for (const auto& c : r.cases)
      if (r.verdict == Verdict::accepted && c.verdict == Verdict::suspicious_timing && r.decides(c)) {
        r.verdict = c.verdict;
        r.message = c.message;
        r.failed_case = c.name;
      }
  }
  if (r.sanitizer && !r.sanitizer->clean() && r.verdict == Verdict::accepted) {
    r.verdict = *o.sanitize == SanitizerTool::memcheck ? Verdict::memory_violation : Verdict::runtime_error;
    r.message = fmt::format("compute-sanitizer ({}) reported: {}", to_string(*o.sanitize),
                            r.sanitizer->summary_line.empty() ? "errors" : r.sanitizer->summary_line);
  }
  if (r.accepted() && o.mode == Mode::submit) r.score_ms = score_of(r.cases);
  return finish();
}

void apply_speed_of_light(std::vector<CaseResult>& cases, const Calibration& calibration, double compute_gflops) {
  // Rejection needs a floor no honest kernel can beat, so its compute term uses the fastest unit measured (tensor
  // cores included: a 3xTF32 matmul is legitimately faster than FP32 FMAs); the SOL column keeps the challenge's
  // own roof (FP32 FMA, or the tensor-core rate for half inputs).
  double fastest = std::max({calibration.fp32_fma_gflops, calibration.sgemm_gflops, calibration.tf32_gflops,
                             calibration.fp16_gflops, calibration.bf16_gflops, calibration.int8_gops});
  for (auto& c : cases) {
    if (!c.timing || c.timing->median_ms <= 0) continue;
    SpeedOfLight sol = speed_of_light(c.flops, c.bytes, c.timing->median_ms, calibration, compute_gflops);
    c.sol_percent = sol.percent;
    c.sol_floor_ms = sol.floor_ms;
    c.sol_bound = sol.bound;
    double memory_ms = calibration.copy_gbps > 0 ? c.bytes / (calibration.copy_gbps * 1e9) * 1e3 : 0;
    double compute_ms = fastest > 0 ? c.flops / (fastest * 1e9) * 1e3 : 0;
    double hard_floor = std::max(memory_ms, compute_ms);
    if (c.verdict == Verdict::accepted && hard_floor > 0 && c.timing->median_ms < kSuspiciousFraction * hard_floor) {
      c.verdict = Verdict::suspicious_timing;
      c.message = fmt::format(
          "median {:.4g} ms is {:.0f}% of the least time this GPU needs ({:.4g} ms: {:.4g} GB at {:.0f} GB/s, "
          "{:.4g} GFLOP at {:.0f} GFLOP/s): faster than physically possible",
          c.timing->median_ms, 100.0 * c.timing->median_ms / hard_floor, hard_floor, c.bytes / 1e9,
          calibration.copy_gbps, c.flops / 1e9, fastest);
    }
  }
}

json to_json(const JudgeReport& r) {
  json cases = json::array();
  for (const auto& c : r.cases) cases.push_back(c);
  json j = {{"challenge", r.challenge},
            {"mode", r.mode == Mode::submit ? "submit" : "run"},
            {"seed", r.seed},
            {"verdict", r.verdict},
            {"accepted", r.accepted()},
            {"message", r.message},
            {"failed_case", r.failed_case},
            {"timer", r.timer},
            {"timer_warning", r.timer_warning},
            {"build",
             {{"ok", r.build.ok},
              {"cached", r.build.cached},
              {"cache_note", r.build.cache_note},
              {"seconds", r.build.seconds},
              {"command", r.build.command},
              {"diagnostics", r.build.diagnostics},
              {"source_hash", r.build.source_hash}}},
            {"cases", cases},
            {"strict", r.strict},
            {"output", r.output},
            {"output_dropped_bytes", r.output_dropped},
            {"wall_s", r.wall_s}};
  if (r.device) j["device"] = *r.device;
  j["worker_start_s"] = r.worker_start_s;
  if (!r.protections.empty()) j["protections"] = r.protections;
  if (r.calibration) j["calibration"] = *r.calibration;
  if (r.sanitizer) {
    json findings = json::array();
    for (const auto& f : r.sanitizer->findings)
      findings.push_back({{"kind", f.kind}, {"kernel", f.kernel}, {"location", f.location}, {"detail", f.detail}});
    j["sanitizer"] = {{"tool", to_string(*r.sanitizer_tool)}, {"errors", r.sanitizer->errors},
                      {"summary", r.sanitizer->summary_line}, {"findings", findings}, {"text", r.sanitizer_text}};
  }
  if (r.gpu_lock)
    j["gpu_lock"] = {{"waited", r.gpu_lock->waited}, {"waited_s", r.gpu_lock->waited_s},
                     {"waited_for", r.gpu_lock->waited_for},
                     {"window_s", {r.gpu_lock->start_s, r.gpu_lock->end_s}}, {"holds_s", r.gpu_lock->holds}};
  if (r.mode == Mode::submit && r.accepted()) j["score_ms"] = r.score_ms;
  json kernels = json::array();
  for (const auto& k : kernel_resources(r.cases, r.build.ptxas, r.device ? &*r.device : nullptr))
    kernels.push_back(to_json(k));
  if (!kernels.empty()) j["kernels"] = kernels;
  return j;
}

}  // namespace judge
