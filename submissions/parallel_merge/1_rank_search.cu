// Rung 1: every element finds its own place. A[i] lands at i + (the number of B elements smaller than it), B[j] at
// j + (the number of A elements smaller than or equal to it), each count found by binary search in the other array.
// The asymmetric tie rule (A's copy of a value before B's) is what gives equal values distinct slots.
#include <cuda_runtime.h>

// Number of elements of sorted x[0, n) that are < v (or_equal: <= v).
__device__ int rank_in(const float* x, int n, float v, bool or_equal) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (x[mid] < v || (or_equal && x[mid] == v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Threads [0, M) place A's elements, threads [M, M + N) place B's.
__global__ void place_kernel(const float* A, const float* B, float* C, int M, int N) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < M) {
    const float v = A[t];
    C[t + rank_in(B, N, v, false)] = v;
  } else if (t < M + N) {
    const int j = t - M;
    const float v = B[j];
    C[j + rank_in(A, M, v, true)] = v;
  }
}

// A, B, C are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const float* A, const float* B, float* C, int M, int N) {
  const int threads = 256;
  const int blocks = (M + N + threads - 1) / threads;
  place_kernel<<<blocks, threads>>>(A, B, C, M, N);
  cudaDeviceSynchronize();
}
