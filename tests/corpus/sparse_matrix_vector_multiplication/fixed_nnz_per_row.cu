// expect: wrong_answer
// expect-message: elements wrong
// Builds a compressed (ELL-style) copy of A, assuming the non-zeros are spread evenly: every row gets room for
// ceil(nnz / M) entries and whatever does not fit is dropped. The non-zeros are placed at random, so row lengths vary
// (on mostly_empty_rows_100x50, 20 non-zeros in 100 rows, a row with two loses one); SpMV must not assume any
// number of non-zeros per row.
#include <cuda_runtime.h>

__global__ void compress(const float* A, int M, int N, int width, float* vals, int* cols) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M) return;
  int count = 0;
  for (int j = 0; j < N && count < width; ++j) {  // stops when the row's "share" is full
    const float a = A[(size_t)i * N + j];
    if (a != 0.0f) {
      vals[(size_t)i * width + count] = a;
      cols[(size_t)i * width + count] = j;
      ++count;
    }
  }
  for (; count < width; ++count) vals[(size_t)i * width + count] = 0.0f, cols[(size_t)i * width + count] = 0;
}

__global__ void multiply(const float* vals, const int* cols, const float* x, float* y, int M, int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M) return;
  float acc = 0.0f;
  for (int e = 0; e < width; ++e) acc += vals[(size_t)i * width + e] * x[cols[(size_t)i * width + e]];
  y[i] = acc;
}

extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  const int width = nnz > 0 ? (nnz + M - 1) / M : 1;
  float* vals = nullptr;
  int* cols = nullptr;
  cudaMalloc(&vals, sizeof(float) * (size_t)M * width);
  cudaMalloc(&cols, sizeof(int) * (size_t)M * width);
  compress<<<(M + 255) / 256, 256>>>(A, M, N, width, vals, cols);
  multiply<<<(M + 255) / 256, 256>>>(vals, cols, x, y, M, width);
  cudaFree(vals);
  cudaFree(cols);
}
