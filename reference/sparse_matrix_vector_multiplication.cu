// Reference for challenges/sparse_matrix_vector_multiplication: y = A x, where A is an M x N row-major float32
// matrix stored densely (nnz of its elements are non-zero) and x has N elements.
//
// Whatever the sparsity, A arrives dense, so every one of its M * N elements must be read once: the honest fast way
// is a dense matrix-vector product at memory bandwidth (cuBLAS SGEMV would do, but sums in float). Here one block of
// 256 threads per row streams the row with 16-byte loads where the row is 16-byte aligned (scalar loads for the
// misaligned head and the tail), multiplies with x (small, served by the caches) and sums in double; a fixed-order
// block tree combines the threads' sums, so the result is deterministic and exact to float rounding. H200: 3.86 TB/s
// at 10,000 x 10,000 (90% of copy bandwidth); 2.39 TB/s at LeetGPU's 1000 x 10,000 (40 MB: 17 us, one wave of
// blocks, where latency rather than bandwidth sets the time).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "sparse_matrix_vector_multiplication";
constexpr int kBlock = judge::ref::kBlock;

__global__ void __launch_bounds__(kBlock) row_dot_kernel(const float* __restrict__ A, const float* __restrict__ x,
                                                         float* __restrict__ y, int M, int N) {
  for (int row = blockIdx.x; row < M; row += gridDim.x) {
    const float* a = A + std::int64_t(row) * N;
    // Elements before the first 16-byte boundary of the row (0 to 3 of them), then whole float4s, then the tail.
    const int head = static_cast<int>(((16 - reinterpret_cast<std::uintptr_t>(a) % 16) % 16) / 4);
    const int lead = head < N ? head : N;
    const int quads = (N - lead) / 4;
    double acc = 0.0;
    if (threadIdx.x < lead) acc += double(a[threadIdx.x]) * double(x[threadIdx.x]);
    const float4* a4 = reinterpret_cast<const float4*>(a + lead);
#pragma unroll 4
    for (int q = threadIdx.x; q < quads; q += kBlock) {
      const float4 v = a4[q];
      const float* xq = x + lead + 4 * q;
      acc += double(v.x) * double(xq[0]);
      acc += double(v.y) * double(xq[1]);
      acc += double(v.z) * double(xq[2]);
      acc += double(v.w) * double(xq[3]);
    }
    for (int j = lead + 4 * quads + threadIdx.x; j < N; j += kBlock) acc += double(a[j]) * double(x[j]);
    const double total = judge::ref::block_reduce(acc, judge::ref::Sum{});
    if (threadIdx.x == 0) y[row] = static_cast<float>(total);
    __syncthreads();  // block_reduce's shared memory is reused by the next row
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  if (M <= 0) return;
  float* y = a.output<float>("y");
  if (N <= 0) {
    judge::ref::check_cuda(cudaMemsetAsync(y, 0, sizeof(float) * std::size_t(M), s), kId, "cudaMemsetAsync");
    return;
  }
  // One block per row while that fills the GPU many times over (8 blocks of 256 threads fit on an SM); beyond that a
  // grid-stride loop over rows.
  const unsigned blocks = static_cast<unsigned>(M < 65535 ? M : 65535);
  row_dot_kernel<<<blocks, kBlock, 0, s>>>(a.input<float>("A"), a.input<float>("x"), y, M, N);
  judge::ref::check_launch(kId, "row_dot_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const float* A = a.input<float>("A");
  const float* x = a.input<float>("x");
  double* y = a.output("y");
  for (std::int64_t i = 0; i < M; ++i) {
    double acc = 0.0;
    for (std::int64_t j = 0; j < N; ++j) acc += double(A[i * N + j]) * double(x[j]);
    y[i] = acc;
  }
}

}  // namespace

JUDGE_REFERENCE(sparse_matrix_vector_multiplication, gpu, cpu)
