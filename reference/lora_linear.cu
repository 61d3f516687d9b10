// Reference for challenges/lora_linear: output (batch x d_out) = x W^T + lora_scale (x A^T) B^T, with x (batch x d_in),
// W (d_out x d_in), A (rank x d_in), B (d_out x rank), all row-major float32. Three cuBLAS SGEMMs in FP32
// (CUBLAS_DEFAULT_MATH, which for float data never uses TF32: that takes CUBLAS_TF32_TENSOR_OP_MATH), in the
// challenge's order: the hidden H = x A^T to scratch, output = x W^T, then output += lora_scale H B^T (beta = 1).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "lora_linear";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int batch = a.scalar<int>("batch");
  const int d_in = a.scalar<int>("d_in");
  const int d_out = a.scalar<int>("d_out");
  const int rank = a.scalar<int>("rank");
  const float lora_scale = a.scalar<float>("lora_scale");
  if (batch <= 0 || d_in <= 0 || d_out <= 0 || rank <= 0) return;
  static judge::ref::Scratch scratch(kId, "the hidden x A^T");
  float* H = scratch.get<float>(static_cast<std::size_t>(batch) * rank);
  const float* x = a.input<float>("x");
  float* out = a.output<float>("output");
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  // cuBLAS is column-major: a row-major R x C matrix read column-major is its C x R transpose, with leading dimension
  // C. So row-major P = U V^T (U: m x k, V: n x k, both row-major) is column-major P^T = V U^T: cuBLAS's
  // op(V^T stored) = OP_T on V (ld k) times U^T stored (OP_N, ld k), an n x m result with leading dimension n.
  const float one = 1.0f, zero = 0.0f;
  // H^T (rank x batch) = A x^T.
  judge::ref::check_cublas(cublasSgemm(cublas.handle(), CUBLAS_OP_T, CUBLAS_OP_N, rank, batch, d_in, &one,
                                       a.input<float>("A"), d_in, x, d_in, &zero, H, rank),
                           kId, "cublasSgemm(x A^T)");
  // output^T (d_out x batch) = W x^T.
  judge::ref::check_cublas(cublasSgemm(cublas.handle(), CUBLAS_OP_T, CUBLAS_OP_N, d_out, batch, d_in, &one,
                                       a.input<float>("W"), d_in, x, d_in, &zero, out, d_out),
                           kId, "cublasSgemm(x W^T)");
  // output^T += lora_scale B H^T.
  judge::ref::check_cublas(cublasSgemm(cublas.handle(), CUBLAS_OP_T, CUBLAS_OP_N, d_out, batch, rank, &lora_scale,
                                       a.input<float>("B"), rank, H, rank, &one, out, d_out),
                           kId, "cublasSgemm(H B^T)");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t batch = a.scalar<int>("batch");
  const std::int64_t d_in = a.scalar<int>("d_in");
  const std::int64_t d_out = a.scalar<int>("d_out");
  const std::int64_t rank = a.scalar<int>("rank");
  const double lora_scale = a.scalar<float>("lora_scale");
  const float* x = a.input<float>("x");
  const float* W = a.input<float>("W");
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  double* out = a.output("output");
  std::vector<double> h(static_cast<std::size_t>(rank));
  for (std::int64_t i = 0; i < batch; ++i) {
    const float* xi = x + i * d_in;
    for (std::int64_t r = 0; r < rank; ++r) {
      double acc = 0.0;
      for (std::int64_t k = 0; k < d_in; ++k) acc += double(xi[k]) * double(A[r * d_in + k]);
      h[r] = acc;
    }
    for (std::int64_t j = 0; j < d_out; ++j) {
      double base = 0.0, delta = 0.0;
      for (std::int64_t k = 0; k < d_in; ++k) base += double(xi[k]) * double(W[j * d_in + k]);
      for (std::int64_t r = 0; r < rank; ++r) delta += h[r] * double(B[j * rank + r]);
      out[i * d_out + j] = base + lora_scale * delta;
    }
  }
}

}  // namespace

JUDGE_REFERENCE(lora_linear, gpu, cpu)
