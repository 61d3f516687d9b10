// Why did the judge read streaming kernels slower than ncu? A study of the state before a timed call and of the
// timer itself, kept because it is how the judge's timer was chosen (docs/measurement.md, "Agreement with ncu").
//
// Times one memory-bound kernel (the naive vector_add or the naive transpose of submissions/, at benchmark size)
// with the judge's own timer after different preparations of the L2, and beside it the kernel's own span (every
// block stamps %globaltimer at its start and end), which means the same thing under ncu as outside it. Each
// preparation launches a differently named kernel (kernel_v<K>), so ncu's gpu__time_duration can be matched to it:
//
//   judge-bench-l2-state vector_add 30 serialized,concurrent   the judge's timer in both CUPTI modes, in turn
//   judge-bench-l2-state vector_add 30 events                  CUDA events, CUPTI never enabled
//   JUDGE_STUDY_OFFSET_MB=130 judge-bench-l2-state ...         every buffer moved to other physical pages
//   ncu --clock-control none --kernel-name regex:_v --metrics gpu__time_duration.sum --csv \
//       judge-bench-l2-state vector_add 10                     the same kernels, as ncu times them
//
// What it showed on an H200: a read flush leaves the L2 as ncu's cache control does (a memset flush does not);
// CUPTI's concurrent kernel tracing slows the naive vector_add by 7% (the kernel's own span: 97.8 µs against 91.4
// µs untraced or serialized); and the naive transpose moves by 1.5% with nothing but the physical placement of its
// buffers. bench/agreement/run.sh runs the study and ncu (cache control on and off) and prints the tables.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "judge/worker/cuda_check.hpp"
#include "judge/worker/device_buffer.hpp"
#include "judge/worker/l2_flush.hpp"
#include "judge/worker/timer.hpp"

namespace {

using judge::DeviceBuffer;

// The preparations. What the judge does before every timed call is `regen+read2x`.
enum Prep : int {
  kWarm = 0,             // nothing: back to back, the previous call's lines still in L2
  kRead2x = 1,           // the judge's read flush only
  kRegen = 2,            // fresh inputs and poisoned outputs, no flush: L2 full of dirty lines
  kRegenRead2x = 3,      // what the judge does
  kRegenRead2xIdle = 4,  // ... then 5 ms idle before the call
  kRegenRead8x = 5,      // ... with a read flush of 8x the L2
  kRegenMemset2x = 6,    // ... with a memset flush (nvbench, do_bench)
  kRegenWriteRead = 7,   // ... with a memset flush followed by the read flush
  kPrepCount = 8
};
const char* const kPrepNames[kPrepCount] = {"warm",
                                            "read2x",
                                            "regen",
                                            "regen+read2x",
                                            "regen+read2x+idle",
                                            "regen+read8x",
                                            "regen+memset2x",
                                            "regen+memset+read2x"};

// The kernel's own view of its duration: each block stamps %globaltimer when it starts and when all its threads
// are done. Under ncu as outside it, the span from the first start to the last end is the same quantity, so it says
// whether the kernel itself runs differently under ncu or only the bracket around it differs.
__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

struct Stamps {
  unsigned long long* start;
  unsigned long long* end;
};

template <int K>
__global__ void vector_add_v(const float* A, const float* B, float* C, int N, Stamps st) {
  const int block = blockIdx.x;
  if (threadIdx.x == 0) st.start[block] = global_ns();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
  __syncthreads();
  if (threadIdx.x == 0) st.end[block] = global_ns();
}

template <int K>
__global__ void transpose_v(const float* input, float* output, int rows, int cols, Stamps st) {
  const int block = blockIdx.y * gridDim.x + blockIdx.x;
  if (threadIdx.x == 0 && threadIdx.y == 0) st.start[block] = global_ns();
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) output[c * rows + r] = input[r * cols + c];
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) st.end[block] = global_ns();
}

__global__ void fill(float* p, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    p[i] = float(h >> 8) * (1.0f / 16777216.0f) - 0.5f;
  }
}

__global__ void read_all(const float4* p, std::size_t n, float* sink) {
  float acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    acc += p[i].x + p[i].w;
  if (acc == 12345.0f) *sink = acc;
}

struct Problem {
  std::string kernel;
  std::vector<DeviceBuffer> inputs;
  DeviceBuffer output;
  int n = 0, rows = 0, cols = 0;
  std::size_t blocks = 0;
  DeviceBuffer stamps;  // 2 x blocks
  Stamps view() const {
    auto* p = static_cast<unsigned long long*>(stamps.get());
    return {p, p + blocks};
  }
  // Microseconds from the first block's start to the last block's end of the last launch.
  double kernel_span_us() const {
    std::vector<unsigned long long> h(2 * blocks);
    JUDGE_CUDA_CHECK(cudaMemcpy(h.data(), stamps.get(), h.size() * 8, cudaMemcpyDeviceToHost));
    auto first = *std::min_element(h.begin(), h.begin() + blocks);
    auto last = *std::max_element(h.begin() + blocks, h.end());
    return (last - first) * 1e-3;
  }
};

