// expect: wrong_answer
// expect-message: elements wrong
// Reads each pixel as a 32-bit word and XORs it with 0xFFFFFF00, as if R were the highest byte. On the GPU's
// little-endian words R is the lowest byte: this inverts G, B and A and leaves R alone. The right mask is 0x00FFFFFF.
#include <cuda_runtime.h>
__global__ void invert_words(unsigned* pixels, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) pixels[i] ^= 0xFFFFFF00u;
}
extern "C" void solve(unsigned char* image, int width, int height) {
  const int count = width * height;
  invert_words<<<(count + 255) / 256, 256>>>(reinterpret_cast<unsigned*>(image), count);
  cudaDeviceSynchronize();
}
