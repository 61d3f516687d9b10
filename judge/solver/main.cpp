// judge-solver: the one process that runs submitted code, and the only thing it is trusted with is calling solve().
//
// The trusted worker (judge-worker) starts it sandboxed, with one Unix socket (--control-fd) as its whole world:
// the worker owns every buffer, generates the inputs, runs the reference and checks the outputs; this process maps
// the buffers it is sent (shared_allocation.hpp), loads the library it is sent (a sealed memfd of the build the judge
// hashed), calls solve() when told, and answers with what it saw: CUDA errors, and the GPU time CUPTI recorded.
// Those answers are claims. The worker bounds the times with its own clock and checks every output itself, so
// nothing this process says (and solve() owns this process) decides a verdict or lowers a time.
//
//   judge-solver --control-fd N --device D [--no-cupti] [--tool]
//
// Commands, one JSON line each, every one answered by a line carrying "re": <its seq>:
//   null                     one empty kernel (the worker times the round trip of a call without a submission)
//   span                     after a windowed call or null: the GPU span CUPTI recorded, closing the window
//   load + fd                dlopen the library behind the fd
//   case + fds               map the case's buffers, lay out solve()'s arguments ("stage": copy through private
//                            buffers, for compute-sanitizer, which checks accesses to allocations of its process)
//   call                     one solve() call ("window": time it with CUPTI; "tracing": serialized|concurrent)
//   kernels                  the kernel configurations the timed calls launched, since the last ask
//   end_case                 unmap the case's buffers
// A closed socket ends the process.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <csignal>

#include <unistd.h>

#include <cuda_runtime.h>
#include <nlohmann/json.hpp>
#include <nvtx3/nvToolsExt.h>

#include "judge/core/run/ncu.hpp"
#include "judge/core/sandbox/confine.hpp"
#include "judge/solver/null_kernel.hpp"
#include "judge/worker/cuda_check.hpp"
#include "judge/worker/cuda_handles.hpp"
#include "judge/worker/device_buffer.hpp"
#include "judge/worker/shared_allocation.hpp"
#include "judge/worker/solution.hpp"
#include "judge/core/run/solver_channel.hpp"
#include "judge/worker/timer.hpp"

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The NVTX range around a solve() call: `judge profile` has Nsight Compute profile the kernels launched inside it.
class SolveRange {
 public:
  SolveRange() {
    static nvtxDomainHandle_t domain = nvtxDomainCreateA(judge::kNvtxDomain);
    domain_ = domain;
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = judge::kNvtxSolveRange;
    nvtxDomainRangePushEx(domain_, &attributes);
  }
  ~SolveRange() { nvtxDomainRangePop(domain_); }
  SolveRange(const SolveRange&) = delete;
  SolveRange& operator=(const SolveRange&) = delete;

 private:
  nvtxDomainHandle_t domain_;
};

struct CaseBuffers {
  std::vector<judge::MappedAllocation> mapped;
  std::vector<std::size_t> offset, data_bytes;
  std::vector<judge::DeviceBuffer> staged;  // stage mode: solve() works on these
  std::vector<void*> pointers;
  std::vector<int> ints;
  std::vector<long long> int64s;
  std::vector<float> floats;
  std::vector<void*> args;
  bool stage = false;

  void* shared_data(std::size_t i) const { return static_cast<char*>(mapped[i].get()) + offset[i]; }
  void copy_in() {
    for (std::size_t i = 0; i < staged.size(); ++i)
      JUDGE_CUDA_CHECK(cudaMemcpy(staged[i].get(), shared_data(i), data_bytes[i], cudaMemcpyDeviceToDevice));
  }
  void copy_out() {
    for (std::size_t i = 0; i < staged.size(); ++i)
      JUDGE_CUDA_CHECK(cudaMemcpy(shared_data(i), staged[i].get(), data_bytes[i], cudaMemcpyDeviceToDevice));
  }
};

class Solver {
 public:
  Solver(int fd, int device, bool cupti) : channel_(fd), device_(device), cupti_(cupti) {}

  int serve() {
    // CUPTI first, so it sees the context being created.
    judge::TimerChoice timer = judge::choose_timer(cupti_);
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      reply_hello({{"error", "no CUDA device is visible to the solver process"}});
      return 2;
    }
    if (device_ < 0 || device_ >= count) device_ = 0;
    JUDGE_CUDA_CHECK(cudaSetDevice(device_));
    JUDGE_CUDA_CHECK(cudaFree(nullptr));
    judge::Stream stream;
    stream_ = stream.get();
    judge::adopt_own_stream(timer, stream_);
    timer_ = std::move(timer.timer);
    // A device allocation of ours: after a cudaDeviceReset() inside solve() it stops being one.
    judge::DeviceBuffer sentinel(256);
    sentinel_ = sentinel.get();
    // Confined once the context exists: the driver writes to /proc and opens device files while it starts.
    std::vector<judge::Protection> protections = judge::confine_self(judge::SolverConfinement::from_environment());
    json p = json::array();
    for (const auto& x : protections) p.push_back(x);
    reply_hello({{"timer", timer_->name()}, {"warning", timer.warning}, {"protections", p}});

