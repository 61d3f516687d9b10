#include "judge/worker/timer.hpp"

#include <cupti.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "judge/worker/cuda_check.hpp"
#include "judge/worker/device_buffer.hpp"

namespace judge {

namespace {

// CUPTI delivers records through global callbacks: this is their one sink. It keeps every interval delivered
// since the last reset; the timer keeps only those inside its window, so a record delivered late (from work before
// the window opened) can never stretch a measurement.
struct ActivitySink {
  struct Interval {
    std::uint64_t start, end;
    std::uint32_t stream;
    int config;  // a kernel's index in `configs`; -1 for copies, sets and kernels past the cap
  };
  // A kernel as launched: its name and resources, and the launch's shape. Kept for the life of the process (the
  // indices in intervals point here), deduplicated, so a kernel launched a million times is one entry.
  struct KernelConfig {
    const char* name_key;  // CUPTI shares one name string among all records of a kernel
    KernelLaunch launch;   // launches and durations are the timer's to count
  };
  // What identifies a configuration: the name CUPTI shares among a kernel's records, and the launch's shape.
  struct ConfigKey {
    const char* name_key;
    std::array<std::uint32_t, 6> shape;  // grid x, y, z, block x, y, z
    std::int32_t registers;
    std::int64_t static_smem, dynamic_smem, local_bytes;
    bool operator==(const ConfigKey& o) const {
      return name_key == o.name_key && shape == o.shape && registers == o.registers &&
             static_smem == o.static_smem && dynamic_smem == o.dynamic_smem && local_bytes == o.local_bytes;
    }
  };
  struct ConfigKeyHash {
    std::size_t operator()(const ConfigKey& k) const {
      std::size_t h = std::hash<const void*>{}(k.name_key);
      auto mix = [&h](std::uint64_t v) { h ^= std::hash<std::uint64_t>{}(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
      for (std::uint32_t v : k.shape) mix(v);
      mix(static_cast<std::uint64_t>(k.registers));
      mix(static_cast<std::uint64_t>(k.static_smem));
      mix(static_cast<std::uint64_t>(k.dynamic_smem));
      mix(static_cast<std::uint64_t>(k.local_bytes));
      return h;
    }
  };
  static constexpr std::size_t kMaxConfigs = 4096;
  std::mutex mutex;
  std::vector<Interval> intervals;
  std::vector<KernelConfig> configs;
  // configs' indices by key: a solution that launches thousands of differently shaped kernels costs one lookup per
  // record, not a scan of every configuration seen (this runs inside CUPTI's buffer callback).
  std::unordered_map<ConfigKey, int, ConfigKeyHash> index;
  // Record buffers handed back by CUPTI, for its next request. The timer forces a flush at least twice per call,
  // and each flush completes a buffer: allocating a fresh one every time (8 MiB, page faults and all) cost about
  // 0.6 ms per call on an H200. Recycled buffers cost nothing, and are never freed, like the sink.
  std::vector<std::uint8_t*> spare;

  void add(std::uint64_t start, std::uint64_t end, std::uint32_t stream, int config = -1) {
    if (start == 0 && end == 0) return;  // CUPTI could not time it
    intervals.push_back({start, end, stream, config});
  }
  // The index of this kernel record's configuration, added if new; -1 once kMaxConfigs are known.
  int config_of(const CUpti_ActivityKernel10& k) {
    ConfigKey key{k.name,
                  {static_cast<std::uint32_t>(k.gridX), static_cast<std::uint32_t>(k.gridY),
                   static_cast<std::uint32_t>(k.gridZ), static_cast<std::uint32_t>(k.blockX),
                   static_cast<std::uint32_t>(k.blockY), static_cast<std::uint32_t>(k.blockZ)},
                  static_cast<std::int32_t>(k.registersPerThread),
                  static_cast<std::int64_t>(k.staticSharedMemory),
                  static_cast<std::int64_t>(k.dynamicSharedMemory),
                  static_cast<std::int64_t>(k.localMemoryPerThread)};
    if (auto it = index.find(key); it != index.end()) return it->second;
    if (configs.size() >= kMaxConfigs) return -1;
    KernelConfig c;
    c.name_key = k.name;
    c.launch.name = k.name ? k.name : "(unnamed kernel)";
    c.launch.grid = {k.gridX, k.gridY, k.gridZ};
    c.launch.block = {k.blockX, k.blockY, k.blockZ};
    c.launch.registers = k.registersPerThread;
    c.launch.static_smem = k.staticSharedMemory;
    c.launch.dynamic_smem = k.dynamicSharedMemory;
    c.launch.local_bytes = k.localMemoryPerThread;
    configs.push_back(std::move(c));
    int i = static_cast<int>(configs.size()) - 1;
    index.emplace(key, i);
    return i;
  }
  void reset() { intervals.clear(); }
};

// Never destroyed: CUPTI may deliver a last buffer from its own exit handler, after static destructors ran (an
// exit() inside solve() must end as an exit, not as a crash in the judge's teardown).
ActivitySink& sink() {
  static ActivitySink* s = new ActivitySink;
  return *s;
}

// Room for about a thousand records; a window that needs more gets more buffers.
constexpr std::size_t kBufferBytes = 256 << 10;
constexpr std::size_t kBufferAlign = 8;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  {
    std::lock_guard<std::mutex> lock(sink().mutex);
    if (!sink().spare.empty()) {
      *buffer = sink().spare.back();
      sink().spare.pop_back();
    } else {
      *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlign, kBufferBytes));
    }
  }
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
          sink().add(k->start, k->end, k->streamId, sink().config_of(*k));
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
          auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(record);
          sink().add(m->start, m->end, m->streamId);
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY2: {
          auto* m = reinterpret_cast<CUpti_ActivityMemcpyPtoP4*>(record);
          sink().add(m->start, m->end, m->streamId);
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
          auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(record);
          sink().add(m->start, m->end, m->streamId);
          break;
        }
        default:
          break;
      }
    }
    sink().spare.push_back(buffer);
  }
}

