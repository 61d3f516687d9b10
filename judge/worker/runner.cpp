#include "judge/worker/runner.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "judge/core/measure/leak_watch.hpp"
#include "judge/core/run/output_diagnosis.hpp"
#include "judge/worker/check.hpp"
#include "judge/worker/cuda_check.hpp"
#include "judge/worker/cuda_handles.hpp"
#include "judge/worker/device_buffer.hpp"
#include "judge/worker/generate.hpp"
#include "judge/worker/rng.hpp"

namespace judge {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A CUDA error raised by the submission: ends the case as a runtime error.
struct SolveFailed {
  cudaError_t code;
  std::string where;
};

// solve() destroyed the CUDA context of its process (cudaDeviceReset): its mappings of the buffers are gone.
struct ContextDestroyed {};

// The solver process ended (a signal, an exit() inside solve(), a closed control channel).
struct SolverDied {
  std::string death;
  std::string hint;  // SolverReply::hint
};

// A C++ exception escaped solve(): a runtime error, not the judge's problem.
struct SolveThrew {
  std::string message;
};

// One parameter's device data for a case.
struct ParamData {
  const Param* param = nullptr;
  std::int64_t count = 0;
  std::vector<std::int64_t> shape;
  const Distribution* dist = nullptr;
  std::uint64_t key = 0;  // the current call's inputs
  std::uint64_t guard_key = 0;
  GuardedBuffer buffer;   // what solve() gets
  DeviceBuffer expected;  // outputs and in-outs: the reference's result
  bool is_output() const { return param->role == Role::output || param->role == Role::inout; }
};

// All device data of a case, shared with the solver process for the case's lifetime.
class CaseData {
 public:
  CaseData(RunnerContext& ctx, const Case& c) : ctx_(ctx), case_name_(c.name), scalars_(c.scalars) {
    const Challenge& ch = ctx.challenge;
    for (const Param& p : ch.params) {
      if (!p.is_buffer()) continue;
      ParamData d;
      d.param = &p;
      d.count = ch.element_count(p, c.scalars);
      for (const Expr& e : p.shape) d.shape.push_back(e.eval_size(c.scalars));
      d.dist = &ch.distribution_for(p, c);
      d.key = input_key(ctx.seed, c.name, p.name, *d.dist);
      d.guard_key = derive_key(ctx.seed, c.name + "/" + p.name + "/guard");
      d.buffer = GuardedBuffer(static_cast<std::size_t>(d.count) * size_of(p.dtype), ctx.guard_bytes);
      if (d.is_output()) d.expected = DeviceBuffer(static_cast<std::size_t>(d.count) * size_of(p.dtype));
      data_.push_back(std::move(d));
    }
    for (const ParamData& d : data_) fill_guards(d.buffer, d.guard_key, ctx.stream);
    share_with_solver(c);
  }

  ~CaseData() {
    if (ctx_.solver.alive()) ctx_.solver.request({{"cmd", "end_case"}});
  }
  CaseData(const CaseData&) = delete;
  CaseData& operator=(const CaseData&) = delete;

  // Inputs and in-outs get their generated values; outputs get poison. Called before every call of solve().
  // Before a call: outputs poisoned, in-outs hold their input, and the reference's buffers hold nothing useful
  // (the expected answer is only computed after the call, so solve() cannot find it in device memory).
  void prepare_call() {
    for (ParamData& d : data_) {
      const Param& p = *d.param;
      if (p.role == Role::output && !p.preset) poison(d.buffer.data(), p.dtype, d.count, ctx_.stream);
      if (p.role == Role::output && p.preset)
        generate(d.buffer.data(), p.dtype, d.count, p.init, d.key, scalars(), ctx_.stream);
      if (p.role == Role::inout) generate(d.buffer.data(), p.dtype, d.count, *d.dist, d.key, scalars(), ctx_.stream);
      if (d.is_output()) poison(d.expected.get(), p.dtype, d.count, ctx_.stream);
    }
  }

