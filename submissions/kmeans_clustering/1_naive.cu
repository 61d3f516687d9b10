// Rung 1: each round is two plain kernels, a thread per point that finds its nearest centroid, then a thread per
// centroid that walks every point and averages those labelled with it. The update is O(sample_size * k) work in k
// threads: fine for LeetGPU's k = 5, slow when k is large.
#include <cuda_runtime.h>

__global__ void assign(const float* x, const float* y, const float* cx, const float* cy, int* labels, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float best = 3.4e38f;
  int label = 0;
  for (int j = 0; j < k; ++j) {
    float dx = x[i] - cx[j], dy = y[i] - cy[j];
    float d = dx * dx + dy * dy;
    if (d < best) {  // strict: the lowest index wins a tie
      best = d;
      label = j;
    }
  }
  labels[i] = label;
}

__global__ void update(const float* x, const float* y, const int* labels, float* cx, float* cy, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= k) return;
  float sx = 0.f, sy = 0.f;
  int count = 0;
  for (int i = 0; i < n; ++i)
    if (labels[i] == j) {
      sx += x[i];
      sy += y[i];
      ++count;
    }
  if (count > 0) {  // a centroid without points stays where it is
    cx[j] = sx / count;
    cy[j] = sy / count;
  }
}

// data_x, data_y, labels, initial_centroid_x, initial_centroid_y,
// final_centroid_x, final_centroid_y are device pointers
extern "C" void solve(const float* data_x, const float* data_y, int* labels,
                      float* initial_centroid_x, float* initial_centroid_y, float* final_centroid_x,
                      float* final_centroid_y, int sample_size, int k, int max_iterations) {
  cudaMemcpy(final_centroid_x, initial_centroid_x, sizeof(float) * k, cudaMemcpyDeviceToDevice);
  cudaMemcpy(final_centroid_y, initial_centroid_y, sizeof(float) * k, cudaMemcpyDeviceToDevice);
  for (int it = 0; it < max_iterations; ++it) {
    assign<<<(sample_size + 255) / 256, 256>>>(data_x, data_y, final_centroid_x, final_centroid_y, labels,
                                               sample_size, k);
    update<<<(k + 127) / 128, 128>>>(data_x, data_y, labels, final_centroid_x, final_centroid_y, sample_size, k);
  }
  cudaDeviceSynchronize();
}