class CuptiTimer final : public Timer {
 public:
  // Null, with the reason in `why`, when CUPTI refuses.
  static std::unique_ptr<Timer> create(std::string& why, TracingScope scope) {
    if (CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed); r != CUPTI_SUCCESS) {
      why = describe("registering activity callbacks", r);
      return nullptr;
    }
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);  // left on by an earlier timer in this process
    std::unique_ptr<CuptiTimer> t(new CuptiTimer());
    t->scope_ = scope;
    // Enabled once here even when only windows are traced: what CUPTI refuses, it refuses now, not mid-run.
    if (CUptiResult r = t->enable(KernelTracing::serialized); r != CUPTI_SUCCESS) {
      disable_all();
      why = describe("enabling activity records", r);
      return nullptr;
    }
    if (scope == TracingScope::windows) disable_all();
    return t;
  }

  bool set_kernel_tracing(KernelTracing mode) override {
    if (mode == tracing_) return true;
    if (scope_ == TracingScope::windows) {  // nothing is enabled between windows: the next begin() enables it
      tracing_ = mode;
      return true;
    }
    flush();
    if (cuptiActivityDisable(kernel_kind(tracing_)) != CUPTI_SUCCESS) return false;
    if (cuptiActivityEnable(kernel_kind(mode)) != CUPTI_SUCCESS) {
      if (cuptiActivityEnable(kernel_kind(tracing_)) != CUPTI_SUCCESS)
        throw Error("CUPTI could neither switch its kernel tracing nor restore it");
      return false;
    }
    tracing_ = mode;
    return true;
  }
  ~CuptiTimer() override {
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    disable_all();  // a timer that replaces this one (events) must not pay for records nobody reads
  }

  int begin(bool deliver) override {
    if (scope_ == TracingScope::windows) {
      if (CUptiResult r = enable(tracing_); r != CUPTI_SUCCESS) throw Error(describe("enabling activity records", r));
    }
    // Deliver everything recorded since the last window: the judge's own work (generation, poisoning, checks,
    // L2 flush) is dropped; anything else ran while no call was being timed.
    if (deliver) flush();
    {
      std::lock_guard<std::mutex> lock(sink().mutex);
      count_foreign();
      sink().reset();
    }
    window_start_ = now();
    return std::exchange(foreign_, 0);
  }

  Span end() override {
    std::uint64_t window_end = now();
    flush();
    if (scope_ == TracingScope::windows) disable_all();
    std::lock_guard<std::mutex> lock(sink().mutex);
    Span s;
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max(), last = 0;
    std::vector<std::uint32_t> streams;
    for (const auto& r : sink().intervals) {
      if (r.start < window_start_ || r.end > window_end || r.end < r.start) {  // not this call's
        if (known_own_stream_ && r.stream != own_stream_ && r.start < window_start_) ++foreign_;
        continue;
      }
      first = std::min(first, r.start);
      last = std::max(last, r.end);
      ++s.records;
      if (r.config >= 0) {
        Tally& t = tally_[r.config];
        ++t.launches;
        t.ns += r.end - r.start;
      }
      if (std::find(streams.begin(), streams.end(), r.stream) == streams.end()) streams.push_back(r.stream);
    }
    s.streams = static_cast<int>(streams.size());
    if (s.records > 0) {
      s.gpu_ms = static_cast<double>(last - first) * 1e-6;
      s.first_offset_ms = static_cast<double>(first - window_start_) * 1e-6;
    }
    sink().reset();
    ++windows_;
    return s;
  }

  std::vector<KernelLaunch> take_kernels() override {
    std::lock_guard<std::mutex> lock(sink().mutex);
    std::vector<KernelLaunch> out;
    for (const auto& [config, t] : tally_) {
      KernelLaunch l = sink().configs[config].launch;
      l.launches_per_call = static_cast<double>(t.launches) / windows_;
      l.gpu_ms_per_call = static_cast<double>(t.ns) * 1e-6 / windows_;
      out.push_back(std::move(l));
    }
    tally_.clear();
    windows_ = 0;
    return out;
  }

  void learn_own_stream(cudaStream_t stream) override {
    DeviceBuffer probe(4);
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    if (scope_ == TracingScope::windows) {
      if (CUptiResult r = enable(tracing_); r != CUPTI_SUCCESS) throw Error(describe("enabling activity records", r));
    }
    struct Off {  // tracing goes off again however this ends
      TracingScope scope;
      ~Off() {
        if (scope == TracingScope::windows) disable_all();
      }
    } off{scope_};
    flush();
    {
      std::lock_guard<std::mutex> lock(sink().mutex);
      sink().reset();
    }
    JUDGE_CUDA_CHECK(cudaMemsetAsync(probe.get(), 0, 4, stream));
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    flush();
    std::lock_guard<std::mutex> lock(sink().mutex);
    if (sink().intervals.empty()) throw Error("CUPTI recorded no activity for the judge's own stream");
    own_stream_ = sink().intervals.back().stream;
    known_own_stream_ = true;
    sink().reset();
  }

  int take_foreign_activity() override {
    flush();
    std::lock_guard<std::mutex> lock(sink().mutex);
    count_foreign();
    sink().reset();
    return std::exchange(foreign_, 0);
  }

  std::string name() const override {
    return tracing_ == KernelTracing::serialized ? "cupti" : "cupti-concurrent";
  }

 private:
  // Caller holds the sink's mutex.
  void count_foreign() {
    if (!known_own_stream_) return;
    for (const auto& r : sink().intervals)
      if (r.stream != own_stream_) ++foreign_;
  }

  struct Tally {
    long long launches = 0;
    std::uint64_t ns = 0;
  };
  std::map<int, Tally> tally_;  // per kernel configuration, over the windows since take_kernels()
  int windows_ = 0;
  std::uint64_t window_start_ = 0;
  KernelTracing tracing_ = KernelTracing::serialized;
  TracingScope scope_ = TracingScope::always;
  std::uint32_t own_stream_ = 0;
  bool known_own_stream_ = false;
  int foreign_ = 0;
  CuptiTimer() = default;
  static std::uint64_t now() {
    std::uint64_t t = 0;
    if (cuptiGetTimestamp(&t) != CUPTI_SUCCESS) throw Error("CUPTI could not read its clock");
    return t;
  }
  static constexpr CUpti_ActivityKind kActivities[] = {CUPTI_ACTIVITY_KIND_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                                       CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET};
  static CUpti_ActivityKind kernel_kind(KernelTracing m) {
    return m == KernelTracing::serialized ? CUPTI_ACTIVITY_KIND_KERNEL : CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  }
  // The kernel records `mode` asks for, memcpys and memsets.
  static CUptiResult enable(KernelTracing mode) {
    for (CUpti_ActivityKind k : {kernel_kind(mode), CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2,
                                 CUPTI_ACTIVITY_KIND_MEMSET})
      if (CUptiResult r = cuptiActivityEnable(k); r != CUPTI_SUCCESS) return r;
    return CUPTI_SUCCESS;
  }
  static void disable_all() {
    for (CUpti_ActivityKind k : kActivities) cuptiActivityDisable(k);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  }
  static std::string describe(const char* doing, CUptiResult r) {
    const char* msg = nullptr;
    cuptiGetResultString(r, &msg);
    return fmt::format("CUPTI failed {}: {}", doing, msg ? msg : "unknown error");
  }
  static void flush() {
    CUptiResult r = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (r != CUPTI_SUCCESS) throw Error(describe("flushing its activity records", r));
  }
};

