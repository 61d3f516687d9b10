// expect: suspicious_timing|accepted
// judge-command: submit
// expect-output-lacks: PRECOMPUTED-HIT
// Attacker's intent: do the work outside the timed window. The first call starts a host thread that remembers the
// input pointers of the latest call and, whenever no call is running, polls a few sampled inputs every 100 us; when
// it sees inputs that no call has computed yet (the judge writes fresh inputs into the same buffers before each
// timed call), it adds them into a private buffer at once. A call whose inputs match a result finished before the
// call began only copies it into C and prints `PRECOMPUTED-HIT`: the timed window then holds a copy instead of the
// addition. Otherwise the call adds honestly, so C is always right. (Against the old judge the work was moved
// before the window by a CUPTI callback: accepted at 112-117% of the copy bound.) The thread reads the inputs
// through a mapping of its own of the same memory where it can (cuMemRetainAllocationHandle), so that the judge
// unmapping a finished case's buffers never leaves it reading unmapped memory.
// Harmless when the submission's process cannot run between calls (the judge stops it): the thread never sees the
// next inputs before the call that owns them, so it never hits, and the output lacks `PRECOMPUTED-HIT` whatever the
// verdict. The verdict itself may go two ways, both rejections of the idea: the thread's polls that land after a
// call returned and before the judge stopped the process are GPU work outside any window, which the judge reports
// as `suspicious_timing` (likely, over hundreds of calls); if none lands there, every call is correct: `accepted`.
#include <cuda.h>
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

namespace {

constexpr int kSamples = 64;

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

// The fingerprint of the inputs: kSamples elements of A and of B at fixed pseudo-random places.
__global__ void gather(const float* A, const float* B, int N, float* out) {
  int s = threadIdx.x;
  if (s >= kSamples) return;
  size_t i = (static_cast<size_t>(s) * 2654435761u + 12345u) % static_cast<size_t>(N);
  out[s] = A[i];
  out[kSamples + s] = B[i];
}

struct Sig {
  float v[2 * kSamples] = {};
  int n = -1;
  bool operator==(const Sig& o) const { return n == o.n && std::memcmp(v, o.v, sizeof v) == 0; }
};

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Sig fingerprint(const float* A, const float* B, int N, float* scratch, cudaStream_t stream) {
  Sig s;
  s.n = N;
  gather<<<1, kSamples, 0, stream>>>(A, B, N, scratch);
  cudaMemcpyAsync(s.v, scratch, sizeof s.v, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  return s;
}

// The driver calls for a private mapping, through the runtime (the library is not linked against libcuda).
struct Driver {
  decltype(&::cuMemRetainAllocationHandle) retain = nullptr;
  decltype(&::cuMemRelease) release = nullptr;
  decltype(&::cuMemGetAddressRange) range = nullptr;
  decltype(&::cuMemGetAllocationPropertiesFromHandle) properties = nullptr;
  decltype(&::cuMemAddressReserve) reserve = nullptr;
  decltype(&::cuMemAddressFree) address_free = nullptr;
  decltype(&::cuMemMap) map = nullptr;
  decltype(&::cuMemUnmap) unmap = nullptr;
  decltype(&::cuMemSetAccess) set_access = nullptr;
  bool ok = false;

  template <class F>
  static bool load(F& f, const char* symbol) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !p) {
      cudaGetLastError();
      return false;
    }
    f = reinterpret_cast<F>(p);
    return true;
  }
  Driver() {
    ok = load(retain, "cuMemRetainAllocationHandle") && load(release, "cuMemRelease") &&
         load(range, "cuMemGetAddressRange") && load(properties, "cuMemGetAllocationPropertiesFromHandle") &&
         load(reserve, "cuMemAddressReserve") && load(address_free, "cuMemAddressFree") && load(map, "cuMemMap") &&
         load(unmap, "cuMemUnmap") && load(set_access, "cuMemSetAccess");
  }
};

// The thread's own view of a buffer: the same physical memory mapped at an address of its own, which stays valid
// when the judge unmaps its mapping. Memory that is not VMM-mapped (cudaMalloc) is read where it is.
class View {
 public:
  View() = default;
  View(const View&) = delete;
  View& operator=(const View&) = delete;
  ~View() { reset(); }

  const float* get() const { return mine_; }
  const float* of() const { return user_; }
  // Bytes readable from get() on: to the end of the mapping (unknown, so unbounded, where we read in place).
  size_t readable() const { return readable_; }

  void reset() {
    if (va_) {
      driver().unmap(va_, size_);
      driver().address_free(va_, size_);
    }
    va_ = 0;
    size_ = 0;
    readable_ = 0;
    user_ = mine_ = nullptr;
  }