  // Fresh inputs for call `iteration`: every benchmark call gets new values (generated outside the timed region),
  // so nothing computed for an earlier call can be reused.
  void generate_inputs(int iteration) {
    for (ParamData& d : data_) {
      d.key = input_key(ctx_.seed, case_name_, d.param->name, *d.dist, iteration);
      if (d.param->role == Role::input)
        generate(d.buffer.data(), d.param->dtype, d.count, *d.dist, d.key, scalars_, ctx_.stream);
    }
  }

  std::int64_t input_bytes() const {
    std::int64_t b = 0;
    for (const ParamData& d : data_)
      if (d.param->role != Role::output) b += d.count * static_cast<std::int64_t>(size_of(d.param->dtype));
    return b;
  }
  std::int64_t output_bytes() const {
    std::int64_t b = 0;
    for (const ParamData& d : data_)
      if (d.is_output()) b += d.count * static_cast<std::int64_t>(size_of(d.param->dtype));
    return b;
  }

  // The reference computes into `expected`; in-outs start from the generated input there.
  void run_reference() {
    reset_reference_inouts();
    ctx_.reference.gpu(reference_args(), ctx_.stream);
    JUDGE_CUDA_CHECK(cudaGetLastError());
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
  }

  void reset_reference_inouts() {
    for (ParamData& d : data_)
      if (d.param->role == Role::inout)
        generate(d.expected.get(), d.param->dtype, d.count, *d.dist, d.key, scalars_, ctx_.stream);
  }

  DeviceArgs reference_args() {
    DeviceArgs a;
    a.set_cublas(ctx_.cublas);
    for (const Param& p : ctx_.challenge.params)
      if (!p.is_buffer()) a.set_scalar(p.name, scalars_.at(p.name));
    for (ParamData& d : data_) {
      void* ptr = d.param->role == Role::input ? d.buffer.data() : d.expected.get();
      a.set_buffer(d.param->name, ptr, d.param->dtype, d.count);
    }
    return a;
  }

  std::vector<ParamData>& params() { return data_; }
  const Env& scalars() const { return scalars_; }

 private:
  // Sends the solver the case: a file descriptor per buffer (it maps them) and solve()'s arguments in order, each
  // a buffer's index or a scalar's value.
  void share_with_solver(const Case& c) {
    nlohmann::json buffers = nlohmann::json::array(), args = nlohmann::json::array();
    std::vector<int> fds;
    auto close_all = [&] {
      for (int fd : fds) ::close(fd);
    };
    try {
      for (const ParamData& d : data_) {
        fds.push_back(d.buffer.export_fd());
        buffers.push_back({{"mapped", d.buffer.mapped_bytes()},
                           {"offset", d.buffer.guard_bytes()},
                           {"data", d.buffer.data_bytes()}});
      }
    } catch (...) {
      close_all();
      throw;
    }
    std::size_t next_buffer = 0;
    for (const Param& p : ctx_.challenge.params) {
      if (p.is_buffer()) {
        args.push_back({{"buffer", next_buffer++}});
        continue;
      }
      double v = c.scalars.at(p.name);
      if (p.dtype == DType::int32) args.push_back({{"int32", static_cast<int>(v)}});
      else if (p.dtype == DType::int64) args.push_back({{"int64", static_cast<long long>(v)}});
      else args.push_back({{"float", static_cast<float>(v)}});
    }
    SolverReply r = ctx_.solver.request({{"cmd", "case"}, {"buffers", buffers}, {"args", args}, {"stage", ctx_.stage}},
                                        fds);
    close_all();
    if (r.failure == SolverReply::Failure::died) throw SolverDied{r.death, r.hint};
    if (!r.ok) throw CudaError(cudaErrorInvalidValue,
                               fmt::format("the solver process could not map the case's buffers: {}", r.message));
  }