// The events are created at the first window, not in the constructor: the timer is chosen before the worker selects
// its device (CUPTI must come first), and an event belongs to the device current when it is created.
class EventTimer final : public Timer {
 public:
  ~EventTimer() override {
    if (start_) JUDGE_CUDA_NOTHROW(cudaEventDestroy(start_));
    if (stop_) JUDGE_CUDA_NOTHROW(cudaEventDestroy(stop_));
  }
  int begin(bool) override {
    if (!start_) JUDGE_CUDA_CHECK(cudaEventCreate(&start_));
    if (!stop_) JUDGE_CUDA_CHECK(cudaEventCreate(&stop_));
    JUDGE_CUDA_CHECK(cudaEventRecord(start_, cudaStreamLegacy));
    return 0;
  }
  Span end() override {
    JUDGE_CUDA_CHECK(cudaEventRecord(stop_, cudaStreamLegacy));
    JUDGE_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    JUDGE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return Span{ms, 1, 1};
  }
  std::string name() const override { return "events"; }
  void learn_own_stream(cudaStream_t) override {}
  int take_foreign_activity() override { return 0; }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace

std::unique_ptr<Timer> make_timer(bool allow_cupti) { return choose_timer(allow_cupti).timer; }

TimerChoice choose_timer(bool allow_cupti, TracingScope scope) {
  TimerChoice choice;
  if (allow_cupti && !std::getenv("JUDGE_NO_CUPTI")) {
    std::string why;
    choice.timer = CuptiTimer::create(why, scope);
    if (!choice.timer) choice.warning = why + "; timing with CUDA events on the legacy stream instead";
  }
  if (!choice.timer) choice.timer = std::make_unique<EventTimer>();
  return choice;
}

void adopt_own_stream(TimerChoice& choice, cudaStream_t stream) {
  try {
    choice.timer->learn_own_stream(stream);
  } catch (const CudaError&) {
    throw;  // the judge's own CUDA call failed: not CUPTI's doing
  } catch (const Error& e) {
    choice.timer.reset();  // disables CUPTI's records before events take over
    choice.timer = std::make_unique<EventTimer>();
    choice.warning = fmt::format("{} (is another profiler, such as Nsight Compute, attached?); timing with CUDA "
                                 "events on the legacy stream instead",
                                 e.what());
  }
}

}  // namespace judge
