#include <cuda_runtime.h>

// x is batch x d_in, W is d_out x d_in, A is rank x d_in, B is d_out x rank, output is batch x d_out, all row-major:
// element (r, c) of a matrix with C columns is at [r * C + c].
__global__ void lora_linear_kernel(const float* x, const float* W, const float* A, const float* B, float* output,
                                   int batch, int d_in, int d_out, int rank, float lora_scale) {
  // TODO: for this thread's (row, col), output[row * d_out + col] =
  //   sum over k of x[row][k] * W[col][k]  +  lora_scale * sum over r of (sum over k of x[row][k] * A[r][k]) * B[col][r]
}

// x, W, A, B, output are device pointers. solve() must leave the finished result in output.
extern "C" void solve(const float* x, const float* W, const float* A, const float* B, float* output,
                      int batch, int d_in, int d_out, int rank, float lora_scale) {
  const dim3 threads_per_block(16, 16);  // x runs along the columns of output, y along its rows
  const dim3 blocks((d_out + threads_per_block.x - 1) / threads_per_block.x,
                    (batch + threads_per_block.y - 1) / threads_per_block.y);
  lora_linear_kernel<<<blocks, threads_per_block>>>(x, W, A, B, output, batch, d_in, d_out, rank, lora_scale);
  cudaDeviceSynchronize();
}
