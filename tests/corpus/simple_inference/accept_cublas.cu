// expect: accepted
// cublasSgemm in the default math mode (FP32, no TF32) with the row-major trick: row-major output (batch x out) is
// column-major output^T = W input^T, and row-major W [out, in] read column-major is W^T, so W enters with
// CUBLAS_OP_T. A second kernel adds the bias. Calling a vendor library is allowed and must be accepted.
#include <cublas_v2.h>
#include <cuda_runtime.h>

__global__ void add_bias(const float* bias, float* output, int rows, int cols) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < (long long)rows * cols) output[i] += bias[i % cols];
}

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int batch_size,
                      int input_size, int output_size) {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    cublasCreate(&h);
    return h;
  }();
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, output_size, batch_size, input_size, &one, weight, input_size, input,
              input_size, &zero, output, output_size);
  const long long total = (long long)batch_size * output_size;
  add_bias<<<(unsigned)((total + 255) / 256), 256>>>(bias, output, batch_size, output_size);
  cudaDeviceSynchronize();
}
