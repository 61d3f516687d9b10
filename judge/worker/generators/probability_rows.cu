// "probability_rows": rows of args.cols positive values that each sum to 1 (a flat Dirichlet draw: exponential
// weights normalised per row), for distributions, attention weights and sampling inputs. Floating dtypes only.
#include <cmath>

#include "judge/worker/generators/fill.cuh"

namespace judge::gen {
namespace {

constexpr int kThreads = 256;

template <class T>
__global__ void rows_kernel(T* out, std::int64_t rows, std::int64_t cols, std::uint64_t key) {
  __shared__ double partial[kThreads];
  for (std::int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    double sum = 0;
    for (std::int64_t j = threadIdx.x; j < cols; j += kThreads) sum += -log(1.0 - unit(key, r * cols + j));
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
      __syncthreads();
    }
    double total = partial[0];
    __syncthreads();
    for (std::int64_t j = threadIdx.x; j < cols; j += kThreads) {
      double w = -log(1.0 - unit(key, r * cols + j));
      out[r * cols + j] = from_double<T>(total > 0 ? w / total : 1.0 / static_cast<double>(cols));
    }
  }
}

void probability_rows(const GeneratorCall& c) {
  double cols = c.arg("cols");
  if (!is_floating(c.dtype))
    JUDGE_THROW(Error, "generator 'probability_rows' makes floating-point rows; the buffer is {}", to_string(c.dtype));
  if (!(cols >= 1) || std::fmod(static_cast<double>(c.count), cols) != 0)
    JUDGE_THROW(Error, "generator 'probability_rows': cols = {} does not divide the element count {}", cols, c.count);
  auto n_cols = static_cast<std::int64_t>(cols);
  std::int64_t rows = c.count / n_cols;
  unsigned blocks = static_cast<unsigned>(std::min<std::int64_t>(rows, 65535 * 8));
  visit_dtype(c.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    rows_kernel<T><<<blocks, kThreads, 0, c.stream>>>(static_cast<T*>(c.data), rows, n_cols, c.key);
  });
  JUDGE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace
}  // namespace judge::gen

JUDGE_GENERATOR(probability_rows, judge::gen::probability_rows)
