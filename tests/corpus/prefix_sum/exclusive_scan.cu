// expect: wrong_answer
// expect-message: elements wrong
// The textbook work-efficient (Blelloch) scan produces an EXCLUSIVE scan: output[i] = input[0] + ... + input[i-1],
// with output[0] = 0. The challenge asks for the inclusive one. Everything else here is right (512 elements per block,
// block totals scanned recursively, offsets added), so only the missing "+ input[i]" is wrong: every element is off
// by its own input. The example test shows it at once: [0, 3, 2, 6, 7, 2] instead of [3, 2, 6, 7, 2, 11].
#include <cuda_runtime.h>

#define THREADS 256
#define TILE (2 * THREADS)

// Exclusive scan of each tile of 512 elements; sums[b] = total of tile b.
__global__ void blelloch_tile(const float* in, float* out, float* sums, int n) {
  __shared__ float s[TILE];
  const int base = blockIdx.x * TILE;
  const int a = threadIdx.x, b = threadIdx.x + THREADS;
  s[a] = base + a < n ? in[base + a] : 0.0f;
  s[b] = base + b < n ? in[base + b] : 0.0f;
  int offset = 1;
  for (int d = TILE / 2; d > 0; d /= 2) {  // up-sweep: partial sums in place
    __syncthreads();
    if (threadIdx.x < d) {
      const int i = offset * (2 * threadIdx.x + 1) - 1, j = offset * (2 * threadIdx.x + 2) - 1;
      s[j] += s[i];
    }
    offset *= 2;
  }
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = s[TILE - 1];
    s[TILE - 1] = 0.0f;
  }
  for (int d = 1; d < TILE; d *= 2) {  // down-sweep
    offset /= 2;
    __syncthreads();
    if (threadIdx.x < d) {
      const int i = offset * (2 * threadIdx.x + 1) - 1, j = offset * (2 * threadIdx.x + 2) - 1;
      const float t = s[i];
      s[i] = s[j];
      s[j] += t;
    }
  }
  __syncthreads();
  // BUG: s[] now holds the exclusive scan; the inclusive one needs the element's own input added back.
  if (base + a < n) out[base + a] = s[a];
  if (base + b < n) out[base + b] = s[b];
}

// After the recursive scan, sums[] holds the exclusive prefix of the tile totals: add it to every element of tile b.
__global__ void add_offsets(float* out, const float* sums, int n) {
  const int i = blockIdx.x * TILE + threadIdx.x;
  if (i < n) out[i] += sums[blockIdx.x];
  if (i + THREADS < n) out[i + THREADS] += sums[blockIdx.x];
}

static void scan(const float* in, float* out, int n) {
  const int tiles = (n + TILE - 1) / TILE;
  float* sums = nullptr;
  cudaMalloc(&sums, tiles * sizeof(float));
  blelloch_tile<<<tiles, THREADS>>>(in, out, sums, n);
  if (tiles > 1) {
    float* sums_out = nullptr;
    cudaMalloc(&sums_out, tiles * sizeof(float));
    scan(sums, sums_out, tiles);  // exclusive scan of the totals: exactly the offsets
    add_offsets<<<tiles, THREADS>>>(out, sums_out, n);
    cudaFree(sums_out);
  }
  cudaFree(sums);
}

extern "C" void solve(const float* input, float* output, int N) {
  scan(input, output, N);
  cudaDeviceSynchronize();
}
