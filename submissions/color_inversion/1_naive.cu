// Rung 1: one thread per pixel. Pixel i occupies bytes 4i (R), 4i + 1 (G), 4i + 2 (B) and 4i + 3 (A); the thread
// inverts the first three and leaves alpha alone. The image is treated as one flat array of width * height pixels,
// so the row layout does not matter.
#include <cuda_runtime.h>

__global__ void invert_kernel(unsigned char* image, int pixels) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pixels) {
    image[4 * i] = 255 - image[4 * i];
    image[4 * i + 1] = 255 - image[4 * i + 1];
    image[4 * i + 2] = 255 - image[4 * i + 2];
  }
}

extern "C" void solve(unsigned char* image, int width, int height) {
  const int pixels = width * height;
  const int threads = 256;
  const int blocks = (pixels + threads - 1) / threads;  // rounded up: one pixel still gets one block
  invert_kernel<<<blocks, threads>>>(image, pixels);
  cudaDeviceSynchronize();
}
