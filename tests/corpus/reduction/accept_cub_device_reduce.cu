// expect: accepted
// judge-command: submit
// The library way: cub::DeviceReduce::Sum, asked first how much temporary storage it needs, which is cudaMalloc'ed
// and freed inside every call. CUB's own kernels, its temporary allocation and the implicit synchronisation of
// cudaFree are all legitimate: nothing leaks, nothing runs after solve() returns, and the judge must accept it.
#include <cuda_runtime.h>

#include <cub/device/device_reduce.cuh>

extern "C" void solve(const float* input, float* output, int N) {
  void* temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, input, output, N);  // size query only
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceReduce::Sum(temp, temp_bytes, input, output, N);
  cudaFree(temp);
}
