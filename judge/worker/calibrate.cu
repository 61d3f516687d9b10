#include "judge/worker/calibrate.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "judge/core/base/version.hpp"
#include "judge/core/measure/statistics.hpp"
#include "judge/worker/cuda_check.hpp"
#include "judge/worker/cuda_handles.hpp"
#include "judge/worker/device_buffer.hpp"
#include "judge/worker/generate.hpp"

namespace judge {

namespace {

using Progress = std::function<void(const std::string&, double)>;

// Timing: every figure is a median over kSamples event-timed repetitions, after a warm-up that lets the clocks ramp
// up, cuBLAS choose and load its kernels and the TLBs fill.
constexpr int kSamples = 15;
constexpr int kMinWarmupCalls = 3;
constexpr double kWarmupS = 0.25;

// The copy buffer: large enough that the L2 holds a negligible part of it.
constexpr std::size_t kMinCopyBytes = std::size_t{1} << 30;
constexpr std::size_t kL2Multiple = 16;

// The FMA kernel: kFmaChains independent chains per thread, so each FFMA's latency (about 4 cycles) is covered by
// the thread's other chains and by other warps, and the FMA pipes never wait.
constexpr int kFmaBlock = 256;
constexpr int kFmaChains = 8;
constexpr int kFmaUnroll = 16;
constexpr int kFmaIterations = 512;  // 65536 FMAs per thread: a few ms on a large GPU
constexpr int kFmaWaves = 4;         // full waves of resident blocks: no tail

// Largest GEMM first; the next is tried when free memory is short.
constexpr int kGemmSizes[] = {8192, 4096, 2048};

// Median GPU time, in ms, of the work `enqueue` puts on `stream`.
double median_ms(cudaStream_t stream, const std::function<void()>& enqueue) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0;
       i < kMinWarmupCalls || std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < kWarmupS;
       ++i) {
    enqueue();
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  Event start, stop;
  std::vector<double> samples;
  for (int i = 0; i < kSamples; ++i) {
    JUDGE_CUDA_CHECK(cudaEventRecord(start.get(), stream));
    enqueue();
    JUDGE_CUDA_CHECK(cudaEventRecord(stop.get(), stream));
    JUDGE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    JUDGE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    samples.push_back(ms);
  }
  return summarize(samples).median;
}

// Uniform random floats in [-1, 1): timing on zeros would flatter hardware that shortcuts them.
void fill_random(void* data, std::size_t count, std::uint64_t key, cudaStream_t stream) {
  generate(data, DType::float32, static_cast<std::int64_t>(count), Distribution{}, key, {}, stream);
}

double copy_gbps(int device, cudaStream_t stream) {
  int l2 = 0;
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  std::size_t free_bytes = 0, total_bytes = 0;
  JUDGE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  std::size_t bytes = std::max(kMinCopyBytes, kL2Multiple * static_cast<std::size_t>(l2));
  bytes = std::min(bytes, free_bytes / 8) / 256 * 256;
  if (bytes == 0) JUDGE_THROW(Error, "only {} bytes of device memory are free: not enough to calibrate", free_bytes);
  DeviceBuffer src(bytes), dst(bytes);
  fill_random(src.get(), bytes / sizeof(float), 1, stream);
  double ms = median_ms(stream, [&] {
    JUDGE_CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream));
  });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9;  // every byte is read once and written once
}

// The loop body is FFMAs only (no division or sqrt). a and b are runtime values, so nothing folds; the result is
// stored only if it equals `never` (a value the chains, which converge towards b / (1 - a) > 0, cannot reach), so
// the compiler must compute it but the store never happens.
__global__ void __launch_bounds__(kFmaBlock) fma_chains(float* out, int iterations, float a, float b, float never) {
  float acc[kFmaChains];
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) acc[c] = static_cast<float>(threadIdx.x) * 1e-3f + static_cast<float>(c);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int u = 0; u < kFmaUnroll; ++u) {
#pragma unroll
      for (int c = 0; c < kFmaChains; ++c) acc[c] = fmaf(acc[c], a, b);
    }
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) sum += acc[c];
  if (sum == never) out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