  RunnerContext& ctx_;
  std::string case_name_;
  Env scalars_;
  std::vector<ParamData> data_;
};

// What one call of the solver produced: its claims, and the worker's own measurements around it.
struct CallSample {
  double gpu_ms = 0;      // the GPU span the solver's CUPTI recorded (window calls): a claim
  int records = 0;        // activities it saw; 0 means no GPU work it could see
  int streams = 0;
  int foreign = 0;        // activities it saw outside any window since the last call
  std::string timer;      // the solver's timer, as it names it
  double trusted_ms = 0;  // the worker's clock: command sent to its probe kernel's start (window calls)
  double host_ms = 0;     // the worker's host clock around the whole exchange
  double mhz = 0;         // the SM clock the probe measured (window calls)
};

// Turns a failed reply into the exception the case handles.
[[noreturn]] void raise_failure(const SolverReply& r) {
  switch (r.failure) {
    case SolverReply::Failure::died: throw SolverDied{r.death, r.hint};
    case SolverReply::Failure::threw: throw SolveThrew{r.message};
    case SolverReply::Failure::context_destroyed: throw ContextDestroyed{};
    case SolverReply::Failure::cuda: throw SolveFailed{static_cast<cudaError_t>(r.cuda_code), r.where};
    default:
      throw SolveThrew{fmt::format("the submission's process did not follow the judge's protocol ({})",
                                   r.message.empty() ? "a malformed reply" : r.message)};
  }
}

// One exchange with the solver in a window of the worker's timer: the window opens as the command leaves and the
// worker's probe kernel, launched once the reply is in, marks its end. A GPU still busy with the solver's work delays
// the probe, so that work is inside the window too.
// The solver answers in two steps (solver/main.cpp): the call, as soon as its device is idle, then `span`, its
// CUPTI figures, collected outside the worker's window.
CallSample windowed(RunnerContext& ctx, const nlohmann::json& command) {
  CallSample s;
  ctx.solver.resume();  // waking it is not its time
  ctx.timer.begin();
  auto t0 = Clock::now();
  if (!ctx.solver.send(command)) raise_failure(ctx.solver.receive());
  SolverReply r = ctx.solver.receive();
  s.host_ms = seconds_since(t0) * 1e3;
  if (!r.ok) {
    ctx.solver.stop();
    raise_failure(r);
  }
  s.mhz = ctx.clock.measure_mhz(ctx.stream);
  Span own = ctx.timer.end();
  s.trusted_ms = own.first_offset_ms >= 0 ? own.first_offset_ms : s.host_ms;
  ctx.solver.send({{"cmd", "span"}});
  r = ctx.solver.receive();
  ctx.solver.stop();
  if (!r.ok) raise_failure(r);
  const nlohmann::json& b = r.body;
  auto number = [&](const char* key) {
    const auto it = b.find(key);
    return it != b.end() && it->is_number() ? it->get<double>() : 0.0;
  };
  s.gpu_ms = number("gpu_ms");
  s.records = static_cast<int>(number("records"));
  s.streams = static_cast<int>(number("streams"));
  s.foreign = static_cast<int>(number("foreign"));
  s.timer = b.value("timer", "") ;
  return s;
}

// Calls solve() once, in the solver, and waits for everything it started. Any CUDA error it caused becomes
// SolveFailed, its process's end SolverDied.
CallSample call_solution(RunnerContext& ctx, const std::string& case_name, int call_index, bool window,
                         KernelTracing tracing) {
  ctx.messages.send({{"event", "call"}, {"case", case_name}, {"index", call_index}});
  nlohmann::json command = {{"cmd", "call"},
                            {"index", call_index},
                            {"window", window},
                            {"tracing", tracing == KernelTracing::concurrent ? "concurrent" : "serialized"}};
  if (window) return windowed(ctx, command);
  CallSample s;
  SolverReply r = ctx.solver.request(command);
  if (!r.ok) raise_failure(r);
  s.host_ms = r.host_ms;
  return s;
}

std::string format_values(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += fmt::format("{}{:.7g}", i ? ", " : "", v[i]);
  return s + "]";
}

// For tiny cases the whole story fits on a screen: inputs, expected and actual outputs.
std::string preview(RunnerContext& ctx, CaseData& data) {
  constexpr std::int64_t kTiny = 64;
  std::int64_t total = 0;
  for (ParamData& d : data.params()) total += d.count;
  if (total > kTiny) return {};
  std::string s;
  for (ParamData& d : data.params()) {
    if (d.param->role == Role::input)
      s += fmt::format("{} = {}\n", d.param->name, format_values(download_as_double(d.buffer.data(), d.param->dtype, d.count,
                                                                           ctx.stream)));
  }
  for (ParamData& d : data.params()) {
    if (!d.is_output()) continue;
    s += fmt::format("expected {} = {}\n", d.param->name,
                     format_values(download_as_double(d.expected.get(), d.param->dtype, d.count, ctx.stream)));
    s += fmt::format("got      {} = {}\n", d.param->name,
                     format_values(download_as_double(d.buffer.data(), d.param->dtype, d.count, ctx.stream)));
  }
  return s;
}

std::string where_in(const ParamData& d, std::int64_t byte_offset) {
  if (byte_offset < 0) return fmt::format("{} bytes before the start of {}", -byte_offset, d.param->name);
  return fmt::format("{} bytes past the end of {} (its last element is {}[{}])", byte_offset, d.param->name,
                     d.param->name, d.count - 1);
}

// Checks everything a call could have broken and sets the verdict; returns false if the case failed.
bool check_call(RunnerContext& ctx, CaseData& data, CaseResult& r, Tolerance tol, double& reference_ms) {
  for (ParamData& d : data.params()) {
    GuardReport g = check_guards(d.buffer, d.guard_key, ctx.stream);
    if (!g.intact()) {
      r.verdict = Verdict::memory_violation;
      std::int64_t off = g.back_changed ? g.first_back_offset : g.first_front_offset;
      r.message = fmt::format("solve() wrote outside {} {}: {} guard bytes changed, the first {}",
                              to_string(d.param->role), d.param->name, g.front_changed + g.back_changed,
                              where_in(d, off));
      return false;
    }
  }
  for (ParamData& d : data.params()) {
    if (d.param->role != Role::input) continue;
    std::int64_t changed =
        count_changed(d.buffer.data(), d.param->dtype, d.count, *d.dist, d.key, data.scalars(), ctx.stream);
    if (changed) {
      r.verdict = Verdict::input_modified;
      r.message = fmt::format("solve() modified input {}: {} of {} elements changed; inputs are read-only",
                              d.param->name, changed, d.count);
      return false;
    }
  }
  // Inputs are intact: now the expected answer can be computed from them.
  auto t_ref = Clock::now();
  data.run_reference();
  reference_ms += seconds_since(t_ref) * 1e3;
  r.outputs.clear();
  std::vector<std::string> problems;
  bool all_unwritten = true;
  for (ParamData& d : data.params()) {
    if (!d.is_output()) continue;
    CheckRequest request{d.param->name, d.buffer.data(), d.expected.get(), d.param->dtype, d.count, d.shape, tol,
                         ctx.stream};
    for (const auto& [name, e] : d.param->check_args) request.args[name] = e.eval(data.scalars());
    OutputCheck o = check_output(d.param->check, request);
    all_unwritten = all_unwritten && d.count > 0 && o.unwritten == d.count;
    // A named checker's own diagnosis (sorted_permutation, topk, a norm bound) says it better than the counts.
    if (o.mismatches) problems.push_back(o.message.empty() ? describe_wrong_output(o) : o.message);
    r.outputs.push_back(std::move(o));
  }
  if (problems.empty()) return true;
  if (all_unwritten) {
    r.verdict = Verdict::output_not_written;
    r.message = "solve() never wrote its output: every element still holds the judge's poison pattern "
                "(did the kernel launch, and did it write to the output pointer?)";
  } else {
    r.verdict = Verdict::wrong_answer;
    r.message = problems.front();
    for (std::size_t i = 1; i < problems.size(); ++i) r.message += "; " + problems[i];
  }
  r.inputs_preview = preview(ctx, data);
  return false;
}

Timing summarize_timing(const std::string& timer, const std::vector<double>& gpu_ms,
                        const std::vector<double>& host_ms, const std::vector<double>& clocks, int throttled,
                        double max_clock, const TimingPolicy& policy) {
  SampleStats s = summarize(gpu_ms);
  Timing t;
  t.timer = timer;
  t.samples = s.n;
  t.median_ms = s.median;
  t.min_ms = s.min;
  t.max_ms = s.max;
  t.mean_ms = s.mean;
  t.noise_pct = s.noise_pct;
  t.host_median_ms = summarize(host_ms).median;
  t.converged = converged(gpu_ms, policy);
  t.clock_mhz = summarize(clocks).median;
  t.max_clock_mhz = max_clock;
  t.throttled = throttled;
  return t;
}

// Where a case's time went, for the judge's own overhead figures.
struct Profile {
  double generate_ms = 0, reference_ms = 0, check_ms = 0, timing_ms = 0;
  int calls = 0;
  double generated_bytes = 0, checked_bytes = 0;
  std::string memory_watch;  // benchmarks: what the leak watch read, "solver" or "device"
  nlohmann::json to_json() const {
    nlohmann::json j = {{"generate_ms", generate_ms}, {"reference_ms", reference_ms}, {"check_ms", check_ms},
                        {"timing_ms", timing_ms},     {"calls", calls},               {"generated_bytes", generated_bytes},
                        {"checked_bytes", checked_bytes}};
    if (!memory_watch.empty()) j["memory_watch"] = memory_watch;
    return j;
  }
};

template <class F>
double timed_ms(F&& f) {
  auto t0 = Clock::now();
  f();
  return seconds_since(t0) * 1e3;
}

// One loop for warm-up and timed calls alike, so a callee cannot tell them apart:
//   prepare(i) -> L2 flush -> call(i) in a window -> after(i) checks the call.
// Warm-up runs by time; then samples until the noise target, the budget or the sample cap. Samples taken while the
// SM clock was below 75% of its boost clock are discarded (throttling) but the call was still checked.
// For the solution, each sample pairs the solver's GPU span with the worker's trusted time of the same call, and the
// case's timing is bounded by the latter (trusted_timing.hpp).
// Returns nullopt when a call failed its checks (r holds the verdict).
std::optional<Timing> measure(RunnerContext& ctx, const std::function<void(int)>& prepare,
                              const std::function<CallSample(int, KernelTracing)>& call,
                              const std::function<bool(int)>& after, bool is_solution, CaseResult& r) {
  std::vector<double> gpu, trusted, host, clocks;
  int throttled = 0;
  // Kernels are timed serialized (exact: nothing instruments them) until a call puts work on a second stream;
  // from then on, for the rest of this case, concurrently, so the submission keeps its overlap (timer.hpp).
  KernelTracing tracing = KernelTracing::serialized;
  if (!is_solution) ctx.timer.set_kernel_tracing(KernelTracing::serialized);
  std::string timer_name = is_solution ? ctx.solver.timer_name() : ctx.timer.name();
  int warm_from = 0;  // index of the first call of the current warm-up
  auto t_warm = Clock::now();
  auto t_sample = t_warm;
  bool warming = true;
  // What a terminal shows while this case is timed (the judge draws it; nothing of it reaches the result): a few
  // times a second, never per call.
  auto t_progress = t_warm;
  auto progress = [&] {
    if (!is_solution || seconds_since(t_progress) < 0.25) return;
    t_progress = Clock::now();
    const SampleStats s = summarize(gpu);
    ctx.messages.send({{"event", "progress"},
                       {"phase", warming ? "warm-up" : "timing"},
                       {"calls", s.n},
                       {"median_ms", s.median},
                       {"noise_pct", s.noise_pct},
                       {"elapsed_s", warming ? 0.0 : seconds_since(t_sample)},
                       {"budget_s", ctx.policy.budget_s}});
  };
  for (int index = 0;; ++index) {
    if (index > 0) progress();
    prepare(index);
    ctx.l2.flush(ctx.stream);
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    CallSample sample = call(index, tracing);
    if (is_solution && sample.foreign) {
      r.verdict = Verdict::suspicious_timing;
      r.message = fmt::format("{} GPU activities ran while no solve() call was being timed (work launched after "
                              "solve() returned, e.g. from a thread it left behind); all work must happen inside "
                              "the call",
                              sample.foreign);
      return std::nullopt;
    }
    if (is_solution && sample.records == 0) {
      r.verdict = Verdict::suspicious_timing;
      r.message = "solve() did no GPU work the judge could see (no kernel, memcpy or memset on any stream)";
      return std::nullopt;
    }
    if (!after(index)) return std::nullopt;
    if (!sample.timer.empty()) timer_name = sample.timer;
    if (is_solution && sample.streams > 1 && tracing == KernelTracing::serialized && timer_name == "cupti") {
      // What was measured so far had the overlap serialized away; and CUPTI instruments the kernels on their next
      // launches, so the new mode gets a warm-up of its own.
      tracing = KernelTracing::concurrent;
      gpu.clear();
      trusted.clear();
      host.clear();
      clocks.clear();
      throttled = 0;
      warming = true;
      warm_from = index + 1;
      t_warm = Clock::now();
      continue;
    }
    const double mhz = sample.mhz;
    if (warming) {
      if (index + 1 - warm_from >= ctx.policy.min_warmup_calls && seconds_since(t_warm) >= ctx.policy.warmup_s) {
        warming = false;
        t_sample = Clock::now();
      }
      continue;
    }
    if (mhz > 0 && mhz < 0.75 * ctx.clock.max_mhz()) {
      ++throttled;
    } else {
      gpu.push_back(sample.gpu_ms);
      trusted.push_back(sample.trusted_ms);
      host.push_back(sample.host_ms);
      clocks.push_back(mhz);
    }
    bool out_of_budget = seconds_since(t_sample) >= 4 * ctx.policy.budget_s;  // even if every sample throttled
    if (should_stop(gpu, seconds_since(t_sample), ctx.policy) || out_of_budget) break;
  }
  if (!is_solution || gpu.empty())
    return summarize_timing(timer_name, gpu, host, clocks, throttled, ctx.clock.max_mhz(), ctx.policy);
  BoundedTiming bound = bound_timing(gpu, trusted, ctx.overhead);
  if (bound.suspicious) {
    r.verdict = Verdict::suspicious_timing;
    r.message = *bound.suspicious;
    return std::nullopt;
  }
  Timing t = summarize_timing(timer_name, bound.charged_ms, host, clocks, throttled, ctx.clock.max_mhz(), ctx.policy);
  t.gpu_median_ms = bound.gpu_median_ms;
  t.trusted_median_ms = bound.trusted_median_ms;
  t.overhead_ms = ctx.overhead.median_ms;
  t.charged = bound.charged;
  return t;
}

// The figure the leak watch reads (core/measure/leak_watch.hpp): the solver's own memory when NVML gives it,
// else the GPU's total minus free memory. Chosen once per case, so a case's readings are all of one kind.
class HeldMemory {
 public:
  explicit HeldMemory(SolverMemory* solver)
      : solver_(solver), source_(solver && solver->held() ? MemorySource::solver : MemorySource::device) {}
  MemorySource source() const { return source_; }
  std::optional<std::size_t> read() {
    if (source_ == MemorySource::solver) return solver_->held();
    std::size_t free_b = 0, total = 0;
    JUDGE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total));
    return total - free_b;
  }

 private:
  SolverMemory* solver_;
  MemorySource source_;
};

