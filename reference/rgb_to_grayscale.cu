// Reference for challenges/rgb_to_grayscale: output[p] = 0.299 R + 0.587 G + 0.114 B for each pixel p of an
// interleaved RGB image. The weighted sum is taken in double and rounded once, so the reference is the exact value
// within float rounding (three double operations per pixel cost nothing next to the 16 bytes moved). Each thread
// converts 4 pixels per step: three 16-byte loads of the 12 channels and one 16-byte store, in a grid-stride loop,
// where the pointers allow; the last pixels % 4 (or all of them, if unaligned) go one at a time.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "rgb_to_grayscale";

__device__ __forceinline__ float gray(float r, float g, float b) {
  return static_cast<float>(0.299 * double(r) + 0.587 * double(g) + 0.114 * double(b));
}

__global__ void gray_kernel(const float* __restrict__ rgb, float* __restrict__ out, std::int64_t pixels, bool vec4) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t tid = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  std::int64_t done = 0;
  if (vec4) {
    const std::int64_t quads = pixels / 4;
    for (std::int64_t q = tid; q < quads; q += stride) {
      const float4* in = reinterpret_cast<const float4*>(rgb) + 3 * q;
      const float4 a = in[0];  // R0 G0 B0 R1
      const float4 b = in[1];  // G1 B1 R2 G2
      const float4 c = in[2];  // B2 R3 G3 B3
      reinterpret_cast<float4*>(out)[q] =
          make_float4(gray(a.x, a.y, a.z), gray(a.w, b.x, b.y), gray(b.z, b.w, c.x), gray(c.y, c.z, c.w));
    }
    done = 4 * quads;
  }
  for (std::int64_t p = done + tid; p < pixels; p += stride) out[p] = gray(rgb[3 * p], rgb[3 * p + 1], rgb[3 * p + 2]);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t pixels = std::int64_t(a.scalar<int>("width")) * a.scalar<int>("height");
  if (pixels <= 0) return;
  const float* rgb = a.input<float>("input");
  float* out = a.output<float>("output");
  const bool vec4 = judge::ref::aligned16(rgb, out);
  const unsigned blocks = judge::ref::grid_for(vec4 ? (pixels + 3) / 4 : pixels);
  gray_kernel<<<blocks, judge::ref::kBlock, 0, s>>>(rgb, out, pixels, vec4);
  judge::ref::check_launch(kId, "gray_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t pixels = std::int64_t(a.scalar<int>("width")) * a.scalar<int>("height");
  const float* rgb = a.input<float>("input");
  double* out = a.output("output");
  for (std::int64_t p = 0; p < pixels; ++p)
    out[p] = 0.299 * double(rgb[3 * p]) + 0.587 * double(rgb[3 * p + 1]) + 0.114 * double(rgb[3 * p + 2]);
}

}  // namespace

JUDGE_REFERENCE(rgb_to_grayscale, gpu, cpu)
