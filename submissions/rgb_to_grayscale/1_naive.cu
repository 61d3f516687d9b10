// Rung 1: one thread per pixel. Pixel i's channels sit next to each other (interleaved R G B), at input[3i],
// input[3i + 1] and input[3i + 2]; the image is treated as one flat array of width * height pixels, so the layout
// of rows does not matter.
#include <cuda_runtime.h>

__global__ void rgb_to_grayscale_kernel(const float* input, float* output, int pixels) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pixels) {
    const float r = input[3 * i], g = input[3 * i + 1], b = input[3 * i + 2];
    output[i] = 0.299f * r + 0.587f * g + 0.114f * b;
  }
}

extern "C" void solve(const float* input, float* output, int width, int height) {
  const int pixels = width * height;
  const int threads = 256;
  const int blocks = (pixels + threads - 1) / threads;  // rounded up: one pixel still gets one block
  rgb_to_grayscale_kernel<<<blocks, threads>>>(input, output, pixels);
  cudaDeviceSynchronize();
}
