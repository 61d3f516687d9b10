#pragma once
// Runs one case of a challenge against the solver process: generate -> call -> check (reference), and for
// benchmark cases the timing loop. This side is trusted: it owns the buffers (shared with the solver), the seed and
// the expected outputs, and decides the verdict; the solver only calls solve() and reports (solver_process.hpp).
// Everything the submission could break is checked after each call: guards, inputs, outputs, its CUDA errors.
#include <cstdint>
#include <functional>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "judge/core/measure/result.hpp"
#include "judge/core/challenge/spec.hpp"
#include "judge/core/measure/statistics.hpp"
#include "judge/core/measure/trusted_timing.hpp"
#include "judge/worker/clock_probe.hpp"
#include "judge/worker/l2_flush.hpp"
#include "judge/worker/messages.hpp"
#include "judge/worker/reference.hpp"
#include "judge/core/run/solver_process.hpp"
#include "judge/worker/solver_memory.hpp"
#include "judge/worker/timer.hpp"

namespace judge {

struct RunnerContext {
  const Challenge& challenge;
  SolverProcess& solver;
  const ReferenceEntry& reference;
  // The worker's own timer: it times the reference, and brackets each timed call of the solver (trusted_timing.hpp).
  Timer& timer;
  L2Flusher& l2;
  ClockProbe& clock;
  const MessageChannel& messages;
  std::function<cublasHandle_t()> cublas;  // the worker's handle, made when a reference first asks for it
  cudaStream_t stream = nullptr;  // the judge's own (non-blocking) stream
  std::uint64_t seed = 0;
  TimingPolicy policy;
  bool time_reference = true;
  // Guard bytes around each buffer handed to solve() (0 under compute-sanitizer).
  std::size_t guard_bytes = GuardedBuffer::kGuardBytes;
  // Under compute-sanitizer the solver copies the buffers into allocations of its own around each call, so the tool
  // sees every access to them.
  bool stage = false;
  // What a null call costs, measured before the submission was loaded.
  Overhead overhead;
  // The solver's own device memory, for the leak watch; null or empty-handed: the watch reads the device's.
  SolverMemory* solver_memory = nullptr;
};

// The trusted times of `count` null calls: the round trip of a call that is not the submission's.
std::vector<double> time_null_calls(RunnerContext& ctx, int count);

// Thrown after a case whose CUDA error left the context unusable: the result is reported, then the worker exits.
struct ContextLost {
  CaseResult result;
};

// How a case runs. Timed: submit's timing loop (benchmarks). Otherwise `calls` checked calls, call i with the
// inputs of iteration i - 1, as the timing loop would have made them: tests run one, and `judge run --case C
// --call N` runs N, so a failure at submit's call N, whether it depends on the inputs or on what earlier calls left
// behind, happens again. A case from the spec's benchmarks (timed or not) is watched for leaks across calls and its
// failure message names the call, as in submit.
struct CasePlan {
  bool benchmark = false;
  bool timed = false;
  int calls = 1;
};

CaseResult run_case(RunnerContext& ctx, const Case& c, const CasePlan& plan);

}  // namespace judge
