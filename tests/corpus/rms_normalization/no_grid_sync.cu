// expect: wrong_answer
// expect-message: elements wrong
// One kernel does both steps: each block adds its squares to the global total with atomicAdd, then at once scales its
// own elements by the total as it stands. Nothing makes a block wait for the others (blocks of one kernel cannot wait
// for each other), so blocks read a total that is still missing the parts of blocks that have not added theirs yet;
// the rms comes out too small and the outputs too large. With one block (N <= 256) it happens to work. With more, a
// total missing even one block's part is far outside the tolerance: test n100000 (391 blocks) fails as soon as any
// block reads the total before the last block has added its part. The fix is a second kernel launch (or a
// cooperative grid sync) between the sum and the scaling.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__global__ void rms_norm_kernel(const float* input, float gamma, float beta, float* output, int N, float eps,
                                float* sum_squares) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < N ? input[i] * input[i] : 0.0f;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum_squares, partial[0]);
  __syncthreads();  // waits for this block only, not for the grid
  if (i < N) output[i] = gamma * input[i] / sqrtf(atomicAdd(sum_squares, 0.0f) / N + eps) + beta;
}

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  float* sum_squares = nullptr;
  cudaMalloc(&sum_squares, sizeof(float));
  cudaMemset(sum_squares, 0, sizeof(float));
  rms_norm_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(input, gamma, beta, output, N, eps, sum_squares);
  cudaDeviceSynchronize();
  cudaFree(sum_squares);
}
