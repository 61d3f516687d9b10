// Rung 2: privatisation. Each block counts into its own copy of the histogram in shared memory (at most 1024 ints, so
// it always fits), where atomics are far cheaper than in global memory and contend only within the block. A grid
// just large enough to fill the GPU reads the input with a grid-stride loop and 16-byte int4 loads; at the end each
// block adds its nonzero bins to the global histogram, a few hundred global atomics per block instead of one per
// value. Clearing and flushing loop over the bins with a stride of blockDim.x, so any bin count works.
#include <cstdint>

#include <cuda_runtime.h>

#define THREADS 256

__global__ void histogram_shared(const int* input, int* histogram, int N, int num_bins, int n4) {
  extern __shared__ int bins[];  // num_bins ints, sized at launch
  for (int b = threadIdx.x; b < num_bins; b += THREADS) bins[b] = 0;
  __syncthreads();
  const int first = blockIdx.x * THREADS + threadIdx.x;
  const int stride = gridDim.x * THREADS;
  const int4* in4 = reinterpret_cast<const int4*>(input);
  for (int i = first; i < n4; i += stride) {
    const int4 v = in4[i];
    atomicAdd(&bins[v.x], 1);
    atomicAdd(&bins[v.y], 1);
    atomicAdd(&bins[v.z], 1);
    atomicAdd(&bins[v.w], 1);
  }
  for (int i = 4 * n4 + first; i < N; i += stride) atomicAdd(&bins[input[i]], 1);
  __syncthreads();  // every count of this block is in before it is flushed
  for (int b = threadIdx.x; b < num_bins; b += THREADS)
    if (bins[b] != 0) atomicAdd(&histogram[b], bins[b]);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const bool aligned = reinterpret_cast<std::uintptr_t>(input) % 16 == 0;
  const int n4 = aligned ? N / 4 : 0;
  const int items = aligned ? (n4 > 0 ? n4 : 1) : N;  // loop iterations the grid has to cover
  int blocks = sms * 8;
  const int needed = (items + THREADS - 1) / THREADS;
  if (blocks > needed) blocks = needed;
  if (blocks < 1) blocks = 1;
  cudaMemset(histogram, 0, num_bins * sizeof(int));
  histogram_shared<<<blocks, THREADS, num_bins * sizeof(int)>>>(input, histogram, N, num_bins, n4);
  cudaDeviceSynchronize();
}
