// Rung 2: split each head's tokens over many blocks (flash decoding), so that even 8 heads fill the GPU, and read the
// int8 cache once, 8 bytes per lane. A group of T lanes (T = head_dim / 8 rounded up to a power of 2) takes one token
// at a time, lane i holding columns 8i .. 8i + 7: it loads them as one int2 of K and one of V, the group sums q . k
// with shuffles, and every lane runs an online softmax in base 2 (log2(e) / sqrt(head_dim) folded into Q) over its
// group's tokens. A block merges its groups' (max, sum, 8-column outputs) in shared memory and writes one partial
// result per (head, split); a second kernel merges a head's splits and divides by the total sum.
#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>

#define WARPS 8
#define THREADS (WARPS * 32)
#define DMAX 256                  // largest head_dim of the constraints
#define SLOTS (WARPS * 32 * 8)    // groups x head_dim <= 8 warps x 32 lanes x 8 columns
#define FULL 0xffffffffu

__device__ void unpack8(int2 w, float* f) {
  const int8_t* b = reinterpret_cast<const int8_t*>(&w);
#pragma unroll
  for (int i = 0; i < 8; ++i) f[i] = (float)b[i];
}

// Block (h, split) covers tokens [split * chunk, min(seq_len, (split + 1) * chunk)).
__global__ void __launch_bounds__(THREADS) partial_attention(const float* Q, const int8_t* K, const int8_t* V,
                                                             const float* k_scale, const float* v_scale,
                                                             float* part_m, float* part_l, float* part_o, int splits,
                                                             int chunk, int seq_len, int head_dim, int T) {
  __shared__ float sm[WARPS * 32], sl[WARPS * 32];  // per group
  __shared__ float so[SLOTS];                       // per group: head_dim outputs
  const int h = blockIdx.x, split = blockIdx.y;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int sub = lane % T;                   // lane within its group
  const int groups_per_warp = 32 / T;
  const int group = warp * groups_per_warp + lane / T;
  const int groups = WARPS * groups_per_warp;
  const int c0 = sub * 8;                      // this lane's first column
  const bool live = c0 < head_dim;

  const float qs = 1.4426950408889634f / sqrtf((float)head_dim);  // log2(e) / sqrt(d)
  float q[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) q[i] = live ? Q[(long long)h * head_dim + c0 + i] * qs : 0.0f;

  float m = -INFINITY, l = 0.0f, o[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const int j0 = split * chunk, j1 = min(seq_len, j0 + chunk);
  const long long head = (long long)h * seq_len;
  // The whole warp runs the same rounds (the shuffles need every lane): in each, group g of the warp takes token
  // base + g, and a group past the end of the split still joins the shuffles, with zeros, and skips the update.
  for (int base = j0 + warp * groups_per_warp; base < j1; base += groups) {
    const int j = base + lane / T;
    const bool token = j < j1;
    const long long row = (head + j) * head_dim + c0;
    float k[8], v[8];
    unpack8(live && token ? *reinterpret_cast<const int2*>(K + row) : make_int2(0, 0), k);
    unpack8(live && token ? *reinterpret_cast<const int2*>(V + row) : make_int2(0, 0), v);
    float dot = 0.0f;
#pragma unroll
    for (int i = 0; i < 8; ++i) dot = fmaf(q[i], k[i], dot);
    for (int off = T / 2; off > 0; off /= 2) dot += __shfl_xor_sync(FULL, dot, off);  // within the group
    if (!token) continue;
    const float s = dot * k_scale[head + j];
    const float m_new = fmaxf(m, s);
    const float corr = exp2f(m - m_new);  // 0 for the first token (m = -inf)
    const float p = exp2f(s - m_new);
    const float pv = p * v_scale[head + j];
    l = l * corr + p;
#pragma unroll
    for (int i = 0; i < 8; ++i) o[i] = fmaf(pv, v[i], o[i] * corr);
    m = m_new;
  }
  if (sub == 0) sm[group] = m, sl[group] = l;
  if (live)
#pragma unroll
    for (int i = 0; i < 8; ++i) so[group * head_dim + c0 + i] = o[i];
  __syncthreads();

  // Merge the groups: groups with no token have m = -inf and weigh exp2f(-inf) = 0; the split has >= 1 token.
  float M = -INFINITY;
  for (int g = 0; g < groups; ++g) M = fmaxf(M, sm[g]);
  const long long p = (long long)h * splits + split;
  for (int c = threadIdx.x; c < head_dim; c += THREADS) {
    float L = 0.0f, acc = 0.0f;
    for (int g = 0; g < groups; ++g) {
      const float w = exp2f(sm[g] - M);
      L += w * sl[g];
      acc += w * so[g * head_dim + c];
    }
    part_o[p * head_dim + c] = acc;
    if (c == 0) part_m[p] = M, part_l[p] = L;
  }
}

// One block per head: merge its splits and normalise.
__global__ void merge_splits(const float* part_m, const float* part_l, const float* part_o, float* output, int splits,
                             int head_dim) {
  const int h = blockIdx.x;
  const float* pm = part_m + (long long)h * splits;
  const float* pl = part_l + (long long)h * splits;
  float M = -INFINITY;
  for (int s = 0; s < splits; ++s) M = fmaxf(M, pm[s]);
  for (int c = threadIdx.x; c < head_dim; c += blockDim.x) {
    float L = 0.0f, acc = 0.0f;
    for (int s = 0; s < splits; ++s) {
      const float w = exp2f(pm[s] - M);
      L += w * pl[s];
      acc += w * part_o[((long long)h * splits + s) * head_dim + c];
    }
    output[(long long)h * head_dim + c] = acc / L;
  }
}

extern "C" void solve(const float* Q, const int8_t* K_int8, const int8_t* V_int8, const float* k_scale,
                      const float* v_scale, float* output, int num_heads, int seq_len, int head_dim) {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  }
  int T = 1;
  while (T * 8 < head_dim) T *= 2;  // lanes per token
  // About 4 blocks per multiprocessor in all, each with at least 64 tokens; every split gets at least one token.
  int splits = (4 * sms + num_heads - 1) / num_heads;
  const int most = (seq_len + 63) / 64;
  if (splits > most) splits = most;
  if (splits < 1) splits = 1;
  const int chunk = (seq_len + splits - 1) / splits;
  splits = (seq_len + chunk - 1) / chunk;

  static float* scratch = nullptr;  // per (head, split): max, sum and head_dim outputs; grown when too small
  static size_t capacity = 0;
  const size_t parts = (size_t)num_heads * splits;
  const size_t need = parts * (head_dim + 2);
  if (need > capacity) {
    cudaFree(scratch);
    cudaMalloc(&scratch, need * sizeof(float));
    capacity = need;
  }
  float* part_m = scratch;
  float* part_l = scratch + parts;
  float* part_o = scratch + 2 * parts;
  partial_attention<<<dim3(num_heads, splits), THREADS>>>(Q, K_int8, V_int8, k_scale, v_scale, part_m, part_l, part_o,
                                                         splits, chunk, seq_len, head_dim, T);
  merge_splits<<<num_heads, DMAX>>>(part_m, part_l, part_o, output, splits, head_dim);
  cudaDeviceSynchronize();
}
