// expect: wrong_answer
// expect-message: never written
// Every element places itself at (its index) + (the number of smaller elements in the other array), with the same
// rule, lower_bound, for both arrays. Correct while no value occurs in both arrays; when one does, the first copies of
// that value in A and in B compute the same slot and one overwrites the other, and the last slot of the run of equal
// values is never written (ties_9_7, dup_heavy_100003, all_equal). B must count A's equal elements (upper_bound).
#include <cuda_runtime.h>

__device__ int lower_bound(const float* x, int n, float v) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (x[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

__global__ void place_kernel(const float* A, const float* B, float* C, int M, int N) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < M) C[t + lower_bound(B, N, A[t])] = A[t];
  else if (t < M + N) C[(t - M) + lower_bound(A, M, B[t - M])] = B[t - M];  // BUG: ties collide with A's copies
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N) {
  const int threads = 256;
  place_kernel<<<(M + N + threads - 1) / threads, threads>>>(A, B, C, M, N);
  cudaDeviceSynchronize();
}
