// The kernel of submissions/vector_add/1_naive.cu, launched on a cudaStreamNonBlocking stream and left running
// when solve() returns. CUDA events recorded on the legacy default stream do not wait for such a stream, so an
// events-based judge would time almost nothing; the judge must report the kernel's true duration.
#include <cuda_runtime.h>

__global__ void vector_add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static cudaStream_t side = [] {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  vector_add<<<(N + 255) / 256, 256, 0, side>>>(A, B, C, N);
}
