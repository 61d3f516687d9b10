// expect: accepted
// judge-command: submit
// Tries to keep its input in L2 from one timed call to the next: it raises the persisting-L2 limit to the maximum
// and sets an access policy window over the input on its stream, so the lines it reads are marked "persisting" and
// would survive the judge's L2 flush (a flush by ordinary writes cannot evict persisting lines). The judge resets
// persisting lines (and the limit) before every call, so this gains nothing; the work is correct: `accepted`.
// Setting the limit or the window may fail where persisting L2 is unsupported; the errors are cleared, not ignored
// by accident.
#include <cuda_runtime.h>

#define THREADS 256

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduce(const float* input, float* output, int N) {
  __shared__ float warp_totals[THREADS / 32];
  float sum = 0.0f;
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < N; i += gridDim.x * THREADS) sum += input[i];
  sum = warp_sum(sum);
  if (threadIdx.x % 32 == 0) warp_totals[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < THREADS / 32 ? warp_totals[threadIdx.x] : 0.0f;
    sum = warp_sum(sum);
    if (threadIdx.x == 0) atomicAdd(output, sum);
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  static cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  int device = 0, sms = 0, max_persist = 0, max_window = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device);
  if (max_persist > 0 && max_window > 0) {
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(max_persist));  // every call
    size_t bytes = sizeof(float) * static_cast<size_t>(N);
    if (bytes > static_cast<size_t>(max_window)) bytes = static_cast<size_t>(max_window);
    cudaStreamAttrValue attr = {};
    attr.accessPolicyWindow.base_ptr = const_cast<float*>(input);
    attr.accessPolicyWindow.num_bytes = bytes;
    attr.accessPolicyWindow.hitRatio = bytes > static_cast<size_t>(max_persist) ? float(max_persist) / bytes : 1.0f;
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr);
  }
  cudaGetLastError();  // an unsupported limit or window is not worth failing over
  int blocks = (N + THREADS - 1) / THREADS;
  if (blocks > 8 * sms) blocks = 8 * sms;
  if (blocks < 1) blocks = 1;
  cudaMemsetAsync(output, 0, sizeof(float), stream);
  reduce<<<blocks, THREADS, 0, stream>>>(input, output, N);
  cudaStreamSynchronize(stream);
}
