// expect: wrong_answer
// expect-message: NaN
// Sums each block's products in float, converts the block's total to half and adds it to result with atomicAdd, but
// never sets result to 0 first, so the first atomicAdd adds to whatever the output held on entry. The judge fills
// outputs with a NaN pattern before each call: NaN + anything is NaN, and NaN never passes where the reference is
// finite (n1, the first test, already fails). LeetGPU hands this output over uninitialised in its functional tests,
// so a kernel has to zero it there too.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void dot_blocks(const half* A, const half* B, half* result, int N) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < N ? __half2float(A[i]) * __half2float(B[i]) : 0.0f;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, __float2half(partial[0]));
}

extern "C" void solve(const half* A, const half* B, half* result, int N) {
  // missing: cudaMemset(result, 0, sizeof(half));
  dot_blocks<<<(N + THREADS - 1) / THREADS, THREADS>>>(A, B, result, N);
  cudaDeviceSynchronize();
}