std::string describe_cuda_error(cudaError_t code) {
  return fmt::format("{} ({})", cudaGetErrorName(code), cudaGetErrorString(code));
}

// The kernels the solver saw solve() launch in its windows: for the report only, never for a verdict or a time, and
// bounded, since the reply is the submission's to write.
std::vector<KernelLaunch> solver_kernels(RunnerContext& ctx) {
  constexpr std::size_t kMaxKernels = 256;
  SolverReply r = ctx.solver.request({{"cmd", "kernels"}});
  std::vector<KernelLaunch> out;
  if (!r.ok) return out;
  try {
    for (const auto& k : r.body.value("kernels", nlohmann::json::array())) {
      if (out.size() == kMaxKernels) break;
      out.push_back(k.get<KernelLaunch>());
    }
  } catch (const std::exception&) {
    out.clear();
  }
  return out;
}

}  // namespace

std::vector<double> time_null_calls(RunnerContext& ctx, int count) {
  std::vector<double> out;
  for (int i = 0; i < count; ++i) {
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    out.push_back(windowed(ctx, {{"cmd", "null"}}).trusted_ms);
  }
  return out;
}

CaseResult run_case(RunnerContext& ctx, const Case& c, const CasePlan& plan) {
  const Challenge& ch = ctx.challenge;
  const bool benchmark = plan.benchmark;
  CaseResult r;
  r.name = c.name;
  r.kind = benchmark ? "benchmark" : "test";
  for (const auto& [name, value] : c.scalars) r.scalars[name] = value;
  r.flops = ch.flops_for(c.scalars);
  r.bytes = ch.bytes_for(c.scalars);
  Tolerance tol = ch.tolerance_for(c);
  Profile profile;

  std::optional<CaseData> case_data;
  // Inputs, reference, poisoned outputs for call i; the same for warm-up, timed and functional calls.
  auto prepare = [&](int i) {
    profile.generate_ms += timed_ms([&] {
      case_data->generate_inputs(i);
      JUDGE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream));  // generation is asynchronous: time all of it
    });
    profile.generated_bytes += static_cast<double>(case_data->input_bytes());
    case_data->prepare_call();
  };
  // Benchmarks watch the memory solve() keeps across calls, read right before and right after each call, outside
  // the worker's window.
  std::optional<HeldMemory> held;
  std::optional<LeakWatch> leaks;
  if (benchmark) {
    held.emplace(ctx.solver_memory);
    leaks.emplace(held->source());
    profile.memory_watch = memory_source_name(held->source());
  }
  std::optional<std::size_t> held_before, held_after;
  // Every call is checked: inputs, guards, outputs; benchmarks also watch for leaks.
  auto after = [&](int i) {
    bool ok = true;
    double reference_before = profile.reference_ms;
    double check_and_reference = timed_ms([&] { ok = check_call(ctx, *case_data, r, tol, profile.reference_ms); });
    profile.check_ms += check_and_reference - (profile.reference_ms - reference_before);
    profile.checked_bytes +=
        2.0 * static_cast<double>(case_data->output_bytes()) + static_cast<double>(case_data->input_bytes());
    ++profile.calls;
    if (ok && leaks && held_before && held_after) {
      if (auto leak = leaks->after_call(*held_before, *held_after, [&] { return held->read().value_or(*held_after); })) {
        r.verdict = Verdict::runtime_error;
        r.message = *leak;
        ok = false;
      }
    }
    if (!ok) r.failed_call = i + 1;
    if (!ok && benchmark) r.message = fmt::format("call {}: {}", i + 1, r.message);
    return ok;
  };
  int current_call = -1;  // the call a CUDA error or exception escaped from belongs to the last one started
  auto call = [&](int i, bool window, KernelTracing tracing) {
    current_call = i;
    // The solver is stopped between calls, so its own figure before a call is the one after the last: one NVML
    // query per call. The device's figure moves with other processes between calls, so it is read again.
    if (held)
      held_before = held->source() == MemorySource::solver && held_after ? held_after : held->read();
    CallSample sample = call_solution(ctx, c.name, i, window, tracing);
    if (held) held_after = held->read();
    return sample;
  };

  // A call that raised a CUDA error or an exception failed too.
  auto failed = [&](Verdict v, std::string message) {
    r.verdict = v;
    r.message = std::move(message);
    r.failed_call = current_call + 1;
    r.profile = profile.to_json();
  };

  try {
    case_data.emplace(ctx, c);
    if (!plan.timed) {
      for (int i = 0; i < plan.calls; ++i) {
        prepare(i);
        JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
        call(i, false, KernelTracing::serialized);
        if (!after(i)) {
          r.profile = profile.to_json();
          return r;
        }
      }
    } else {
      if (ctx.time_reference) {
        prepare(0);
        Event reference_start, reference_stop;
        const DeviceArgs a = case_data->reference_args();
        r.reference_timing = measure(
            ctx, [&](int) { case_data->reset_reference_inouts(); },
            [&](int, KernelTracing) {
              // CUDA events on the judge's stream, not CUPTI: the worker traces only its windows (timer.hpp says
              // why), and a reference is trusted code on one stream, whose span the events bracket.
              CallSample s;
              auto t0 = Clock::now();
              JUDGE_CUDA_CHECK(cudaEventRecord(reference_start.get(), ctx.stream));
              ctx.reference.gpu(a, ctx.stream);
              JUDGE_CUDA_CHECK(cudaEventRecord(reference_stop.get(), ctx.stream));
              JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
              float ms = 0;
              JUDGE_CUDA_CHECK(cudaEventElapsedTime(&ms, reference_start.get(), reference_stop.get()));
              s.host_ms = seconds_since(t0) * 1e3;
              s.gpu_ms = ms;
              s.records = 1;
              s.streams = 1;
              s.timer = "events";
              s.mhz = ctx.clock.measure_mhz(ctx.stream);
              return s;
            },
            [](int) { return true; }, false, r);
      }
      std::optional<Timing> t;
      profile.timing_ms = timed_ms([&] {
        t = measure(ctx, prepare, [&](int i, KernelTracing tracing) { return call(i, true, tracing); }, after, true,
                    r);
      });
      r.profile = profile.to_json();
      if (!t) return r;
      r.timing = t;
      r.kernels = solver_kernels(ctx);
    }
  } catch (const SolveFailed& f) {
    failed(Verdict::runtime_error, fmt::format("CUDA error {} {}", describe_cuda_error(f.code), f.where));
    if (CudaError::is_sticky(f.code)) {
      r.message += "; the CUDA context is unusable after this error, so the run stops here";
      throw ContextLost{r};
    }
    return r;
  } catch (const ContextDestroyed&) {
    failed(Verdict::runtime_error,
           "solve() destroyed the CUDA context (cudaDeviceReset?): its mappings of the judge's buffers and its "
           "streams are gone, so the run stops here; never reset the device inside solve()");
    throw ContextLost{r};
  } catch (const SolverDied& d) {
    const std::string where =
        current_call >= 0 ? fmt::format("solve() call {} of case {}", current_call + 1, c.name)
                          : fmt::format("the preparation of case {}", c.name);
    failed(Verdict::crashed, fmt::format("the submission's process {} during {}{}", d.death, where,
                                         d.hint.empty() ? "" : ": " + d.hint));
    if (current_call < 0) r.failed_call = 0;
    throw ContextLost{r};
  } catch (const SolveThrew& t) {
    failed(Verdict::runtime_error, t.message);
    return r;
  } catch (const CudaError& e) {
    // A checked call of the judge's own failed after solve() ran: the submission exhausted or broke the GPU.
    failed(Verdict::runtime_error, fmt::format("the CUDA context failed after solve() ran: {}", e.what()));
    if (e.sticky()) throw ContextLost{r};
    return r;
  }
  r.profile = profile.to_json();
  r.verdict = Verdict::accepted;
  return r;
}

}  // namespace judge