double fp32_fma_gflops(int device, cudaStream_t stream) {
  int sms = 0, per_sm = 0;
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  JUDGE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fma_chains, kFmaBlock, 0));
  const int blocks = sms * std::max(per_sm, 1) * kFmaWaves;
  DeviceBuffer out(static_cast<std::size_t>(blocks) * kFmaBlock * sizeof(float));
  double ms = median_ms(stream, [&] {
    fma_chains<<<blocks, kFmaBlock, 0, stream>>>(static_cast<float*>(out.get()), kFmaIterations, 0.9999f, 1e-4f,
                                                 -1.0f);
    JUDGE_CUDA_CHECK(cudaGetLastError());
  });
  double fmas = static_cast<double>(blocks) * kFmaBlock * kFmaIterations * kFmaUnroll * kFmaChains;
  return 2.0 * fmas / (ms * 1e-3) / 1e9;
}

__device__ __half to_half(float x, __half*) { return __float2half_rn(x); }
__device__ __nv_bfloat16 to_half(float x, __nv_bfloat16*) { return __float2bfloat16_rn(x); }
// The inputs are uniform in about [-1, 1): scaled to the int8 range so the integer products are not all zero.
__device__ std::int8_t to_half(float x, std::int8_t*) {
  return static_cast<std::int8_t>(__float2int_rn(fminf(fmaxf(x * 127.0f, -127.0f), 127.0f)));
}

template <class T>
__global__ void narrow(const float* in, T* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] = to_half(in[i], out);
}

