#include "judge/worker/timer.hpp"

#include <cupti.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <vector>

#include "judge/worker/cuda_check.hpp"

namespace judge {

namespace {

// CUPTI delivers records through global callbacks: this is their one sink. It keeps every interval delivered
// since the last reset; the timer keeps only those inside its window, so a record delivered late (from work before
// the window opened) can never stretch a measurement.
struct ActivitySink {
  std::mutex mutex;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> intervals;

  void add(std::uint64_t start, std::uint64_t end) {
    if (start == 0 && end == 0) return;  // CUPTI could not time it
    intervals.emplace_back(start, end);
  }
  void reset() { intervals.clear(); }
};

ActivitySink& sink() {
  static ActivitySink s;
  return s;
}

constexpr std::size_t kBufferBytes = 8 << 20;
constexpr std::size_t kBufferAlign = 8;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlign, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  {
    std::lock_guard<std::mutex> lock(sink().mutex);
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
      switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
          auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(record);
          sink().add(k->start, k->end);
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
          auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(record);
          sink().add(m->start, m->end);
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY2: {
          auto* m = reinterpret_cast<CUpti_ActivityMemcpyPtoP4*>(record);
          sink().add(m->start, m->end);
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
          auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(record);
          sink().add(m->start, m->end);
          break;
        }
        default:
          break;
      }
    }
  }
  std::free(buffer);
}

class CuptiTimer final : public Timer {
 public:
  static std::unique_ptr<Timer> create() {
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS) return nullptr;
    for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                    CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET}) {
      if (cuptiActivityEnable(kind) != CUPTI_SUCCESS) {
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY2);
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMSET);
        return nullptr;
      }
    }
    return std::unique_ptr<Timer>(new CuptiTimer());
  }
  ~CuptiTimer() override { cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); }

  void begin() override {
    // Deliver and discard everything recorded so far (the judge's own generation, poisoning, L2 flush).
    flush();
    {
      std::lock_guard<std::mutex> lock(sink().mutex);
      sink().reset();
    }
    window_start_ = now();
  }

  Span end() override {
    std::uint64_t window_end = now();
    flush();
    std::lock_guard<std::mutex> lock(sink().mutex);
    Span s;
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max(), last = 0;
    for (auto [start, end] : sink().intervals) {
      if (start < window_start_ || end > window_end || end < start) continue;  // not this call's
      first = std::min(first, start);
      last = std::max(last, end);
      ++s.records;
    }
    if (s.records > 0) s.gpu_ms = static_cast<double>(last - first) * 1e-6;
    return s;
  }

  std::string name() const override { return "cupti"; }

 private:
  std::uint64_t window_start_ = 0;
  CuptiTimer() = default;
  static std::uint64_t now() {
    std::uint64_t t = 0;
    if (cuptiGetTimestamp(&t) != CUPTI_SUCCESS) throw Error("CUPTI could not read its clock");
    return t;
  }
  static void flush() {
    CUptiResult r = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (r != CUPTI_SUCCESS) {
      const char* msg = nullptr;
      cuptiGetResultString(r, &msg);
      JUDGE_THROW(Error, "CUPTI could not flush its activity records: {}", msg ? msg : "unknown error");
    }
  }
};

class EventTimer final : public Timer {
 public:
  EventTimer() {
    JUDGE_CUDA_CHECK(cudaEventCreate(&start_));
    JUDGE_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() override {
    JUDGE_CUDA_NOTHROW(cudaEventDestroy(start_));
    JUDGE_CUDA_NOTHROW(cudaEventDestroy(stop_));
  }
  void begin() override { JUDGE_CUDA_CHECK(cudaEventRecord(start_, cudaStreamLegacy)); }
  Span end() override {
    JUDGE_CUDA_CHECK(cudaEventRecord(stop_, cudaStreamLegacy));
    JUDGE_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    JUDGE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return Span{ms, 1};
  }
  std::string name() const override { return "events"; }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace

std::unique_ptr<Timer> make_timer(bool allow_cupti) {
  if (allow_cupti && !std::getenv("JUDGE_NO_CUPTI"))
    if (auto t = CuptiTimer::create()) return t;
  return std::make_unique<EventTimer>();
}

}  // namespace judge
