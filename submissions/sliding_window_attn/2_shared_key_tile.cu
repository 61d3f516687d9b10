// Rung 2: a block owns 16 consecutive query rows. Their windows cover 16 + 2w consecutive keys, which the block copies
// to shared memory once, coalesced; rung 1 read every key row 2w + 1 times, and since each lane read a different row,
// one load instruction touched 32 rows' sectors. The (query, key) scores and then the (query, column) outputs are
// spread over all 512 threads, so no lane idles when a window holds 33 keys (rung 1 ran a second pass over the keys
// with 1 lane of 32 busy). One warp per query row still does the softmax in between.
#include <cuda_runtime.h>

#include <math.h>

#define ROWS 16             // query rows per block
#define THREADS (ROWS * 32) // one warp per row for the softmax
#define FULL 0xffffffffu

__global__ void __launch_bounds__(THREADS) window_attention_tiled(const float* Q, const float* K, const float* V,
                                                                  float* out, int M, int d, int w, float scale) {
  extern __shared__ float sh[];
  const int width = 2 * w + 1;  // offsets o = 0 .. 2w: query i's key i - w + o
  const int keys = ROWS + 2 * w;
  const int ldk = d | 1;        // odd row stride: lanes reading consecutive key rows at one column hit distinct banks
  float* P = sh;                // ROWS x width: scores, then weights
  float* inv = P + ROWS * width;
  float* Qs = inv + ROWS;       // ROWS x d
  float* Ks = Qs + ROWS * d;    // keys x ldk; local key t is key i0 - w + t
  float* Vs = Ks + keys * ldk;  // keys x d
  const int tid = threadIdx.x, i0 = blockIdx.x * ROWS, k0 = i0 - w;

  // Rows i0 .. i0 + 15 of Q and keys k0 .. k0 + keys - 1 of K and V are contiguous in memory: coalesced copies.
  // Positions outside the sequence get zeros; their weights are set to 0 below, so the zeros are never used.
  for (int e = tid; e < ROWS * d; e += THREADS) Qs[e] = i0 + e / d < M ? Q[(size_t)i0 * d + e] : 0.0f;
  for (int e = tid; e < keys * d; e += THREADS) {
    const int t = e / d, c = e % d, j = k0 + t;
    const bool in = j >= 0 && j < M;
    Ks[t * ldk + c] = in ? K[(size_t)j * d + c] : 0.0f;
    Vs[e] = in ? V[(size_t)j * d + c] : 0.0f;
  }
  __syncthreads();

  // Scores: pair e = (row r, offset o) uses local key r + o. Four partial sums: four independent FMA chains.
  for (int e = tid; e < ROWS * width; e += THREADS) {
    const int r = e / width, o = e % width, i = i0 + r, j = i - w + o;
    float s = -INFINITY;  // no key there: weight exp(-inf) = 0
    if (i < M && j >= 0 && j < M) {
      const float* q = Qs + r * d;
      const float* k = Ks + (r + o) * ldk;
      float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
      int c = 0;
      for (; c + 4 <= d; c += 4) {
        a0 = fmaf(q[c], k[c], a0);
        a1 = fmaf(q[c + 1], k[c + 1], a1);
        a2 = fmaf(q[c + 2], k[c + 2], a2);
        a3 = fmaf(q[c + 3], k[c + 3], a3);
      }
      for (; c < d; ++c) a0 = fmaf(q[c], k[c], a0);
      s = ((a0 + a1) + (a2 + a3)) * scale;
    }
    P[e] = s;
  }
  __syncthreads();

  // Softmax: warp r takes row r. Its own key (o = w) always exists, so the maximum is finite.
  const int r = tid / 32, lane = tid % 32;
  if (i0 + r < M) {
    float* p = P + r * width;
    float m = -INFINITY;
    for (int o = lane; o < width; o += 32) m = fmaxf(m, p[o]);
    for (int off = 16; off > 0; off /= 2) m = fmaxf(m, __shfl_xor_sync(FULL, m, off));
    float sum = 0.0f;
    for (int o = lane; o < width; o += 32) {
      const float x = expf(p[o] - m);
      p[o] = x;
      sum += x;
    }
    for (int off = 16; off > 0; off /= 2) sum += __shfl_xor_sync(FULL, sum, off);
    if (lane == 0) inv[r] = 1.0f / sum;
  }
  __syncthreads();

  // Outputs: pair e = (row, column c); consecutive threads write consecutive columns.
  for (int e = tid; e < ROWS * d; e += THREADS) {
    const int row = e / d, c = e % d, i = i0 + row;
    if (i >= M) break;
    const float* p = P + row * width;
    const float* v = Vs + row * d + c;  // offset o is local key row + o
    float a0 = 0.0f, a1 = 0.0f;
    int o = 0;
    for (; o + 2 <= width; o += 2) {
      a0 = fmaf(p[o], v[o * d], a0);
      a1 = fmaf(p[o + 1], v[(o + 1) * d], a1);
    }
    if (o < width) a0 = fmaf(p[o], v[o * d], a0);
    out[(size_t)i * d + c] = (a0 + a1) * inv[row];
  }
}

// Q, K, V, output are M x d row-major device pointers; 1 <= window_size <= 32, d <= 128.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d,
                      int window_size) {
  // Keys farther than M - 1 from every query do not exist: a wider window only wastes shared memory.
  const int w = window_size < M - 1 ? window_size : M - 1;
  const int width = 2 * w + 1, keys = ROWS + 2 * w;
  const size_t smem = sizeof(float) * ((size_t)ROWS * width + ROWS + (size_t)ROWS * d + (size_t)keys * ((d | 1) + d));
  if (smem > 48 * 1024)  // up to 95 KB (w = 32, d = 128): more than a launch gets without asking
    cudaFuncSetAttribute(window_attention_tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  window_attention_tiled<<<(M + ROWS - 1) / ROWS, THREADS, smem>>>(Q, K, V, output, M, d, w,
                                                                   1.0f / sqrtf((float)d));
  cudaDeviceSynchronize();
}
