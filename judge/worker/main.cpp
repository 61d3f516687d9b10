// judge-worker: the trusted side of a run on the GPU. The judge starts one per run, in its own process group, and
// kills it on a timeout; everything it learns travels as JSON lines over the message pipe. It owns the GPU buffers,
// generates inputs from the job's secret seed, runs the reference, checks every output and decides every verdict.
// Submitted code never runs here: the worker starts judge-solver (judge/solver/main.cpp), sandboxed, shares the
// buffers with it and has it call solve() (solver_process.hpp). Nothing the solver says is believed unchecked.
//
//   judge-worker probe                                 devices as JSON on stdout
//   judge-worker run --job FILE --message-fd N         run the job, report on fd N
//   judge-worker calibrate --device N --message-fd N   measure the GPU's ceilings, report on fd N
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <csignal>

#include <sys/prctl.h>
#include <unistd.h>

#include <cublas_v2.h>
#include <nlohmann/json.hpp>

#include "judge/core/measure/gpu_lock.hpp"
#include "judge/core/challenge/spec.hpp"
#include "judge/core/build/verified_library.hpp"
#include "judge/worker/calibrate.hpp"
#include "judge/worker/clock_probe.hpp"
#include "judge/worker/cuda_check.hpp"
#include "judge/worker/cuda_handles.hpp"
#include "judge/worker/device_info.hpp"
#include "judge/worker/l2_flush.hpp"
#include "judge/worker/messages.hpp"
#include "judge/worker/reference.hpp"
#include "judge/worker/runner.hpp"
#include "judge/worker/solver_memory.hpp"
#include "judge/core/run/solver_process.hpp"
#include "judge/worker/timer.hpp"

