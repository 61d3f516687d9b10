#include "judge/worker/runner.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "judge/worker/check.hpp"
#include "judge/worker/cuda_check.hpp"
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
  std::uint64_t key = 0;
  std::uint64_t guard_key = 0;
  GuardedBuffer buffer;   // what solve() gets
  DeviceBuffer expected;  // outputs and in-outs: the reference's result
  bool is_output() const { return param->role == Role::output || param->role == Role::inout; }
};

// All device data of a case and the argument array handed to judge_entry.
class CaseData {
 public:
  CaseData(RunnerContext& ctx, const Case& c) : ctx_(ctx) {
    const Challenge& ch = ctx.challenge;
    std::size_t n = ch.params.size();
    pointers_.resize(n, nullptr);
    ints_.resize(n, 0);
    floats_.resize(n, 0.f);
    args_.resize(n, nullptr);
    for (std::size_t i = 0; i < n; ++i) {
      const Param& p = ch.params[i];
      if (!p.is_buffer()) {
        double v = c.scalars.at(p.name);
        if (p.dtype == DType::int32) {
          ints_[i] = static_cast<int>(v);
          args_[i] = &ints_[i];
        } else {
          floats_[i] = static_cast<float>(v);
          args_[i] = &floats_[i];
        }
        continue;
      }
      ParamData d;
      d.param = &p;
      d.count = ch.element_count(p, c.scalars);
      for (const Expr& e : p.shape) d.shape.push_back(e.eval_size(c.scalars));
      d.dist = &ch.distribution_for(p, c);
      d.key = derive_key(ctx.seed, c.name + "/" + p.name);
      d.guard_key = derive_key(ctx.seed, c.name + "/" + p.name + "/guard");
      d.buffer = GuardedBuffer(static_cast<std::size_t>(d.count) * size_of(p.dtype));
      if (d.is_output()) d.expected = DeviceBuffer(static_cast<std::size_t>(d.count) * size_of(p.dtype));
      pointers_[i] = d.buffer.data();
      args_[i] = &pointers_[i];
      data_.push_back(std::move(d));
    }
    for (const ParamData& d : data_) fill_guards(d.buffer, d.guard_key, ctx.stream);
  }

  // Inputs and in-outs get their generated values; outputs get poison. Called before every call of solve().
  void prepare_call() {
    for (ParamData& d : data_) {
      const Param& p = *d.param;
      if (p.role == Role::output) poison(d.buffer.data(), p.dtype, d.count, ctx_.stream);
      if (p.role == Role::inout) generate(d.buffer.data(), p.dtype, d.count, *d.dist, d.key, scalars(), ctx_.stream);
    }
  }

  void generate_inputs(const Case& c) {
    scalars_ = c.scalars;
    for (ParamData& d : data_)
      if (d.param->role == Role::input)
        generate(d.buffer.data(), d.param->dtype, d.count, *d.dist, d.key, scalars_, ctx_.stream);
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

  void* const* args() const { return args_.data(); }
  std::vector<ParamData>& params() { return data_; }
  const Env& scalars() const { return scalars_; }

 private:
  RunnerContext& ctx_;
  Env scalars_;
  std::vector<ParamData> data_;
  std::vector<void*> pointers_;
  std::vector<int> ints_;
  std::vector<float> floats_;
  std::vector<void*> args_;
};

// Calls solve() once and waits for everything it started. Any CUDA error it caused becomes SolveFailed.
double call_solution(RunnerContext& ctx, CaseData& data, const std::string& case_name, int call_index) {
  cudaGetLastError();  // nothing of ours is pending; clear so what follows is the submission's
  ctx.messages.send({{"event", "call"}, {"case", case_name}, {"index", call_index}});
  auto t0 = Clock::now();
  try {
    ctx.solution.call(data.args());
  } catch (const std::exception& e) {
    throw SolveThrew{fmt::format("a C++ exception escaped solve(): {}", e.what())};
  } catch (...) {
    throw SolveThrew{"a C++ exception of unknown type escaped solve()"};
  }
  cudaError_t sync = cudaDeviceSynchronize();
  double host_ms = seconds_since(t0) * 1e3;
  if (sync != cudaSuccess)
    throw SolveFailed{sync, "at the cudaDeviceSynchronize() the judge runs after solve() returns"};
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess)
    throw SolveFailed{launch, "from a CUDA call or kernel launch inside solve() (cudaGetLastError after it returned)"};
  return host_ms;
}

