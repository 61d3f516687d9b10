// Reference for challenges/swiglu_mlp_block: output (M x d_model) = (silu(x W_gate) * (x W_up)) W_down, with x
// (M x d_model), W_gate and W_up (d_model x d_ffn), W_down (d_ffn x d_model), all row-major float32.
//
// Three cuBLAS SGEMMs in strict FP32 (CUBLAS_PEDANTIC_MATH: no TF32 tensor-core path, which the tolerance would not
// admit at every promised input) around one element-wise kernel: gate = x W_gate and up = x W_up into scratch, hidden =
// silu(gate) * up written over gate (silu in float with the accurate expf and IEEE division, as the swiglu reference:
// a few ulp, far inside the tolerance), then output = hidden W_down. Rows are processed in chunks so that the scratch
// (gate and up, 2 * rows * d_ffn floats) stays within 256 MiB whatever M and d_ffn are; LeetGPU's sizes take one chunk.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "swiglu_mlp_block";
constexpr std::int64_t kScratchFloats = std::int64_t(1) << 26;  // 256 MiB for gate and up together

// gate[i] = silu(gate[i]) * up[i], in place. Not __restrict__: gate is read and written.
__global__ void swiglu_kernel(float* gate, const float* up, std::int64_t n) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const float g = gate[i];
    gate[i] = g / (1.0f + expf(-g)) * up[i];  // g very negative: expf overflows to inf and g / inf = -0, as it should
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int D = a.scalar<int>("d_model");
  const int F = a.scalar<int>("d_ffn");
  if (M <= 0 || D <= 0 || F <= 0) return;
  const float* x = a.input<float>("x");
  const float* Wg = a.input<float>("W_gate");
  const float* Wu = a.input<float>("W_up");
  const float* Wd = a.input<float>("W_down");
  float* out = a.output<float>("output");
  std::int64_t rows = kScratchFloats / (2 * std::int64_t(F));
  if (rows < 1) rows = 1;
  if (rows > M) rows = M;
  static judge::ref::Scratch scratch(kId, "the gate and up projections");
  float* gate = scratch.get<float>(static_cast<std::size_t>(2 * rows * F));
  float* up = gate + rows * F;
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_PEDANTIC_MATH, kId);
  const float one = 1.0f, zero = 0.0f;
  for (std::int64_t r0 = 0; r0 < M; r0 += rows) {
    const int R = static_cast<int>(M - r0 < rows ? M - r0 : rows);
    const float* xc = x + r0 * D;
    // cuBLAS is column-major: row-major P (R x C) = U (R x K) V (K x C) is column-major P^T = V^T U^T, i.e.
    // cublasSgemm(N, N, C, R, K, V, ld C, U, ld K, P, ld C).
    judge::ref::check_cublas(cublasSgemm(cublas.handle(), CUBLAS_OP_N, CUBLAS_OP_N, F, R, D, &one, Wg, F, xc, D, &zero,
                                         gate, F),
                             kId, "cublasSgemm(x W_gate)");
    judge::ref::check_cublas(cublasSgemm(cublas.handle(), CUBLAS_OP_N, CUBLAS_OP_N, F, R, D, &one, Wu, F, xc, D, &zero,
                                         up, F),
                             kId, "cublasSgemm(x W_up)");
    const std::int64_t n = std::int64_t(R) * F;
    swiglu_kernel<<<judge::ref::grid_for(n), judge::ref::kBlock, 0, s>>>(gate, up, n);
    judge::ref::check_launch(kId, "swiglu_kernel");
    judge::ref::check_cublas(cublasSgemm(cublas.handle(), CUBLAS_OP_N, CUBLAS_OP_N, D, R, F, &one, Wd, D, gate, F, &zero,
                                         out + r0 * D, D),
                             kId, "cublasSgemm(hidden W_down)");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t D = a.scalar<int>("d_model");
  const std::int64_t F = a.scalar<int>("d_ffn");
  const float* x = a.input<float>("x");
  const float* Wg = a.input<float>("W_gate");
  const float* Wu = a.input<float>("W_up");
  const float* Wd = a.input<float>("W_down");
  double* out = a.output("output");
  std::vector<double> g(static_cast<std::size_t>(F)), u(static_cast<std::size_t>(F));
  for (std::int64_t i = 0; i < M; ++i) {
    const float* xi = x + i * D;
    for (std::int64_t f = 0; f < F; ++f) g[f] = u[f] = 0.0;
    for (std::int64_t k = 0; k < D; ++k) {  // row by row through the weights, so the inner loop is contiguous
      const double xk = xi[k];
      const float* wg = Wg + k * F;
      const float* wu = Wu + k * F;
      for (std::int64_t f = 0; f < F; ++f) {
        g[f] += xk * double(wg[f]);
        u[f] += xk * double(wu[f]);
      }
    }
    for (std::int64_t f = 0; f < F; ++f) g[f] = g[f] / (1.0 + std::exp(-g[f])) * u[f];  // the hidden row
    double* o = out + i * D;
    for (std::int64_t j = 0; j < D; ++j) o[j] = 0.0;
    for (std::int64_t f = 0; f < F; ++f) {
      const double h = g[f];
      const float* wd = Wd + f * D;
      for (std::int64_t j = 0; j < D; ++j) o[j] += h * double(wd[j]);
    }
  }
}

}  // namespace

JUDGE_REFERENCE(swiglu_mlp_block, gpu, cpu)
