// expect: wrong_answer
// "cuBLAS, but faster": exponentiation by squaring with cublasSgemm in CUBLAS_TF32_TENSOR_OP_MATH, which lets cuBLAS
// round the float inputs of every product to TF32 (10 explicit mantissa bits) on the tensor cores. Each product is
// then off by about 3e-4 of the norm, three times the tolerance (||out - ref|| <= 1e-4 ||ref||) already at one
// product of 256 x 256 matrices, and more after several (about 1e-3 at N = 200, P = 19): `wrong_answer`. Using a
// library is allowed; throwing 13 bits of every input away is not.
#include <cublas_v2.h>
#include <cuda_runtime.h>

extern "C" void solve(const float* input, float* output, int N, int P) {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    cublasCreate(&h);
    cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
    return h;
  }();
  const size_t count = (size_t)N * N, bytes = count * sizeof(float);
  float* buf = nullptr;
  cudaMalloc(&buf, 3 * bytes);
  const float one = 1.0f, zero = 0.0f;
  const float* base = input;
  const float* result = nullptr;
  auto free_slot = [&]() {
    for (int k = 0; k < 3; ++k)
      if (buf + k * count != base && buf + k * count != result) return buf + k * count;
    return buf;
  };
  // Row-major C = X Y is column-major C^T = Y^T X^T.
  auto multiply = [&](const float* X, const float* Y, float* C) {
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, Y, N, X, N, &zero, C, N);
  };
  for (int e = P; e > 0;) {
    if (e & 1) {
      if (!result) {
        result = base;
      } else {
        float* c = free_slot();
        multiply(result, base, c);
        result = c;
      }
    }
    e >>= 1;
    if (e) {
      float* c = free_slot();
      multiply(base, base, c);
      base = c;
    }
  }
  cudaMemcpy(output, result, bytes, cudaMemcpyDeviceToDevice);
  cudaFree(buf);
}