std::string format_values(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += fmt::format("{}{:.7g}", i ? ", " : "", v[i]);
  return s + "]";
}

std::vector<double> download(const void* data, DType dtype, std::int64_t count, cudaStream_t stream) {
  std::vector<double> out(static_cast<std::size_t>(count));
  if (dtype == DType::float32) {
    std::vector<float> f(out.size());
    JUDGE_CUDA_CHECK(cudaMemcpyAsync(f.data(), data, f.size() * 4, cudaMemcpyDeviceToHost, stream));
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::copy(f.begin(), f.end(), out.begin());
  } else if (dtype == DType::int32) {
    std::vector<int> f(out.size());
    JUDGE_CUDA_CHECK(cudaMemcpyAsync(f.data(), data, f.size() * 4, cudaMemcpyDeviceToHost, stream));
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::copy(f.begin(), f.end(), out.begin());
  }
  return out;
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
      s += fmt::format("{} = {}\n", d.param->name, format_values(download(d.buffer.data(), d.param->dtype, d.count,
                                                                           ctx.stream)));
  }
  for (ParamData& d : data.params()) {
    if (!d.is_output()) continue;
    s += fmt::format("expected {} = {}\n", d.param->name,
                     format_values(download(d.expected.get(), d.param->dtype, d.count, ctx.stream)));
    s += fmt::format("got      {} = {}\n", d.param->name,
                     format_values(download(d.buffer.data(), d.param->dtype, d.count, ctx.stream)));
  }
  return s;
}

std::string where_in(const ParamData& d, std::int64_t byte_offset) {
  if (byte_offset < 0) return fmt::format("{} bytes before the start of {}", -byte_offset, d.param->name);
  return fmt::format("{} bytes past the end of {} (its last element is {}[{}])", byte_offset, d.param->name,
                     d.param->name, d.count - 1);
}

std::string coords_text(const Mismatch& m) {
  std::string s;
  for (auto c : m.coords) s += fmt::format("[{}]", c);
  return s;
}

