// expect: runtime_error
// expect-message: cudaErrorMisalignedAddress
// Reads the range as int4 vectors starting at input + S without checking its alignment. input itself is 16-byte
// aligned, but input + S is only when S % 4 == 0: every test before block_257 has S % 4 == 0 or fewer than 4
// elements (no vectors), block_257 has S = 21, and the misaligned 16-byte load is a CUDA error.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void range_sum4(const int* input, int* output, int S, int count) {
  __shared__ int partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  const int n4 = count / 4;
  int sum = 0;
  if (i < n4) {
    const int4 v = reinterpret_cast<const int4*>(input + S)[i];
    sum = v.x + v.y + v.z + v.w;
  }
  if (i < count - 4 * n4) sum += input[S + 4 * n4 + i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int S, int E) {
  const int count = E - S + 1;
  const int work = count / 4 > 0 ? count / 4 : 1;
  cudaMemset(output, 0, sizeof(int));
  range_sum4<<<(work + THREADS - 1) / THREADS, THREADS>>>(input, output, S, count);
  cudaDeviceSynchronize();
}
