// expect: wrong_answer
// expect-message: elements wrong
// Inverts all four bytes of every pixel, alpha included: the most common slip in this problem. Every A byte comes out
// as 255 - A; 1x1 already shows it (alpha 128 becomes 127).
#include <cuda_runtime.h>
__global__ void invert_all(unsigned char* image, int bytes) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < bytes) image[i] = 255 - image[i];
}
extern "C" void solve(unsigned char* image, int width, int height) {
  const int bytes = 4 * width * height;
  invert_all<<<(bytes + 255) / 256, 256>>>(image, bytes);
  cudaDeviceSynchronize();
}
