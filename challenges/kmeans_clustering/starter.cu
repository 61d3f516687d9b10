#include <cuda_runtime.h>

// One round of Lloyd's algorithm: label each point with its nearest centroid (squared distance, lowest index on a
// tie), then move each centroid to the mean of its points (a centroid with no points stays put). Run max_iterations
// rounds starting from the initial centroids; labels are those of the last round.
__global__ void assign_kernel(const float* data_x, const float* data_y, const float* centroid_x,
                              const float* centroid_y, int* labels, int sample_size, int k) {
  // TODO
}

// data_x, data_y, labels, initial_centroid_x, initial_centroid_y,
// final_centroid_x, final_centroid_y are device pointers
extern "C" void solve(const float* data_x, const float* data_y, int* labels,
                      float* initial_centroid_x, float* initial_centroid_y, float* final_centroid_x,
                      float* final_centroid_y, int sample_size, int k, int max_iterations) {
  // TODO: copy the initial centroids into final_centroid_x/y, then for each round assign and update
}
