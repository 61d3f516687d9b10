// expect: wrong_answer
// expect-message: elements wrong
// Reads the image as three planes (all R, then all G, then all B) instead of interleaved R G B triples. For a single
// pixel the two layouts coincide, so 1x1 passes; example_2x2 does not (pixel 1 would read R = 255, G = 0, B = 50).
#include <cuda_runtime.h>
__global__ void gray(const float* input, float* output, int pixels) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pixels) output[i] = 0.299f * input[i] + 0.587f * input[pixels + i] + 0.114f * input[2 * pixels + i];
}
extern "C" void solve(const float* input, float* output, int width, int height) {
  const int pixels = width * height;
  gray<<<(pixels + 255) / 256, 256>>>(input, output, pixels);
  cudaDeviceSynchronize();
}
