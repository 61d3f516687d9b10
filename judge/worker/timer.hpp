#pragma once
// GPU time of one call: the span from the first start to the last end of every kernel, memcpy and memset the call
// caused, on any stream, as CUPTI's activity records timestamp them. A kernel on a non-blocking stream is counted;
// launch latency and the synchronisation inside solve() are not. If CUPTI cannot be used (some sandboxes), CUDA
// events around the call on the legacy stream are the fallback and the result says so ("events").
#include <memory>
#include <string>

#include <cuda_runtime.h>

namespace judge {

struct Span {
  double gpu_ms = 0;  // last end - first start
  int records = 0;    // activities seen in the window; 0 means the call did no GPU work
};

class Timer {
 public:
  virtual ~Timer() = default;
  // Opens the window. The device must be idle (the caller synchronises), so nothing earlier leaks in.
  virtual void begin() = 0;
  // Closes the window. The device must be idle again (the caller synchronised after the call).
  virtual Span end() = 0;
  virtual std::string name() const = 0;
  // Teaches the timer which stream is the judge's own (generation, checks, L2 flush all run there).
  virtual void learn_own_stream(cudaStream_t stream) = 0;
  // GPU activities seen since the last call on streams other than the judge's and outside any begin/end window:
  // work the submission launched when it was not being timed (e.g. from a thread it left running). Collects what
  // has completed so far; the device should be idle. Events cannot tell: they always report 0.
  virtual int take_foreign_activity() = 0;
};

// CUPTI if it initialises, else events. Call before the CUDA context is created so CUPTI sees everything.
std::unique_ptr<Timer> make_timer(bool allow_cupti = true);

}  // namespace judge
