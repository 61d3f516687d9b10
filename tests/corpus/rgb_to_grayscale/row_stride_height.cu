// expect: wrong_answer
// expect-message: never written
// judge-args: --case odd_33x31 --case wide_4096x3
// A 2D grid with the right bounds (x < width, y < height) but the wrong row stride: pixel (x, y) is taken to be
// y * height + x instead of y * width + x. Square images (and a single row) come out right. Where width > height,
// as in the two cases named above, rows overlap and the last width * height - ((height - 1) * height + width)
// pixels are never written; every index stays inside the buffers, so the verdict is a wrong answer, not a memory
// violation. (Where height > width the stray indices run past the end: the column case catches that.)
#include <cuda_runtime.h>
__global__ void gray(const float* input, float* output, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    const int i = y * height + x;  // should be y * width + x
    output[i] = 0.299f * input[3 * i] + 0.587f * input[3 * i + 1] + 0.114f * input[3 * i + 2];
  }
}
extern "C" void solve(const float* input, float* output, int width, int height) {
  const dim3 block(16, 16);
  const dim3 grid((width + 15) / 16, (height + 15) / 16);
  gray<<<grid, block>>>(input, output, width, height);
  cudaDeviceSynchronize();
}
