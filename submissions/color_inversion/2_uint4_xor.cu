// Rung 2: four pixels (16 bytes, one uint4) per thread per step, inverted with one XOR per pixel.
// Changed since rung 1: rung 1 made three 1-byte loads and three 1-byte stores per pixel; here one 16-byte load and
// one 16-byte store cover four pixels. 255 - v equals v ^ 0xFF for a byte, and a pixel read as a little-endian
// 32-bit word is A<<24 | B<<16 | G<<8 | R, so word ^ 0x00FFFFFF inverts R, G and B and keeps A. A grid-stride loop
// with a few waves of blocks; the last pixels % 4 go one 32-bit word at a time.
#include <cstdint>

#include <cuda_runtime.h>

#define RGB_MASK 0x00FFFFFFu

__global__ void invert_quads(unsigned* pixels, int count, bool vec4) {
  const int stride = gridDim.x * blockDim.x;
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int done = 0;
  if (vec4) {
    const int quads = count / 4;
    uint4* v = reinterpret_cast<uint4*>(pixels);
    for (int q = tid; q < quads; q += stride) {
      const uint4 p = v[q];
      v[q] = make_uint4(p.x ^ RGB_MASK, p.y ^ RGB_MASK, p.z ^ RGB_MASK, p.w ^ RGB_MASK);
    }
    done = 4 * quads;
  }
  for (int i = done + tid; i < count; i += stride) pixels[i] ^= RGB_MASK;
}

extern "C" void solve(unsigned char* image, int width, int height) {
  const int count = width * height;
  const bool vec4 = reinterpret_cast<std::uintptr_t>(image) % 16 == 0;  // cudaMalloc'ed buffers always are
  const int threads = 256;
  const int work = vec4 ? (count + 3) / 4 : count;
  int blocks = (work + threads - 1) / threads;
  if (blocks > 132 * 16) blocks = 132 * 16;  // a few waves of an H100/H200 are plenty for a grid-stride loop
  invert_quads<<<blocks, threads>>>(reinterpret_cast<unsigned*>(image), count, vec4);
  cudaDeviceSynchronize();
}
