// Reference for challenges/matrix_power: output = A^P for a row-major float32 N x N matrix A, 1 <= P <= 20.
// Exponentiation by squaring (right to left over the bits of P: square the base at every bit, multiply it into the
// result where the bit is set), each product one cuBLAS SGEMM in FP32 (CUBLAS_DEFAULT_MATH, which for float data
// never uses TF32). That is floor(log2 P) + popcount(P) - 1 products, the count the spec's flops expression charges.
// The CPU reference does the same schedule in double precision.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "matrix_power";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int N = a.scalar<int>("N");
  const int P = a.scalar<int>("P");
  if (N <= 0 || P <= 0) return;
  const auto nn = static_cast<std::size_t>(N) * static_cast<std::size_t>(N);
  const float* input = a.input<float>("input");
  float* out = a.output<float>("output");
  // Four N x N slots: the squared base and the running result each occupy one, a product needs a third that is
  // neither of its operands; the fourth keeps the choice simple. The finished result is copied to `output` at the
  // end, so `output` is never an operand of a product that writes it.
  static judge::ref::Scratch scratch(kId, "the squared powers and partial products");
  float* slots = scratch.get<float>(4 * nn);
  const float* base = input;
  const float* result = nullptr;
  auto free_slot = [&]() {
    for (int k = 0; k < 4; ++k) {
      float* p = slots + k * nn;
      if (p != base && p != result) return p;
    }
    return slots;  // unreachable: at most two of the four slots are taken
  };
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = X Y is column-major C^T = Y^T X^T: cuBLAS multiplies the column-major views (Y first), no transposes.
  auto multiply = [&](const float* X, const float* Y, float* C, const char* what) {
    judge::ref::check_cublas(cublasSgemm(cublas.handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, Y, N, X, N, &zero,
                                         C, N),
                             kId, what);
  };
  for (int e = P; e > 0;) {
    if (e & 1) {
      if (result == nullptr) {
        result = base;
      } else {
        float* c = free_slot();
        multiply(result, base, c, "cublasSgemm(result * base)");
        result = c;
      }
    }
    e >>= 1;
    if (e > 0) {
      float* c = free_slot();
      multiply(base, base, c, "cublasSgemm(base * base)");
      base = c;
    }
  }
  judge::ref::check_cuda(cudaMemcpyAsync(out, result, nn * sizeof(float), cudaMemcpyDeviceToDevice, s), kId,
                         "cudaMemcpyAsync(output)");
}

// C = X Y, N x N row-major, in double; i-k-j order so the inner loop runs along rows.
void multiply_cpu(const std::vector<double>& X, const std::vector<double>& Y, std::vector<double>& C, std::int64_t N) {
  C.assign(static_cast<std::size_t>(N * N), 0.0);
  for (std::int64_t i = 0; i < N; ++i)
    for (std::int64_t k = 0; k < N; ++k) {
      const double x = X[i * N + k];
      for (std::int64_t j = 0; j < N; ++j) C[i * N + j] += x * Y[k * N + j];
    }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t N = a.scalar<int>("N");
  const int P = a.scalar<int>("P");
  const float* input = a.input<float>("input");
  double* out = a.output("output");
  if (N <= 0 || P <= 0) return;
  std::vector<double> base(input, input + N * N), result, tmp;
  bool have = false;
  for (int e = P; e > 0;) {
    if (e & 1) {
      if (!have) {
        result = base;
        have = true;
      } else {
        multiply_cpu(result, base, tmp, N);
        result.swap(tmp);
      }
    }
    e >>= 1;
    if (e > 0) {
      multiply_cpu(base, base, tmp, N);
      base.swap(tmp);
    }
  }
  for (std::int64_t i = 0; i < N * N; ++i) out[i] = result[static_cast<std::size_t>(i)];
}

}  // namespace

JUDGE_REFERENCE(matrix_power, gpu, cpu)
