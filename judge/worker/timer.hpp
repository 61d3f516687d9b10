#pragma once
// GPU time of one call: the span from the first start to the last end of every kernel, memcpy and memset the call
// caused, on any stream, as CUPTI's activity records timestamp them. A kernel on a non-blocking stream is counted;
// launch latency and the synchronisation inside solve() are not. If CUPTI cannot be used (some sandboxes), CUDA
// events around the call on the legacy stream are the fallback and the result says so ("events").
//
// CUPTI times kernels in one of two ways, and neither is free:
//   serialized  (CUPTI_ACTIVITY_KIND_KERNEL) timestamps taken by the GPU's front end before and after each kernel.
//               The kernel itself runs untouched, but kernels on different streams no longer overlap.
//   concurrent  (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) CUPTI instruments every kernel to record its own start
//               and end. Overlap survives, but the instrumentation slows kernels made of many short blocks: the
//               naive vector_add (97657 blocks) ran 98.0 µs instead of 91.8 µs on an H200, by the kernel's own
//               %globaltimer (bench/agreement). Hopper has no hardware alternative (CUPTI's HW trace is Blackwell's).
// The timer starts serialized, which is exact for the usual single-stream call; the runner switches to concurrent
// for a case whose calls put kernels on more than one stream, where serializing would cost the submission its
// overlap.
#include <memory>
#include <string>

#include <cuda_runtime.h>

#include "judge/core/measure/result.hpp"

namespace judge {

enum class KernelTracing { serialized, concurrent };

// When CUPTI records. always: the solver's timer, which must also see what solve() runs between windows (foreign
// work). windows: the worker's, which needs only its probe kernel inside each window; its own kernels (generation,
// references, checks) run untraced. Measured 2026-11-29 on an H200: with kernel records on all the time, the
// worker's cuFFT reference failed with cudaErrorIllegalAddress in 7 of 8 judges of the FFT challenge run at
// once (never alone, never with CUPTI off), so the worker traces nothing it does not time.
enum class TracingScope { always, windows };

struct Span {
  double gpu_ms = 0;  // last end - first start
  int records = 0;    // activities seen in the window; 0 means the call did no GPU work
  int streams = 0;    // distinct streams those activities ran on (events: always 1)
  // When the first of them started, from the window's opening (CUPTI: both on CUPTI's clock); -1 when unknown
  // (events). The worker opens a window when it sends a call to the solver, and the first activity it sees in it is
  // its own probe kernel, run once the solver has answered: the span between is the call as the worker measured it,
  // including any GPU work of the solver's still running then (the probe waits for it).
  double first_offset_ms = -1;
};

class Timer {
 public:
  virtual ~Timer() = default;
  // Opens the window. The device must be idle (the caller synchronises), so nothing earlier leaks in. Returns what
  // take_foreign_activity() would have (it collects the records anyway, and one collection per call is cheaper).
  // deliver = false skips delivering what CUPTI still holds (a forced flush costs tens of microseconds): for a
  // window opened right after the last one closed, with nothing run between; records that arrive later from before
  // the window are then counted as foreign by end().
  virtual int begin(bool deliver = true) = 0;
  // Closes the window. The device must be idle again (the caller synchronised after the call).
  virtual Span end() = 0;
  // "cupti" (kernels serialized), "cupti-concurrent" or "events".
  virtual std::string name() const = 0;
  // Switches how kernels are timed; between windows only. Returns false where the timer has no such choice (events).
  virtual bool set_kernel_tracing(KernelTracing) { return false; }
  // Teaches the timer which stream is the judge's own (generation, checks, L2 flush all run there).
  virtual void learn_own_stream(cudaStream_t stream) = 0;
  // GPU activities seen since the last call on streams other than the judge's and outside any begin/end window:
  // work the submission launched when it was not being timed (e.g. from a thread it left running). Collects what
  // has completed so far; the device should be idle. Events cannot tell: they always report 0.
  virtual int take_foreign_activity() = 0;
  // The kernel configurations that ran inside the windows closed since the last call (the solve() calls timed),
  // with their resources as CUPTI recorded them, launches and summed durations per window; then forgets them.
  // Events cannot tell: always empty.
  virtual std::vector<KernelLaunch> take_kernels() { return {}; }
};

// CUPTI if it initialises, else events. Call before the CUDA context is created so CUPTI sees everything.
std::unique_ptr<Timer> make_timer(bool allow_cupti = true);

// The worker's timer, and why it is not CUPTI when CUPTI was allowed (empty otherwise).
struct TimerChoice {
  std::unique_ptr<Timer> timer;
  std::string warning;
};
// As make_timer, saying why CUPTI could not be used (e.g. another profiler, such as Nsight Compute, holds it).
TimerChoice choose_timer(bool allow_cupti, TracingScope scope = TracingScope::always);
// Teaches the chosen timer the judge's stream, once the context exists. A CUPTI timer that records nothing there
// (another tool took CUPTI's activity records) is replaced by events, with a warning: timing goes on, less exactly.
void adopt_own_stream(TimerChoice& choice, cudaStream_t stream);

}  // namespace judge