template <class T>
void narrow_into(const DeviceBuffer& in, const DeviceBuffer& out, std::size_t n, cudaStream_t stream) {
  narrow<<<1024, 256, 0, stream>>>(static_cast<const float*>(in.get()), static_cast<T*>(out.get()), n);
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

// Square n x n GEMMs, C = A B, on random inputs: FP32 matrices and 16-bit copies of them.
class GemmBench {
 public:
  GemmBench(cublasHandle_t h, cudaStream_t stream) : h_(h), stream_(stream) {
    std::size_t free_bytes = 0, total_bytes = 0;
    JUDGE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    for (int n : kGemmSizes) {
      n_ = n;
      if (2 * bytes_needed(n) <= free_bytes) break;  // twice: room for cuBLAS's workspace and the unexpected
    }
    std::size_t count = elements();
    a32_ = DeviceBuffer(count * 4);
    b32_ = DeviceBuffer(count * 4);
    c32_ = DeviceBuffer(count * 4);
    a16_ = DeviceBuffer(count * 2);
    b16_ = DeviceBuffer(count * 2);
    c16_ = DeviceBuffer(count * 2);
    fill_random(a32_.get(), count, 2, stream_);
    fill_random(b32_.get(), count, 3, stream_);
    check_cublas(cublasSetStream(h_, stream_), "cublasSetStream");
    check_cublas(cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
  }

  // cuBLAS SGEMM in strict FP32: no TF32 or other reduced-precision tensor-core paths.
  double sgemm() {
    check_cublas(cublasSetMathMode(h_, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode(CUBLAS_PEDANTIC_MATH)");
    return gflops([&] {
      check_cublas(cublasSgemm(h_, CUBLAS_OP_N, CUBLAS_OP_N, n_, n_, n_, &one_, f32(a32_), n_, f32(b32_), n_, &zero_,
                               f32(c32_), n_),
                   "cublasSgemm (FP32, pedantic)");
    });
  }

  double tf32() {
    check_cublas(cublasSetMathMode(h_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode(CUBLAS_DEFAULT_MATH)");
    return gflops([&] {
      check_cublas(cublasGemmEx(h_, CUBLAS_OP_N, CUBLAS_OP_N, n_, n_, n_, &one_, a32_.get(), CUDA_R_32F, n_,
                                b32_.get(), CUDA_R_32F, n_, &zero_, c32_.get(), CUDA_R_32F, n_,
                                CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmEx (FP32 in/out, CUBLAS_COMPUTE_32F_FAST_TF32)");
    });
  }

  // 16-bit inputs and output (FP16 or BF16), FP32 accumulation: the usual half-precision GEMM.
  template <class T>
  double gemm16(cudaDataType_t type, const char* call) {
    narrow_into<T>(a32_, a16_, elements(), stream_);
    narrow_into<T>(b32_, b16_, elements(), stream_);
    check_cublas(cublasSetMathMode(h_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode(CUBLAS_DEFAULT_MATH)");
    return gflops([&] {
      check_cublas(cublasGemmEx(h_, CUBLAS_OP_N, CUBLAS_OP_N, n_, n_, n_, &one_, a16_.get(), type, n_, b16_.get(),
                                type, n_, &zero_, c16_.get(), type, n_, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                   call);
    });
  }

  // INT8 inputs, INT32 accumulation and output, in the layout cuBLAS's integer tensor-core kernels prefer (A
  // transposed: both operands contiguous along k). The int8 operands reuse the 16-bit buffers (half their size).
  double int8() {
    narrow_into<std::int8_t>(a32_, a16_, elements(), stream_);
    narrow_into<std::int8_t>(b32_, b16_, elements(), stream_);
    check_cublas(cublasSetMathMode(h_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode(CUBLAS_DEFAULT_MATH)");
    return gflops([&] {
      check_cublas(cublasGemmEx(h_, CUBLAS_OP_T, CUBLAS_OP_N, n_, n_, n_, &ione_, a16_.get(), CUDA_R_8I, n_,
                                b16_.get(), CUDA_R_8I, n_, &izero_, c32_.get(), CUDA_R_32I, n_, CUBLAS_COMPUTE_32I,
                                CUBLAS_GEMM_DEFAULT),
                   "cublasGemmEx (INT8 in, INT32 out, CUBLAS_COMPUTE_32I)");
    });
  }

 private:
  static std::size_t bytes_needed(int n) { return static_cast<std::size_t>(n) * n * (3 * 4 + 3 * 2); }
  std::size_t elements() const { return static_cast<std::size_t>(n_) * n_; }
  static float* f32(const DeviceBuffer& b) { return static_cast<float*>(b.get()); }

  double gflops(const std::function<void()>& enqueue) {
    double ms = median_ms(stream_, enqueue);
    return 2.0 * n_ * static_cast<double>(n_) * n_ / (ms * 1e-3) / 1e9;
  }

  cublasHandle_t h_;
  cudaStream_t stream_;
  int n_ = 0;
  const float one_ = 1.0f, zero_ = 0.0f;
  const std::int32_t ione_ = 1, izero_ = 0;
  DeviceBuffer a32_, b32_, c32_, a16_, b16_, c16_;
};

std::string utc_now_iso8601() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

Calibration measure_calibration(int device, const Progress& progress) {
  JUDGE_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  JUDGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  Calibration c;
  c.gpu_name = prop.name;
  c.compute_capability = fmt::format("{}.{}", prop.major, prop.minor);
  c.sm_count = prop.multiProcessorCount;
  c.judge_version = std::string(judge_version());

  Stream stream;
  CublasHandle cublas;
  constexpr double kSteps = 7;
  auto step = [&](const char* label, int index) {
    if (progress) progress(label, index / kSteps);
  };
  step("copy bandwidth", 0);
  c.copy_gbps = copy_gbps(device, stream.get());
  step("FP32 FMA rate", 1);
  c.fp32_fma_gflops = fp32_fma_gflops(device, stream.get());
  {
    GemmBench gemm(cublas.get(), stream.get());
    step("SGEMM FP32", 2);
    c.sgemm_gflops = gemm.sgemm();
    step("GEMM TF32", 3);
    c.tf32_gflops = gemm.tf32();
    step("GEMM FP16", 4);
    c.fp16_gflops = gemm.gemm16<__half>(CUDA_R_16F, "cublasGemmEx (FP16 in/out, CUBLAS_COMPUTE_32F)");
    step("GEMM BF16", 5);
    c.bf16_gflops = gemm.gemm16<__nv_bfloat16>(CUDA_R_16BF, "cublasGemmEx (BF16 in/out, CUBLAS_COMPUTE_32F)");
    step("GEMM INT8", 6);
    c.int8_gops = gemm.int8();
  }
  JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  c.measured_at = utc_now_iso8601();
  if (progress) progress("done", 1.0);
  return c;
}

}  // namespace judge
