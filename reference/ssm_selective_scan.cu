// Reference for challenges/ssm_selective_scan (Mamba's selective scan, forward): for every batch b and channel d, a
// d_state-wide hidden state h (zero before t = 0) runs through
//   h[n] = exp(delta[b,t,d] * A[d,n]) * h[n] + delta[b,t,d] * B[b,t,n] * u[b,t,d]
//   y[b,t,d] = sum over n of C[b,t,n] * h[n] + skip[d] * u[b,t,d]
// u, delta, y are batch x seq_len x d_model; B, C are batch x seq_len x d_state; A is d_model x d_state; skip is
// d_model; all row-major float32.
//
// gpu(): one warp per (b, d) channel, walking t sequentially in double; lane l holds states l and l + 32 (d_state <= 64
// by the constraints), so the loads of B and C rows are coalesced and u, delta are one broadcast load per step. y is
// the warp's butterfly sum of C[n] h[n] (every lane ends with the same bits), plus skip * u, rounded to float once.
// cpu(): the same recurrence, a loop per channel, in double.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "ssm_selective_scan";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kWarps = kBlock / 32;
constexpr int kMaxState = 64;  // the constraints: d_state <= 64, two states per lane

__global__ void scan_kernel(const float* __restrict__ u, const float* __restrict__ delta, const float* __restrict__ A,
                            const float* __restrict__ B, const float* __restrict__ C, const float* __restrict__ skip,
                            float* __restrict__ y, int batch, int T, int D, int N) {
  const int lane = threadIdx.x % 32;
  const std::int64_t channels = std::int64_t(batch) * D;
  for (std::int64_t ch = blockIdx.x * std::int64_t(kWarps) + threadIdx.x / 32; ch < channels;
       ch += std::int64_t(gridDim.x) * kWarps) {
    const int b = static_cast<int>(ch / D), d = static_cast<int>(ch % D);
    const bool has0 = lane < N, has1 = lane + 32 < N;
    const double a0 = has0 ? double(A[std::int64_t(d) * N + lane]) : 0.0;
    const double a1 = has1 ? double(A[std::int64_t(d) * N + lane + 32]) : 0.0;
    const double sk = skip[d];
    double h0 = 0.0, h1 = 0.0;
    for (int t = 0; t < T; ++t) {
      const std::int64_t bt = std::int64_t(b) * T + t;
      const double de = delta[bt * D + d], uu = u[bt * D + d];
      double part = 0.0;
      if (has0) {
        h0 = exp(de * a0) * h0 + de * double(B[bt * N + lane]) * uu;
        part = double(C[bt * N + lane]) * h0;
      }
      if (has1) {
        h1 = exp(de * a1) * h1 + de * double(B[bt * N + lane + 32]) * uu;
        part += double(C[bt * N + lane + 32]) * h1;
      }
      for (int off = 16; off > 0; off >>= 1) part += __shfl_xor_sync(0xffffffffu, part, off);
      if (lane == 0) y[bt * D + d] = static_cast<float>(part + sk * uu);
    }
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int batch = a.scalar<int>("batch");
  const int T = a.scalar<int>("seq_len");
  const int D = a.scalar<int>("d_model");
  const int N = a.scalar<int>("d_state");
  if (batch <= 0 || T <= 0 || D <= 0) return;
  if (N > kMaxState)
    JUDGE_THROW(judge::Error, "reference '{}': d_state = {} is outside the constraints (d_state <= {})", kId, N,
                kMaxState);
  scan_kernel<<<judge::ref::grid_for(std::int64_t(batch) * D, kWarps, 1 << 20), kBlock, 0, s>>>(
      a.input<float>("u"), a.input<float>("delta"), a.input<float>("A"), a.input<float>("B"), a.input<float>("C"),
      a.input<float>("skip"), a.output<float>("y"), batch, T, D, N);
  judge::ref::check_launch(kId, "scan_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t batch = a.scalar<int>("batch");
  const std::int64_t T = a.scalar<int>("seq_len");
  const std::int64_t D = a.scalar<int>("d_model");
  const std::int64_t N = a.scalar<int>("d_state");
  const float* u = a.input<float>("u");
  const float* delta = a.input<float>("delta");
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  const float* C = a.input<float>("C");
  const float* skip = a.input<float>("skip");
  double* y = a.output("y");
  std::vector<double> h(static_cast<std::size_t>(N));
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t d = 0; d < D; ++d) {
      std::fill(h.begin(), h.end(), 0.0);
      for (std::int64_t t = 0; t < T; ++t) {
        const std::int64_t bt = b * T + t;
        const double de = delta[bt * D + d], uu = u[bt * D + d];
        double acc = 0.0;
        for (std::int64_t n = 0; n < N; ++n) {
          h[n] = std::exp(de * double(A[d * N + n])) * h[n] + de * double(B[bt * N + n]) * uu;
          acc += double(C[bt * N + n]) * h[n];
        }
        y[bt * D + d] = acc + double(skip[d]) * uu;
      }
    }
}

}  // namespace

JUDGE_REFERENCE(ssm_selective_scan, gpu, cpu)
