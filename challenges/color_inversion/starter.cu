#include <cuda_runtime.h>

// One thread per pixel: pixel i's bytes are image[4 * i] (R), image[4 * i + 1] (G), image[4 * i + 2] (B) and
// image[4 * i + 3] (A). Invert R, G and B (v -> 255 - v); leave A as it is.
__global__ void invert_kernel(unsigned char* image, int width, int height) {
  // TODO
}

// image points to GPU memory: it holds the image on entry and must hold the inverted image when solve() returns.
extern "C" void solve(unsigned char* image, int width, int height) {
  const int threads_per_block = 256;
  const int blocks = (width * height + threads_per_block - 1) / threads_per_block;
  invert_kernel<<<blocks, threads_per_block>>>(image, width, height);
  cudaDeviceSynchronize();
}