// Checks everything a call could have broken and sets the verdict; returns false if the case failed.
bool check_call(RunnerContext& ctx, CaseData& data, CaseResult& r, Tolerance tol) {
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
  r.outputs.clear();
  std::vector<std::string> problems;
  bool all_unwritten = true;
  for (ParamData& d : data.params()) {
    if (!d.is_output()) continue;
    OutputCheck o = compare_output(d.param->name, d.buffer.data(), d.expected.get(), d.param->dtype, d.count,
                                   d.shape, tol, ctx.stream);
    all_unwritten = all_unwritten && d.count > 0 && o.unwritten == d.count;
    if (o.mismatches) {
      std::string p = fmt::format("{}: {} of {} elements wrong", o.name, o.mismatches, o.count);
      if (o.unwritten) p += fmt::format(" ({} never written", o.unwritten);
      if (o.non_finite) p += fmt::format("{}{} NaN/Inf where the reference is finite", o.unwritten ? ", " : " (",
                                         o.non_finite);
      if (o.unwritten || o.non_finite) p += ")";
      p += fmt::format("; max abs error {:.3g}, max rel error {:.3g}", o.max_abs_error, o.max_rel_error);
      if (!o.first.empty()) {
        const Mismatch& m = o.first.front();
        p += fmt::format("; first at {}{} (index {}): got {:.7g}, expected {:.7g}", o.name, coords_text(m), m.index,
                         m.got, m.expected);
      }
      problems.push_back(p);
    }
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
                        const std::vector<double>& host_ms, const TimingPolicy& policy) {
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
  return t;
}

// Warm-up by time, then samples until the noise target, the budget or the sample cap. Warm-up calls are the same
// as timed calls in every way the callee could observe.
Timing measure(RunnerContext& ctx, const std::function<void()>& prepare, const std::function<double(int)>& call,
               bool require_gpu_work, CaseResult& r) {
  std::vector<double> gpu, host;
  auto t_warm = Clock::now();
  int index = 0;
  bool warming = true;
  auto t_sample = Clock::now();
  for (;;) {
    prepare();
    ctx.l2.flush(ctx.stream);
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    ctx.timer.begin();
    double host_ms = call(index++);
    Span span = ctx.timer.end();
    if (require_gpu_work && span.records == 0) {
      r.verdict = Verdict::suspicious_timing;
      r.message = "solve() did no GPU work the judge could see (no kernel, memcpy or memset on any stream)";
      return {};
    }
    if (warming) {
      if (index >= ctx.policy.min_warmup_calls && seconds_since(t_warm) >= ctx.policy.warmup_s) {
        warming = false;
        t_sample = Clock::now();
      }
      continue;
    }
    gpu.push_back(span.gpu_ms);
    host.push_back(host_ms);
    if (should_stop(gpu, seconds_since(t_sample), ctx.policy)) break;
  }
  return summarize_timing(ctx.timer.name(), gpu, host, ctx.policy);
}

std::string describe_cuda_error(cudaError_t code) {
  return fmt::format("{} ({})", cudaGetErrorName(code), cudaGetErrorString(code));
}

}  // namespace

CaseResult run_case(RunnerContext& ctx, const Case& c, bool benchmark) {
  const Challenge& ch = ctx.challenge;
  CaseResult r;
  r.name = c.name;
  r.kind = benchmark ? "benchmark" : "test";
  for (const auto& [name, value] : c.scalars) r.scalars[name] = value;
  r.flops = ch.flops_for(c.scalars);
  r.bytes = ch.bytes_for(c.scalars);
  Tolerance tol = ch.tolerance_for(c);

  CaseData data(ctx, c);
  data.generate_inputs(c);
  data.run_reference();

  try {
    if (!benchmark) {
      data.prepare_call();
      JUDGE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
      call_solution(ctx, data, c.name, 0);
      if (!check_call(ctx, data, r, tol)) return r;
    } else {
      if (ctx.time_reference) {
        const DeviceArgs a = data.reference_args();
        r.reference_timing = measure(
            ctx, [&] { data.reset_reference_inouts(); },
            [&](int) {
              auto t0 = Clock::now();
              ctx.reference.gpu(a, ctx.stream);
              JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
              return seconds_since(t0) * 1e3;
            },
            false, r);
      }
      Timing t = measure(
          ctx, [&] { data.prepare_call(); }, [&](int i) { return call_solution(ctx, data, c.name, i); }, true, r);
      if (r.verdict == Verdict::suspicious_timing) return r;
      // The last timed call's outputs must be right too: a solution may not skip work once warmed up.
      if (!check_call(ctx, data, r, tol)) return r;
      r.timing = t;
    }
  } catch (const SolveFailed& f) {
    r.verdict = Verdict::runtime_error;
    r.message = fmt::format("CUDA error {} {}", describe_cuda_error(f.code), f.where);
    if (CudaError::is_sticky(f.code)) {
      r.message += "; the CUDA context is unusable after this error, so the run stops here";
      throw ContextLost{r};
    }
    return r;
  } catch (const SolveThrew& t) {
    r.verdict = Verdict::runtime_error;
    r.message = t.message;
    return r;
  } catch (const CudaError& e) {
    // A checked call of the judge's own failed after solve() ran: the submission broke the context.
    r.verdict = Verdict::runtime_error;
    r.message = fmt::format("the CUDA context failed after solve() ran: {}", e.what());
    if (e.sticky()) throw ContextLost{r};
    return r;
  }
  r.verdict = Verdict::accepted;
  return r;
}

}  // namespace judge
