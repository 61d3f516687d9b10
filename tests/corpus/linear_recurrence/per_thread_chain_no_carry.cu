// expect: wrong_answer
// expect-message: elements wrong
// Each thread runs the recurrence over its own 64 consecutive elements of a row, starting from h = 0 as if its piece
// were a row of its own: the carry from the pieces before is never applied. Rows of at most 64 elements come out
// right, so the example and the 33-element tests pass; from 5x257 on, the first elements of every piece after a
// row's first lack a[t] * h[t-1] (about 0.5 on average) and fail.
#include <cuda_runtime.h>

#define PIECE 64

__global__ void pieces(const float* a, const float* x, float* h, int B, int L) {
  const int pieces_per_row = (L + PIECE - 1) / PIECE;
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (long long)B * pieces_per_row) return;
  const long long row = i / pieces_per_row * L;
  const int begin = (int)(i % pieces_per_row) * PIECE, end = min(L, begin + PIECE);
  float v = 0.0f;  // the mistake: should be h[begin - 1], which another thread computes
  for (int t = begin; t < end; ++t) {
    v = a[row + t] * v + x[row + t];
    h[row + t] = v;
  }
}

extern "C" void solve(const float* a, const float* x, float* h, int B, int L) {
  const long long n = (long long)B * ((L + PIECE - 1) / PIECE);
  pieces<<<(unsigned)((n + 255) / 256), 256>>>(a, x, h, B, L);
  cudaDeviceSynchronize();
}
