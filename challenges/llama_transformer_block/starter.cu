#include <cuda_runtime.h>

// Sizes and the offsets (in floats) of each parameter inside the packed weights buffer. Every matrix is row-major
// with one output per row, (out, in): W_Q[o][c] is weights[O_WQ + o * D + c], and a projection is z W^T.
#define D 512        // features per token
#define HQ 8         // query heads
#define HKV 2        // key/value heads: query head g uses key/value head g / (HQ / HKV)
#define DH 64        // features per head
#define FFN 1408     // hidden units of the SwiGLU FFN
#define O_RMS1 0                        // w1 (D)
#define O_WQ (O_RMS1 + D)               // W_Q (HQ*DH x D)
#define O_WK (O_WQ + HQ * DH * D)       // W_K (HKV*DH x D)
#define O_WV (O_WK + HKV * DH * D)      // W_V (HKV*DH x D)
#define O_WO (O_WV + HKV * DH * D)      // W_O (D x D)
#define O_RMS2 (O_WO + D * D)           // w2 (D)
#define O_WGATE (O_RMS2 + D)            // W_gate (FFN x D)
#define O_WUP (O_WGATE + FFN * D)       // W_up (FFN x D)
#define O_WDOWN (O_WUP + FFN * D)       // W_down (D x FFN)

// A first version can run the block as a chain of simple kernels over scratch buffers (cudaMalloc them in solve()):
//   RMSNorm (eps 1e-5 inside the square root) -> Q, K, V projections -> RoPE on Q and K (element k pairs with k + 32,
//   angles from row i of cos / sin) -> causal attention per query head (scores / 8, keys 0..i, K/V head g / 4) ->
//   W_O projection + x -> RMSNorm -> gate and up projections -> silu(gate) * up -> W_down projection + residual.

// out[r][c] = in[r][c] / sqrt(mean over c' of in[r][c']^2 + 1e-5) * w[c].
__global__ void rmsnorm_kernel(const float* in, const float* w, float* out, int rows) {
  // TODO: one thread (or one warp) per row.
}

// out[r][o] = sum over c of in[r][c] * W[o][c] (+ res[r][o] where res is not null); W is (C_out x K), row-major.
__global__ void linear_kernel(const float* in, const float* W, const float* res, float* out, int rows, int K,
                              int C_out) {
  // TODO: one thread per element of out.
}

// x, output, weights, cos, sin are device pointers
extern "C" void solve(const float* x, float* output, const float* weights, const float* cos, const float* sin,
                      int seq_len) {}