template <int K>
void launch(const Problem& p) {
  if (p.kernel == "vector_add") {
    vector_add_v<K><<<(p.n + 255) / 256, 256>>>(static_cast<const float*>(p.inputs[0].get()),
                                                static_cast<const float*>(p.inputs[1].get()),
                                                static_cast<float*>(p.output.get()), p.n, p.view());
  } else {
    const dim3 threads(32, 8), blocks((p.cols + 31) / 32, (p.rows + 7) / 8);
    transpose_v<K><<<blocks, threads>>>(static_cast<const float*>(p.inputs[0].get()),
                                        static_cast<float*>(p.output.get()), p.rows, p.cols, p.view());
  }
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

void launch(int prep, const Problem& p) {
  switch (prep) {
    case 0:
      return launch<0>(p);
    case 1:
      return launch<1>(p);
    case 2:
      return launch<2>(p);
    case 3:
      return launch<3>(p);
    case 4:
      return launch<4>(p);
    case 5:
      return launch<5>(p);
    case 6:
      return launch<6>(p);
    default:
      return launch<7>(p);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: [JUDGE_STUDY_OFFSET_MB=N] %s vector_add|transpose REPS [events | serialized,...]\n",
                 argv[0]);
    return 2;
  }
  const std::string kernel = argv[1];
  const int reps = std::atoi(argv[2]);
  // Timers to compare, in order, in one process: "events", or CUPTI's kernel tracing modes (default: serialized).
  std::vector<std::string> modes;
  for (std::string list = argc > 3 ? argv[3] : "serialized"; !list.empty();) {
    auto comma = list.find(',');
    modes.push_back(list.substr(0, comma));
    list = comma == std::string::npos ? "" : list.substr(comma + 1);
  }
  auto timer = judge::make_timer(modes.front() != "events");
  JUDGE_CUDA_CHECK(cudaSetDevice(0));
  // JUDGE_STUDY_OFFSET_MB: memory allocated before everything else, which moves every buffer to other physical pages
  // (a profiler's own allocations do that to the program it profiles).
  const char* offset_mb = std::getenv("JUDGE_STUDY_OFFSET_MB");
  DeviceBuffer offset(offset_mb ? std::strtoull(offset_mb, nullptr, 10) << 20 : 0);
  int l2 = 0;
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  judge::L2Flusher flusher(0);
  cudaStream_t stream;
  JUDGE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  timer->learn_own_stream(stream);
  DeviceBuffer big(8 * std::size_t(l2)), sink(16);
  JUDGE_CUDA_CHECK(cudaMemset(big.get(), 0, big.size()));

  Problem p;
  p.kernel = kernel;
  std::size_t in_elems = 0, out_elems = 0;
  if (kernel == "vector_add") {
    p.n = 25000000;
    in_elems = out_elems = std::size_t(p.n);
    p.inputs.emplace_back(in_elems * 4);
    p.inputs.emplace_back(in_elems * 4);
  } else {
    p.rows = p.cols = 8192;
    in_elems = out_elems = std::size_t(p.rows) * p.cols;
    p.inputs.emplace_back(in_elems * 4);
  }
  p.output = DeviceBuffer(out_elems * 4);
  p.blocks =
      kernel == "vector_add" ? (std::size_t(p.n) + 255) / 256 : std::size_t((p.cols + 31) / 32) * ((p.rows + 7) / 8);
  p.stamps = DeviceBuffer(2 * p.blocks * 8);

  unsigned seed = 1;
  auto regen = [&] {
    for (auto& in : p.inputs) fill<<<1056, 256, 0, stream>>>(static_cast<float*>(in.get()), in_elems, seed++);
    JUDGE_CUDA_CHECK(cudaMemsetAsync(p.output.get(), 0xff, p.output.size(), stream));
  };
  auto read_big = [&] {
    read_all<<<1056, 256, 0, stream>>>(static_cast<const float4*>(big.get()), big.size() / 16,
                                       static_cast<float*>(sink.get()));
  };
  auto prepare = [&](int prep) {
    if (prep >= kRegen) regen();
    if (prep == kRead2x || prep == kRegenRead2x || prep == kRegenRead2xIdle) flusher.flush(stream);
    if (prep == kRegenRead8x) read_big();
    if (prep == kRegenMemset2x || prep == kRegenWriteRead)
      JUDGE_CUDA_CHECK(cudaMemsetAsync(big.get(), 0, 2 * std::size_t(l2), stream));
    if (prep == kRegenWriteRead) flusher.flush(stream);
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    if (prep == kRegenRead2xIdle) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  };

  for (const auto& mode : modes) {
    const auto tracing = mode == "concurrent" ? judge::KernelTracing::concurrent : judge::KernelTracing::serialized;
    if (mode != "events" && !timer->set_kernel_tracing(tracing))
      std::fprintf(stderr, "could not switch the timer to %s\n", mode.c_str());
    std::printf("timer %s, L2 %d MB\n%-22s %10s %10s %10s\n", timer->name().c_str(), l2 >> 20, "preparation",
                "median_us", "min_us", "inkernel_us");
    // Interleaved rounds, so a drift of the GPU's state affects every preparation alike.
    std::vector<std::vector<double>> samples(kPrepCount), spans(kPrepCount);
    for (int warm = 0; warm < 2; ++warm) {
      prepare(kWarm);
      launch(0, p);
      JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    }
    for (int r = 0; r < reps; ++r) {
      for (int prep = 0; prep < kPrepCount; ++prep) {
        prepare(prep);
        timer->begin();
        launch(prep, p);
        JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
        samples[prep].push_back(timer->end().gpu_ms * 1000.0);
        spans[prep].push_back(p.kernel_span_us());
      }
    }
    for (int prep = 0; prep < kPrepCount; ++prep) {
      auto& s = samples[prep];
      auto& k = spans[prep];
      std::sort(s.begin(), s.end());
      std::sort(k.begin(), k.end());
      std::printf("%-22s %10.1f %10.1f %10.1f\n", kPrepNames[prep], s[s.size() / 2], s.front(), k[k.size() / 2]);
    }
  }
  JUDGE_CUDA_CHECK(cudaStreamDestroy(stream));
  return 0;
}
