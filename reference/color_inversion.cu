// Reference for challenges/color_inversion: R, G and B of every RGBA pixel become 255 - v in place, A is kept.
// Integer work, so exact. 255 - v is v ^ 0xFF, and a pixel read as a little-endian 32-bit word holds R in its lowest
// byte, so a pixel is inverted by word ^ 0x00FFFFFF. Each thread inverts 4 pixels (one 16-byte uint4) per step of a
// grid-stride loop where the buffer is 16-byte aligned; the last pixels % 4 (or all of them, if it is not) go one
// 32-bit word at a time.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "color_inversion";
constexpr unsigned kRgbMask = 0x00FFFFFFu;

__global__ void invert_kernel(unsigned* __restrict__ pixels, std::int64_t count, bool vec4) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t tid = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  std::int64_t done = 0;
  if (vec4) {
    const std::int64_t quads = count / 4;
    uint4* v = reinterpret_cast<uint4*>(pixels);
    for (std::int64_t q = tid; q < quads; q += stride) {
      const uint4 p = v[q];
      v[q] = make_uint4(p.x ^ kRgbMask, p.y ^ kRgbMask, p.z ^ kRgbMask, p.w ^ kRgbMask);
    }
    done = 4 * quads;
  }
  for (std::int64_t i = done + tid; i < count; i += stride) pixels[i] ^= kRgbMask;
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t count = std::int64_t(a.scalar<int>("width")) * a.scalar<int>("height");
  if (count <= 0) return;
  unsigned char* image = a.output<unsigned char>("image");  // the in-out buffer, holding the generated input
  // The judge's buffers start 256-byte aligned (like cudaMalloc's), so 32-bit words are always safe; the 16-byte
  // path is still checked, not assumed.
  const bool vec4 = judge::ref::aligned16(image);
  const unsigned blocks = judge::ref::grid_for(vec4 ? (count + 3) / 4 : count);
  invert_kernel<<<blocks, judge::ref::kBlock, 0, s>>>(reinterpret_cast<unsigned*>(image), count, vec4);
  judge::ref::check_launch(kId, "invert_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t bytes = 4 * std::int64_t(a.scalar<int>("width")) * a.scalar<int>("height");
  const unsigned char* x = a.input<unsigned char>("image");  // the original input
  double* y = a.output("image");
  for (std::int64_t i = 0; i < bytes; ++i) y[i] = i % 4 == 3 ? x[i] : 255 - x[i];
}

}  // namespace

JUDGE_REFERENCE(color_inversion, gpu, cpu)
