// expect: output_not_written|suspicious_timing
// expect-output-lacks: copying the judge's answer
// judge-command: submit
// Steals the answer. On the benchmarks this copies the reference C instead of multiplying: it walks the device
// allocations near C (cuMemGetAddressRange, through the runtime's driver entry points), and takes the first one of
// C's size whose values match a few dot products it computes itself. (The tests are small and computed honestly.)
// Harmless when no answer is in reach: the judge computes the expected C only after the call (and poisons its buffer
// before), and in a process the submission does not run in (solve() runs in the sandboxed solver, which sees A, B and
// C through CUDA IPC and nothing else of the judge's). Then nothing is copied and C is left alone: which rejection
// surfaces depends on what the walk could do with IPC mappings. Where it finds nothing to compare, solve() does no
// GPU work at all (`suspicious_timing`: "did no GPU work"); where it compares candidates, C stays unwritten
// (`output_not_written`). The line it prints says which; "copying the judge's answer" in it (forbidden above) would
// mean the answer leaked into reach again, and `accepted` that the judge also believed a 4096^3 GEMM in microseconds.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

#define TILE 16
#define SAMPLES 16

using GetAddressRange = CUresult (*)(CUdeviceptr*, size_t*, CUdeviceptr);

__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < N; t += TILE) {
    As[ty][tx] = (row < M && t + tx < N) ? A[row * N + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < N && col < K) ? B[(t + ty) * K + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < K) C[row * K + col] = acc;
}

// One block per sample position: computes C[r][c] and counts a mismatch if the candidate disagrees.
__global__ void check_samples(const float* A, const float* B, const float* candidate, int M, int N, int K, int* bad) {
  __shared__ float partial[256];
  const unsigned s = blockIdx.x;
  const int r = static_cast<int>((s * 2654435761u + 7u) % static_cast<unsigned>(M));
  const int c = static_cast<int>((s * 40503u + 17u) % static_cast<unsigned>(K));
  float sum = 0.0f;
  for (int k = threadIdx.x; k < N; k += blockDim.x) sum += A[static_cast<size_t>(r) * N + k] * B[static_cast<size_t>(k) * K + c];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const float want = partial[0], got = candidate[static_cast<size_t>(r) * K + c];
    if (!(fabsf(got - want) <= 1e-2f + 1e-3f * fabsf(want))) atomicAdd(bad, 1);
  }
}

namespace {

GetAddressRange address_range() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &fn, 12000, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess)
    fn = nullptr;
  cudaGetLastError();
  return reinterpret_cast<GetAddressRange>(fn);
}

bool matches(const float* A, const float* B, const float* candidate, int M, int N, int K, int* bad) {
  cudaMemset(bad, 0, sizeof(int));
  check_samples<<<SAMPLES, 256>>>(A, B, candidate, M, N, K, bad);
  int host_bad = -1;
  cudaMemcpy(&host_bad, bad, sizeof(int), cudaMemcpyDeviceToHost);
  return host_bad == 0;
}

// Looks for an allocation of C's size, not A, B or C, whose sampled values are the product. Scans 16 GiB either
// side of C in 2 MiB steps (the granularity of large allocations), jumping over allocations it meets.
const float* find_answer(GetAddressRange range, const float* A, const float* B, float* C, int M, int N, int K,
                         int* bad) {
  const size_t want = static_cast<size_t>(M) * K * sizeof(float);
  const CUdeviceptr step = 2u << 20, reach = CUdeviceptr(16) << 30;
  CUdeviceptr base[3] = {};
  size_t size[3] = {};
  const void* mine[3] = {A, B, C};
  for (int i = 0; i < 3; ++i)
    if (range(&base[i], &size[i], reinterpret_cast<CUdeviceptr>(mine[i])) != CUDA_SUCCESS) return nullptr;
  auto consider = [&](CUdeviceptr b, size_t s) -> const float* {
    if (b == base[0] || b == base[1] || b == base[2] || s < want || s >= want + (4u << 20)) return nullptr;
    const float* candidate = reinterpret_cast<const float*>(b);
    return matches(A, B, candidate, M, N, K, bad) ? candidate : nullptr;
  };
  CUdeviceptr b = 0;
  size_t s = 0;
  const CUdeviceptr end = base[2] + size[2];
  for (CUdeviceptr p = (end + step - 1) / step * step; p < end + reach;) {  // upwards from C
    if (range(&b, &s, p) != CUDA_SUCCESS) {
      p += step;
      continue;
    }
    if (const float* hit = consider(b, s)) return hit;
    const CUdeviceptr after = (b + s + step - 1) / step * step;
    p = after > p + step ? after : p + step;
  }
  for (CUdeviceptr p = base[2] / step * step - step; p >= step && p + reach > base[2];) {  // downwards
    if (range(&b, &s, p) != CUDA_SUCCESS) {
      p -= step;
      continue;
    }
    if (const float* hit = consider(b, s)) return hit;
    const CUdeviceptr before = b / step * step - step;
    p = before < p - step ? before : p - step;
  }
  return nullptr;
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  if (static_cast<double>(M) * N * K < 1e9) {  // a test: do it properly
    const dim3 threads(TILE, TILE), blocks((K + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<<<blocks, threads>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
    return;
  }
  static GetAddressRange range = address_range();
  static int* bad = [] {
    int* p = nullptr;
    cudaMalloc(&p, sizeof(int));
    return p;
  }();
  static const float* cached = nullptr;  // where the answer was last time, for this C and these sizes
  static const float* cached_for = nullptr;
  static int cached_m = 0, cached_n = 0, cached_k = 0;
  static int reports = 0;
  const float* answer = nullptr;
  if (cached && cached_for == C && cached_m == M && cached_n == N && cached_k == K && range) {
    CUdeviceptr b = 0;
    size_t s = 0;  // still allocated? (a freed buffer must not be read)
    if (range(&b, &s, reinterpret_cast<CUdeviceptr>(cached)) == CUDA_SUCCESS &&
        b == reinterpret_cast<CUdeviceptr>(cached) && matches(A, B, cached, M, N, K, bad))
      answer = cached;
  }
  if (!answer && range) answer = find_answer(range, A, B, C, M, N, K, bad);
  if (reports < 4) {
    ++reports;
    std::fprintf(stderr, "copies_reference_answer: %dx%dx%d: %s %p (C is %p)\n", M, N, K,
                 answer ? "copying the judge's answer from" : (range ? "no answer found near C" : "no driver entry"),
                 static_cast<const void*>(answer), static_cast<void*>(C));
  }
  cached = answer, cached_for = C, cached_m = M, cached_n = N, cached_k = K;
  if (answer) cudaMemcpyAsync(C, answer, static_cast<size_t>(M) * K * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaDeviceSynchronize();
}
