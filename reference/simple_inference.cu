// Reference for challenges/simple_inference: output (batch x out) = input (batch x in) W^T + bias, W stored
// [out, in] as torch.nn.Linear keeps it, all row-major float32. The bias is broadcast into output first, then cuBLAS
// SGEMM in strict FP32 (CUBLAS_PEDANTIC_MATH: no TF32, which would be far outside the 1e-5 tolerance) adds the
// product with beta = 1.
#include <algorithm>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"

namespace {

constexpr const char* kId = "simple_inference";
constexpr int kBlock = judge::ref::kBlock;

// output[r][j] = bias[j] for every row r.
__global__ void broadcast_bias(const float* __restrict__ bias, float* __restrict__ output, int rows, int cols) {
  const std::int64_t total = std::int64_t(rows) * cols;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x)
    output[i] = bias[i % cols];
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int batch = a.scalar<int>("batch_size");
  const int in = a.scalar<int>("input_size");
  const int out = a.scalar<int>("output_size");
  if (batch <= 0 || out <= 0) return;
  float* output = a.output<float>("output");
  const std::int64_t total = std::int64_t(batch) * out;
  const int blocks = int(std::min<std::int64_t>((total + kBlock - 1) / kBlock, 4096));
  broadcast_bias<<<blocks, kBlock, 0, s>>>(a.input<float>("bias"), output, batch, out);
  judge::ref::check_launch(kId, "broadcast_bias");
  if (in <= 0) return;
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_PEDANTIC_MATH, kId);
  // cuBLAS is column-major: the row-major output (batch x out) is the column-major out x batch matrix output^T =
  // W input^T. Row-major W (out x in) read column-major is the in x out matrix W^T, so it enters transposed (lda = in);
  // row-major input (batch x in) read column-major is input^T (in x batch, ldb = in), as needed.
  const float alpha = 1.0f, beta = 1.0f;
  judge::ref::check_cublas(cublasSgemm(cublas.handle(), CUBLAS_OP_T, CUBLAS_OP_N, out, batch, in, &alpha,
                                       a.input<float>("weight"), in, a.input<float>("input"), in, &beta, output,
                                       out),
                           kId, "cublasSgemm");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t batch = a.scalar<int>("batch_size");
  const std::int64_t in = a.scalar<int>("input_size");
  const std::int64_t out = a.scalar<int>("output_size");
  const float* x = a.input<float>("input");
  const float* w = a.input<float>("weight");
  const float* b = a.input<float>("bias");
  double* y = a.output("output");
  for (std::int64_t r = 0; r < batch; ++r)
    for (std::int64_t j = 0; j < out; ++j) {
      double acc = b[j];
      for (std::int64_t k = 0; k < in; ++k) acc += double(x[r * in + k]) * double(w[j * in + k]);
      y[r * out + j] = acc;
    }
}

}  // namespace

JUDGE_REFERENCE(simple_inference, gpu, cpu)