  void point_at(const float* user) {
    reset();
    user_ = mine_ = user;
    readable_ = SIZE_MAX;
    const Driver& d = driver();
    if (!d.ok) return;
    CUmemGenericAllocationHandle handle = 0;
    if (d.retain(&handle, const_cast<float*>(user)) != CUDA_SUCCESS) return;  // not VMM memory
    CUdeviceptr base = 0;
    size_t size = 0;
    CUmemAllocationProp prop{};
    CUdeviceptr va = 0;
    bool mapped = false;
    if (d.range(&base, &size, reinterpret_cast<CUdeviceptr>(user)) == CUDA_SUCCESS &&
        d.properties(&prop, handle) == CUDA_SUCCESS && d.reserve(&va, size, 0, 0, 0) == CUDA_SUCCESS) {
      if (d.map(va, size, 0, handle, 0) == CUDA_SUCCESS) {
        CUmemAccessDesc access{};
        access.location = prop.location;
        access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        if (d.set_access(va, size, &access, 1) == CUDA_SUCCESS) {
          mapped = true;
        } else {
          d.unmap(va, size);
        }
      }
      if (!mapped) d.address_free(va, size);
    }
    d.release(handle);  // the mapping holds the memory now
    if (!mapped) return;
    va_ = va;
    size_ = size;
    mine_ = reinterpret_cast<const float*>(va + (reinterpret_cast<CUdeviceptr>(user) - base));
    readable_ = size - (reinterpret_cast<CUdeviceptr>(user) - base);
  }

 private:
  static const Driver& driver() {
    static const Driver d;
    return d;
  }
  const float* user_ = nullptr;
  const float* mine_ = nullptr;
  CUdeviceptr va_ = 0;
  size_t size_ = 0;
  size_t readable_ = 0;
};

class Precomputer {
 public:
  ~Precomputer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }

  // At the top of every solve(): waits for the thread to put the buffers down, points its views at this call's
  // buffers (valid now: the call owns them) and, when C can be copied from a result finished before `entered`,
  // copies it and returns true.
  bool enter(const float* A, const float* B, float* C, int N, double entered) {
    if (!started_) start();
    Sig now = fingerprint(A, B, N, main_scratch_, 0);
    std::unique_lock<std::mutex> lock(m_);
    in_call_ = true;
    idle_.wait(lock, [this] { return !using_; });
    // A new case may get its buffers at the addresses of the last one's: a new N says so too.
    if (a_.of() != A || N != N_) a_.point_at(A);
    if (b_.of() != B || N != N_) b_.point_at(B);
    N_ = N;
    last_call_ = now;
    if (!(ready_ && ready_sig_ == now && ready_at_ < entered)) return false;
    cudaMemcpy(C, pre_, static_cast<size_t>(N) * sizeof(float), cudaMemcpyDeviceToDevice);
    return true;
  }

  void leave() {
    std::lock_guard<std::mutex> lock(m_);
    in_call_ = false;
  }

 private:
  void start() {
    started_ = true;
    cudaGetDevice(&device_);
    cudaMalloc(&main_scratch_, 2 * kSamples * sizeof(float));
    thread_ = std::thread([this] { loop(); });
  }

  void loop() {
    cudaSetDevice(device_);
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    float* scratch = nullptr;
    cudaMalloc(&scratch, 2 * kSamples * sizeof(float));
    while (!stop_) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      const float *A, *B;
      int N;
      Sig last;
      {
        std::lock_guard<std::mutex> lock(m_);
        const size_t bytes = static_cast<size_t>(N_) * sizeof(float);
        if (in_call_ || !a_.get() || !b_.get() || a_.readable() < bytes || b_.readable() < bytes)
          continue;  // only between calls, and only what the views hold
        using_ = true;
        A = a_.get();
        B = b_.get();
        N = N_;
        last = last_call_;
      }
      Sig seen = fingerprint(A, B, N, scratch, stream);
      bool ok = false;
      if (!(seen == last) && !(ready_ && seen == ready_sig_)) {
        // Inputs no call has computed yet: add them now, outside any call.
        ready_ = false;
        if (static_cast<size_t>(N) > capacity_) {
          cudaFree(pre_);
          pre_ = nullptr;
          capacity_ = 0;
          if (cudaMalloc(&pre_, static_cast<size_t>(N) * sizeof(float)) == cudaSuccess) capacity_ = N;
        }
        if (capacity_ >= static_cast<size_t>(N)) {
          add<<<(N + 255) / 256, 256, 0, stream>>>(A, B, pre_, N);
          ok = cudaStreamSynchronize(stream) == cudaSuccess && fingerprint(A, B, N, scratch, stream) == seen;
        }
      }
      {
        std::lock_guard<std::mutex> lock(m_);
        using_ = false;
        if (ok) {
          ready_sig_ = seen;
          ready_at_ = now_s();
          ready_ = true;
        }
      }
      idle_.notify_all();
    }
    cudaStreamSynchronize(stream);
    cudaFree(scratch);
    cudaStreamDestroy(stream);
  }

  std::mutex m_;
  std::condition_variable idle_;
  bool in_call_ = false;  // a call is running: the thread keeps off
  bool using_ = false;    // the thread is reading the views or writing pre_
  View a_, b_;            // the latest call's A and B, as the thread reads them
  int N_ = 0;
  Sig last_call_;  // the inputs of the latest call
  Sig ready_sig_;  // the inputs pre_ holds the sum of, when ready_
  bool ready_ = false;
  double ready_at_ = 0;
  float* pre_ = nullptr;
  size_t capacity_ = 0;
  float* main_scratch_ = nullptr;
  int device_ = 0;
  bool started_ = false;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

Precomputer precomputer;  // its destructor stops the thread before the CUDA runtime goes away

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static int calls = 0;
  ++calls;
  const double entered = now_s();
  if (precomputer.enter(A, B, C, N, entered)) {
    std::printf("PRECOMPUTED-HIT call %d, N = %d\n", calls, N);
    std::fflush(stdout);
  } else {
    add<<<(N + 255) / 256, 256>>>(A, B, C, N);
    cudaDeviceSynchronize();
  }
  precomputer.leave();
}
