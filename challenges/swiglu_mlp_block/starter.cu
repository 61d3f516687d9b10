#include <cuda_runtime.h>

// x is M x d_model, W_gate and W_up are d_model x d_ffn, W_down is d_ffn x d_model, output is M x d_model, all
// row-major: element (r, c) of a matrix with C columns is at [r * C + c].
//
// A first version can take two steps: hidden[i][f] = silu(gate) * up, where gate = sum over k of x[i][k] * W_gate[k][f],
// up = sum over k of x[i][k] * W_up[k][f] and silu(z) = z / (1 + exp(-z)); then output[i][j] = sum over f of
// hidden[i][f] * W_down[f][j]. hidden needs a scratch buffer of M * d_ffn floats (cudaMalloc it in solve()).
__global__ void hidden_kernel(const float* x, const float* W_gate, const float* W_up, float* hidden, int M, int d_model,
                              int d_ffn) {
  // TODO: one thread per element of hidden (row blockIdx.y * blockDim.y + threadIdx.y,
  // column blockIdx.x * blockDim.x + threadIdx.x).
}

__global__ void down_kernel(const float* hidden, const float* W_down, float* output, int M, int d_model, int d_ffn) {
  // TODO: one thread per element of output.
}

// x, W_gate, W_up, W_down, output are device pointers. solve() must leave the finished result in output.
extern "C" void solve(const float* x, const float* W_gate, const float* W_up, const float* W_down, float* output, int M,
                      int d_model, int d_ffn) {
  float* hidden = nullptr;
  cudaMalloc(&hidden, sizeof(float) * (size_t)M * d_ffn);
  const dim3 threads_per_block(16, 16);  // x runs along the columns, y along the rows
  const dim3 hidden_blocks((d_ffn + 15) / 16, (M + 15) / 16);
  hidden_kernel<<<hidden_blocks, threads_per_block>>>(x, W_gate, W_up, hidden, M, d_model, d_ffn);
  const dim3 output_blocks((d_model + 15) / 16, (M + 15) / 16);
  down_kernel<<<output_blocks, threads_per_block>>>(hidden, W_down, output, M, d_model, d_ffn);
  cudaDeviceSynchronize();
  cudaFree(hidden);
}
