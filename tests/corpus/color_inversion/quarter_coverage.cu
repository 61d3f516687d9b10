// expect: wrong_answer
// expect-message: elements wrong
// A grid of one thread per pixel (width * height threads, as in the starter) with a kernel written for one thread per
// byte: thread i inverts byte i unless it is an alpha byte. Only the first quarter of the image is visited; the rest
// comes back unchanged. 1x1 (one thread, three colour bytes missed) already fails.
#include <cuda_runtime.h>
__global__ void invert_bytes(unsigned char* image, int width, int height) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < width * height && i % 4 != 3) image[i] = 255 - image[i];
}
extern "C" void solve(unsigned char* image, int width, int height) {
  const int pixels = width * height;
  invert_bytes<<<(pixels + 255) / 256, 256>>>(image, width, height);
  cudaDeviceSynchronize();
}
