// Rung 2: parallel over the states as well as the channels, with the next step's loads issued before this step's
// math. A group of G lanes (G = d_state rounded up to a power of 2, at most 32) owns one channel; lane g holds states
// g and g + 32 in registers with A_bar's exponent factors, and y is the group's shuffle sum of C[n] h[n]. At LeetGPU's
// size (d_state = 16) that is 16 times the independent chains of rung 1, and each step's dependent chain is one FMA
// per state plus a 4-level shuffle, with the global loads of step t + 1 already in flight.
#include <cuda_runtime.h>
#include <math.h>

template <int G, int PER>  // G lanes per channel (a power of 2 dividing 32), PER states per lane (G * PER >= d_state)
__global__ void __launch_bounds__(256) scan_lanes(const float* __restrict__ u, const float* __restrict__ delta,
                                                  const float* __restrict__ A, const float* __restrict__ B,
                                                  const float* __restrict__ C, const float* __restrict__ skip,
                                                  float* __restrict__ y, int batch, int T, int D, int N) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int channels = batch * D;
  const int g = threadIdx.x % G;
  // Groups past the last channel still run the loop (on the last channel, writing nothing), so that every lane of a
  // warp takes part in the full-mask shuffles.
  const bool active = tid / G < channels;
  const int ch = active ? tid / G : channels - 1;
  const int b = ch / D, d = ch % D;

  float a[PER], h[PER];
  bool has[PER];
#pragma unroll
  for (int p = 0; p < PER; ++p) {
    const int n = g + p * G;
    has[p] = n < N;
    a[p] = has[p] ? A[d * N + n] : 0.0f;
    h[p] = 0.0f;
  }
  const float sk = skip[d];

  const size_t base = (size_t)b * T;
  auto load = [&](int t, float& de, float& uu, float* bv, float* cv) {
    const size_t bt = base + t;
    de = delta[bt * D + d];
    uu = u[bt * D + d];
#pragma unroll
    for (int p = 0; p < PER; ++p) {
      bv[p] = has[p] ? B[bt * N + g + p * G] : 0.0f;
      cv[p] = has[p] ? C[bt * N + g + p * G] : 0.0f;
    }
  };
  float de, uu, bv[PER], cv[PER];
  load(0, de, uu, bv, cv);
  for (int t = 0; t < T; ++t) {
    float de_n = 0.0f, uu_n = 0.0f, bv_n[PER], cv_n[PER];
    if (t + 1 < T) load(t + 1, de_n, uu_n, bv_n, cv_n);  // in flight while step t computes
    float acc = 0.0f;
#pragma unroll
    for (int p = 0; p < PER; ++p) {
      h[p] = fmaf(__expf(de * a[p]), h[p], de * bv[p] * uu);  // zero-padded states stay 0
      acc = fmaf(cv[p], h[p], acc);
    }
#pragma unroll
    for (int off = G / 2; off > 0; off /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (active && g == 0) y[(base + t) * D + d] = fmaf(sk, uu, acc);
    de = de_n, uu = uu_n;
#pragma unroll
    for (int p = 0; p < PER; ++p) bv[p] = bv_n[p], cv[p] = cv_n[p];
  }
}

template <int G, int PER>
static void launch(const float* u, const float* delta, const float* A, const float* B, const float* C,
                   const float* skip, float* y, int batch, int T, int D, int N) {
  const long long threads = (long long)batch * D * G;
  const int block = 256;
  scan_lanes<G, PER><<<(unsigned)((threads + block - 1) / block), block>>>(u, delta, A, B, C, skip, y, batch, T, D,
                                                                          N);
}

extern "C" void solve(const float* u, const float* delta, const float* A, const float* B, const float* C,
                      const float* skip, float* y, int batch, int seq_len, int d_model, int d_state) {
  if (batch <= 0 || seq_len <= 0 || d_model <= 0 || d_state <= 0) return;
  if (d_state <= 1)
    launch<1, 1>(u, delta, A, B, C, skip, y, batch, seq_len, d_model, d_state);
  else if (d_state <= 2)
    launch<2, 1>(u, delta, A, B, C, skip, y, batch, seq_len, d_model, d_state);
  else if (d_state <= 4)
    launch<4, 1>(u, delta, A, B, C, skip, y, batch, seq_len, d_model, d_state);
  else if (d_state <= 8)
    launch<8, 1>(u, delta, A, B, C, skip, y, batch, seq_len, d_model, d_state);
  else if (d_state <= 16)
    launch<16, 1>(u, delta, A, B, C, skip, y, batch, seq_len, d_model, d_state);
  else if (d_state <= 32)
    launch<32, 1>(u, delta, A, B, C, skip, y, batch, seq_len, d_model, d_state);
  else
    launch<32, 2>(u, delta, A, B, C, skip, y, batch, seq_len, d_model, d_state);
  cudaDeviceSynchronize();
}