    std::string line;
    std::vector<int> fds;
    while (channel_.receive(line, &fds)) {
      json cmd = json::parse(line, nullptr, false);
      std::vector<int> received = std::exchange(fds, {});
      if (cmd.is_discarded() || !cmd.is_object()) continue;
      json reply = {{"re", cmd.value("seq", -1)}};
      try {
        handle(cmd, received, reply);
      } catch (const judge::CudaError& e) {
        reply["ok"] = false;
        reply["error"] = {{"kind", "cuda"}, {"code", static_cast<int>(e.code())}, {"message", e.what()},
                          {"where", "in the judge's solver process"}};
      } catch (const std::exception& e) {
        reply["ok"] = false;
        reply["error"] = {{"kind", "solver"}, {"message", e.what()}};
      }
      for (int fd : received) ::close(fd);
      if (!channel_.send(reply)) return 0;
    }
    return 0;
  }

 private:
  void reply_hello(json extra) {
    extra["re"] = 0;
    extra["hello"] = true;
    channel_.send(extra);
  }

  void handle(const json& cmd, std::vector<int>& fds, json& reply) {
    const std::string what = cmd.value("cmd", "");
    if (what == "null") {
      cudaGetLastError();
      open_window();
      null_window_ = true;
      JUDGE_CUDA_CHECK(judge::launch_null_kernel(stream_));
      JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream_));
      reply["ok"] = true;
    } else if (what == "span") {
      close_window(reply);
    } else if (what == "load") {
      if (fds.size() != 1) throw judge::Error("load needs exactly one file descriptor");
      // dlopen keeps its own reference to the file; the fd may close after.
      solution_.emplace("/proc/self/fd/" + std::to_string(fds[0]));
      reply["ok"] = true;
    } else if (what == "case") {
      open_case(cmd, fds);
      reply["ok"] = true;
    } else if (what == "end_case") {
      case_.reset();
      reply["ok"] = true;
    } else if (what == "call") {
      call(cmd, reply);
    } else if (what == "kernels") {
      json k = json::array();
      for (const auto& l : timer_->take_kernels()) k.push_back(l);
      reply["ok"] = true;
      reply["kernels"] = k;
    } else {
      throw judge::Error("unknown command " + what);
    }
  }

  void open_case(const json& cmd, const std::vector<int>& fds) {
    case_.reset();
    auto c = std::make_unique<CaseBuffers>();
    const json& buffers = cmd.at("buffers");
    if (buffers.size() != fds.size())
      throw judge::Error(fmt::format("case: {} buffers but {} file descriptors", buffers.size(), fds.size()));
    c->stage = cmd.value("stage", false);
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      c->mapped.emplace_back(fds[i], buffers[i].at("mapped").get<std::size_t>());
      c->offset.push_back(buffers[i].at("offset").get<std::size_t>());
      c->data_bytes.push_back(buffers[i].at("data").get<std::size_t>());
      if (c->stage) c->staged.emplace_back(c->data_bytes.back());
    }
    const json& args = cmd.at("args");
    const std::size_t n = args.size();
    c->pointers.assign(n, nullptr);
    c->ints.assign(n, 0);
    c->int64s.assign(n, 0);
    c->floats.assign(n, 0.f);
    c->args.assign(n, nullptr);
    for (std::size_t i = 0; i < n; ++i) {
      const json& a = args[i];
      if (a.contains("buffer")) {
        std::size_t b = a.at("buffer").get<std::size_t>();
        c->pointers[i] = c->stage ? c->staged.at(b).get() : c->shared_data(b);
        c->args[i] = &c->pointers[i];
      } else if (a.contains("int32")) {
        c->ints[i] = a.at("int32").get<int>();
        c->args[i] = &c->ints[i];
      } else if (a.contains("int64")) {
        c->int64s[i] = a.at("int64").get<long long>();
        c->args[i] = &c->int64s[i];
      } else {
        c->floats[i] = a.at("float").get<float>();
        c->args[i] = &c->floats[i];
      }
    }
    case_ = std::move(c);
  }

  void call(const json& cmd, json& reply) {
    if (!solution_) throw judge::Error("call before load");
    if (!case_) throw judge::Error("call before case");
    const bool window = cmd.value("window", false);
    if (window) {
      auto mode = cmd.value("tracing", "serialized") == "concurrent" ? judge::KernelTracing::concurrent
                                                                     : judge::KernelTracing::serialized;
      timer_->set_kernel_tracing(mode);
    }
    if (case_->stage) case_->copy_in();
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    cudaGetLastError();  // nothing of ours is pending; clear so what follows is the submission's
    // In a window, what the timer saw outside any window is foreign work (the worker rejects it; `span` reports
    // it); outside, the count restarts here, and what this call does is dropped after it (below).
    if (window) open_window();
    else timer_->take_foreign_activity();
    auto t0 = Clock::now();
    try {
      SolveRange range;
      solution_->call(case_->args.data());
    } catch (const std::exception& e) {
      return threw(reply, fmt::format("a C++ exception escaped solve(): {}", e.what()));
    } catch (...) {
      return threw(reply, "a C++ exception of unknown type escaped solve()");
    }
    cudaError_t sync = cudaDeviceSynchronize();
    double host_ms = std::chrono::duration<double>(Clock::now() - t0).count() * 1e3;
    if (!window && sync == cudaSuccess) timer_->take_foreign_activity();  // this call's own work, untimed
    if (sync != cudaSuccess)
      return cuda_failed(reply, sync, "at the cudaDeviceSynchronize() the judge runs after solve() returns");
    if (cudaError_t launch = cudaGetLastError(); launch != cudaSuccess)
      return cuda_failed(reply, launch,
                         "from a CUDA call or kernel launch inside solve() (cudaGetLastError after it returned)");
    // After cudaDeviceReset() the runtime quietly makes a new context, in which the shared buffers are not mapped.
    cudaPointerAttributes attr{};
    if (cudaPointerGetAttributes(&attr, sentinel_) != cudaSuccess || attr.type != cudaMemoryTypeDevice) {
      cudaGetLastError();
      reply["ok"] = false;
      reply["error"] = {{"kind", "context_destroyed"}};
      return;
    }
    if (case_->stage) case_->copy_out();
    reply["ok"] = true;
    reply["host_ms"] = host_ms;
  }

  // A timed call is answered in two steps, so that the worker's clock stops at the first: `call` answers as soon as
  // the device is idle, with the window still open; `span` then closes it and collects what CUPTI recorded, work
  // that costs tens of microseconds and is none of the submission's.
  void open_window() {
    // Nothing ran since the last window closed (the process was stopped), so no delivery is needed first.
    foreign_ = timer_->begin(false);
    window_open_ = true;
  }
  void close_window(json& reply) {
    if (!window_open_) throw judge::Error("span without a call");
    window_open_ = false;
    judge::Span span = timer_->end();
    // The judge's own null kernel is not the submission's: its launches and windows leave the kernel table (which
    // would list it, and divide every kernel's launches per call by the null calls too).
    if (std::exchange(null_window_, false)) timer_->take_kernels();
    reply["ok"] = true;
    reply["gpu_ms"] = span.gpu_ms;
    reply["records"] = span.records;
    reply["streams"] = span.streams;
    reply["foreign"] = foreign_ + timer_->take_foreign_activity();
    reply["timer"] = timer_->name();
  }

  static void threw(json& reply, const std::string& message) {
    reply["ok"] = false;
    reply["error"] = {{"kind", "threw"}, {"message", message}};
  }

  static void cuda_failed(json& reply, cudaError_t code, const std::string& where) {
    reply["ok"] = false;
    reply["error"] = {{"kind", "cuda"},
                      {"code", static_cast<int>(code)},
                      {"message", fmt::format("{} ({})", cudaGetErrorName(code), cudaGetErrorString(code))},
                      {"where", where}};
  }

  judge::SolverChannel channel_;
  int device_ = 0;
  bool cupti_ = true;
  cudaStream_t stream_ = nullptr;
  const void* sentinel_ = nullptr;
  std::unique_ptr<judge::Timer> timer_;
  std::optional<judge::Solution> solution_;
  std::unique_ptr<CaseBuffers> case_;
  int foreign_ = 0;
  bool window_open_ = false;
  bool null_window_ = false;  // the window open is a null call's (the judge's own kernel)
};

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a vanished worker is seen as a write error, not a silent death
  int fd = -1, device = 0;
  bool cupti = true;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--control-fd" && i + 1 < argc) fd = std::atoi(argv[++i]);
    else if (flag == "--device" && i + 1 < argc) device = std::atoi(argv[++i]);
    else if (flag == "--no-cupti") cupti = false;
  }
  if (fd < 0) {
    std::fprintf(stderr, "usage: judge-solver --control-fd N --device D [--no-cupti]\n"
                         "(started by judge-worker; not meant to be run by hand)\n");
    return 64;
  }
  try {
    return Solver(fd, device, cupti).serve();
  } catch (const std::exception& e) {
    judge::SolverChannel channel(::dup(fd));
    channel.send({{"re", 0}, {"hello", true}, {"error", e.what()}});
    return 1;
  }
}
