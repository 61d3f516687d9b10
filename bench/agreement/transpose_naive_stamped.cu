// submissions/matrix_transpose/1_naive.cu with the kernel's own clock: every block stamps %globaltimer at its start
// and end, and for the first 40 calls at 8192x8192 solve() prints the span from the first start to the last end.
// Run as a submission under ncu, it compares launches ncu profiles with those it does not, in one process and one
// placement of the buffers (bench/agreement/run.sh; docs/measurement.md). The copy of the stamps is inside solve(),
// so the judge's own time for this file is not the kernel's: only the printed spans mean anything.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__global__ void transpose_naive(const float* input, float* output, int rows, int cols, unsigned long long* stamps) {
  const int block = blockIdx.y * gridDim.x + blockIdx.x, blocks = gridDim.x * gridDim.y;
  if (threadIdx.x == 0 && threadIdx.y == 0) stamps[block] = global_ns();
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) output[c * rows + r] = input[r * cols + c];
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) stamps[blocks + block] = global_ns();
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  static unsigned long long* stamps = nullptr;
  static std::size_t capacity = 0;
  static int calls = 0;
  const dim3 threads(32, 8);
  const dim3 grid((cols + threads.x - 1) / threads.x, (rows + threads.y - 1) / threads.y);
  const std::size_t blocks = std::size_t(grid.x) * grid.y;
  if (blocks > capacity) {
    cudaFree(stamps);
    cudaMalloc(&stamps, 2 * blocks * sizeof(unsigned long long));
    capacity = blocks;
  }
  transpose_naive<<<grid, threads>>>(input, output, rows, cols, stamps);
  cudaDeviceSynchronize();
  if (rows == 8192 && cols == 8192 && calls < 40) {
    std::vector<unsigned long long> h(2 * blocks);
    cudaMemcpy(h.data(), stamps, h.size() * sizeof(h[0]), cudaMemcpyDeviceToHost);
    unsigned long long first = *std::min_element(h.begin(), h.begin() + blocks);
    unsigned long long last = *std::max_element(h.begin() + blocks, h.end());
    std::printf("call %d in-kernel %.1f us\n", calls++, (last - first) * 1e-3);
  }
}