namespace {

using nlohmann::json;

judge::TimingPolicy policy_from(const json& j) {
  judge::TimingPolicy p;
  p.warmup_s = j.value("warmup_s", p.warmup_s);
  p.min_warmup_calls = j.value("min_warmup_calls", p.min_warmup_calls);
  p.min_samples = j.value("min_samples", p.min_samples);
  p.max_samples = j.value("max_samples", p.max_samples);
  p.target_noise_pct = j.value("target_noise_pct", p.target_noise_pct);
  p.budget_s = j.value("budget_s", p.budget_s);
  return p;
}

// CLOCK_MONOTONIC, shared by every process of the host: the judge compares timing windows of different workers.
double monotonic_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// judge-solver is installed beside judge-worker.
std::filesystem::path solver_executable() {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw judge::Error("cannot find the worker's own executable (/proc/self/exe) to start judge-solver beside it");
  return self.parent_path() / "judge-solver";
}

// Null calls timed before the submission is loaded: enough for a stable median and 90th percentile.
constexpr int kNullCalls = 50;

const judge::Case* find_case(const std::vector<judge::Case>& cases, const std::string& name) {
  for (const auto& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

int run(const std::string& job_path, int fd) {
  judge::MessageChannel messages(fd);
  // Nobody of the same uid may read this process's memory (the seed) or trace it: the solver may run as our uid
  // when the judge is not root.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  auto fatal = [&](judge::Verdict v, const std::string& message) {
    messages.send({{"event", "fatal"}, {"verdict", v}, {"message", message}});
  };
  try {
    std::ifstream in(job_path);
    if (!in) throw judge::Error("cannot read the job file " + job_path);
    json job = json::parse(in);
    judge::Challenge challenge = judge::load_challenge(job.at("challenge_dir").get<std::string>());
    const judge::ReferenceEntry* reference = judge::find_reference(challenge.id);
    if (!reference)
      throw judge::Error(fmt::format("no reference kernel is registered for challenge '{}' (reference/{}.cu)",
                                     challenge.id, challenge.id));

    // The solver makes its CUDA context while the worker makes its own (each costs a few hundred milliseconds):
    // started here when the job names the GPU's UUID, else once the worker has found it.
    judge::SolverOptions solver_options;
    solver_options.executable = solver_executable();
    solver_options.cupti = job.value("cupti", true);
    solver_options.tool = job.value("tool", false);
    solver_options.device = job.value("device", 0);
    solver_options.gpu_uuid = job.value("device_uuid", std::string());
    std::optional<judge::SolverProcess> early_solver;
    if (!solver_options.gpu_uuid.empty()) early_solver = judge::SolverProcess::spawn(solver_options);

    // CUPTI first, so it sees the context being created. The worker's own timer brackets the solver's calls.
    judge::TimerChoice timer = judge::choose_timer(job.value("cupti", true), judge::TracingScope::windows);
    auto devices = judge::list_devices();
    if (devices.empty()) {
      fatal(judge::Verdict::no_device, "no CUDA device is present (cudaGetDeviceCount found none)");
      return 2;
    }
    int ordinal = job.value("device", 0);
    if (ordinal < 0 || ordinal >= static_cast<int>(devices.size()))
      throw judge::Error(fmt::format("device {} does not exist ({} visible)", ordinal, devices.size()));
    JUDGE_CUDA_CHECK(cudaSetDevice(ordinal));
    JUDGE_CUDA_CHECK(cudaFree(nullptr));

    // Made when a reference first asks (cuBLAS's initialisation is a cost only its users should pay).
    std::optional<judge::CublasHandle> cublas;
    judge::Stream stream;
    judge::L2Flusher l2(ordinal);
    judge::ClockProbe clock(ordinal);
    judge::adopt_own_stream(timer, stream.get());

    if (early_solver && solver_options.gpu_uuid != devices[ordinal].uuid)
      throw judge::Error(fmt::format("the job names GPU {} as device {}, which is {} here", solver_options.gpu_uuid,
                                     ordinal, devices[ordinal].uuid));
    judge::SolverProcess solver = early_solver ? std::move(*early_solver) : [&] {
      solver_options.gpu_uuid = devices[ordinal].uuid;
      return judge::SolverProcess::spawn(solver_options);
    }();
    early_solver.reset();
    solver.await_ready();
    messages.send({{"event", "device"}, {"device", devices[ordinal]}, {"timer", solver.timer_name()}});
    if (!solver.timer_warning().empty())
      messages.send({{"event", "timer"}, {"timer", solver.timer_name()}, {"warning", solver.timer_warning()}});
    json protections = json::array();
    for (const auto& p : solver.protections()) protections.push_back(p);
    messages.send({{"event", "protections"}, {"protections", protections}});

    const bool benchmarks = !job.value("benchmarks", std::vector<std::string>{}).empty() ||
                            !job.value("stress_benchmarks", std::vector<std::string>{}).empty();
    // The leak watch reads the solver's own memory when NVML lists it, else the device's; a run that times says
    // when it cannot have the former.
    judge::SolverMemory solver_memory(devices[ordinal].uuid, solver.pid());
    if (benchmarks && !solver_options.tool && !solver_memory.held())
      messages.send({{"event", "notice"},
                     {"notice", fmt::format("the leak watch reads the GPU's free memory, which other processes move "
                                            "too: {}", solver_memory.why_not())}});

    judge::RunnerContext ctx{challenge, solver, *reference, *timer.timer, l2, clock, messages};
    ctx.cublas = [&cublas] {
      if (!cublas) cublas.emplace();
      return cublas->get();
    };
    ctx.stream = stream.get();
    ctx.solver_memory = &solver_memory;
    ctx.seed = job.at("seed").get<std::uint64_t>();
    ctx.policy = policy_from(job.value("timing", json::object()));
    ctx.time_reference = job.value("time_reference", true);
    if (job.value("sanitize", false)) {
      ctx.guard_bytes = 0;
      ctx.stage = true;
    }
    bool stop_on_failure = job.value("stop_on_failure", false);
    const int calls = job.value("calls", 1);
    // Before the submission exists in the solver: what a call costs that is none of its doing.
    if (benchmarks) ctx.overhead = judge::estimate_overhead(judge::time_null_calls(ctx, kNullCalls));

    messages.send({{"event", "stage"}, {"stage", "load"}});
    {
      // Exactly the bytes the judge built and hashed, sealed: the cache can change under us, this cannot.
      judge::UniqueFd library = judge::open_verified_library(job.at("library").get<std::string>(),
                                                             job.at("library_sha256").get<std::string>());
      judge::SolverReply loaded = solver.request({{"cmd", "load"}}, {library.get()});
      if (loaded.failure == judge::SolverReply::Failure::died) {
        fatal(judge::Verdict::crashed, fmt::format("the submission's process {} while its library was loaded (a "
                                                   "static constructor?){}",
                                                   loaded.death, loaded.hint.empty() ? "" : ": " + loaded.hint));
        return 1;
      }
      if (!loaded.ok)
        throw judge::Error(fmt::format("the solver could not load the compiled submission: {}", loaded.message));
    }

    // One timer per GPU: each timed list holds the GPU's lock (the job names its file and who we are); functional
    // tests share the GPU. The lock goes when this process ends, however it ends.
    std::optional<judge::GpuLock> gpu_lock;
    auto lock_for_timing = [&] {
      const json spec = job.value("gpu_lock", json());
      if (!spec.is_object() || gpu_lock) return;
      const pid_t parent = ::getppid();
      gpu_lock = judge::GpuLock::acquire(
          spec.at("file").get<std::string>(), spec.value("holder", std::string("judge")),
          [&](const std::string& holder) { messages.send({{"event", "gpu_wait"}, {"holder", holder}}); },
          [&] { return ::getppid() != parent; });  // the judge is gone: nobody to time for
      if (!gpu_lock) std::exit(1);
      messages.send({{"event", "gpu_lock"}, {"waited_s", gpu_lock->waited_s()}, {"at", monotonic_s()}});
    };
    auto release_timing = [&] {
      if (!gpu_lock) return;
      messages.send({{"event", "gpu_release"}, {"at", monotonic_s()}});
      gpu_lock.reset();
    };

    // "tests" run as checked calls, benchmarks named there too (`judge run --case`); "benchmarks" are timed. Then,
    // only when every case so far was accepted, the stress cases, each to its own verdict: a failure there stops
    // nothing, and the GPU's lock is let go while their functional tests run.
    struct List {
      const char* key;
      bool timed, stress;
    };
    bool all_accepted = true;
    for (const List list : {List{"tests", false, false}, List{"benchmarks", true, false},
                            List{"stress_tests", false, true}, List{"stress_benchmarks", true, true}}) {
      const auto names = job.value(list.key, std::vector<std::string>{});
      if (names.empty()) continue;
      if (list.stress && !all_accepted) break;
      judge::CasePlan plan;
      plan.timed = list.timed;
      plan.calls = plan.timed ? 1 : calls;
      if (plan.timed) lock_for_timing();
      else release_timing();
      for (const auto& name : names) {
        const judge::Case* c = plan.timed ? nullptr : find_case(challenge.tests, name);
        plan.benchmark = c == nullptr;
        if (!c) c = find_case(challenge.benchmarks, name);
        if (!c) throw judge::Error(fmt::format("the job names a case '{}' the challenge does not have", name));
        messages.send({{"event", "case_begin"}, {"case", name}, {"kind", plan.benchmark ? "benchmark" : "test"}});
        try {
          judge::CaseResult r = judge::run_case(ctx, *c, plan);
          messages.send({{"event", "case_end"}, {"result", r}});
          if (!list.stress && r.verdict != judge::Verdict::accepted) {
            all_accepted = false;
            if (stop_on_failure) {
              messages.send({{"event", "done"}});
              return 0;
            }
          }
        } catch (const judge::ContextLost& lost) {
          messages.send({{"event", "case_end"}, {"result", lost.result}});
          messages.send({{"event", "done"}});
          return 0;
        }
      }
    }
    release_timing();
    messages.send({{"event", "done"}});
    return 0;
  } catch (const judge::CudaError& e) {
    fatal(e.sticky() ? judge::Verdict::runtime_error : judge::Verdict::internal_error, e.what());
  } catch (const std::exception& e) {
    fatal(judge::Verdict::internal_error, e.what());
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a vanished judge is seen as a write error, not a silent death
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "probe") return judge::print_probe();
  if (mode == "calibrate") {
    int device = 0, fd = -1;
    for (int i = 2; i + 1 < argc; i += 2) {
      std::string flag = argv[i];
      if (flag == "--device") device = std::atoi(argv[i + 1]);
      else if (flag == "--message-fd") fd = std::atoi(argv[i + 1]);
    }
    if (fd >= 0) return judge::calibrate_main(device, fd);
  }
  if (mode == "run") {
    std::string job;
    int fd = -1;
    for (int i = 2; i + 1 < argc; i += 2) {
      std::string flag = argv[i];
      if (flag == "--job") job = argv[i + 1];
      else if (flag == "--message-fd") fd = std::atoi(argv[i + 1]);
    }
    if (!job.empty() && fd >= 0) return run(job, fd);
  }
  std::fprintf(stderr,
               "usage: judge-worker probe | judge-worker run --job FILE --message-fd N\n"
               "(started by `judge`; not meant to be run by hand)\n");
  return 64;
}
