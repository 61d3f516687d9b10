// expect: accepted
// Other legitimate float32 spellings of the same rule: the radius test on the distance itself (sqrtf(d2) < 5, as the
// statement writes it) with the squares fused into an FMA, the average as sum * (1 / count), and the update as
// 0.95 v + 0.05 avg with an FMA. Each rounds differently from the reference's double precision by an ulp or so of the
// velocity, well inside the tolerance; on the judge's grids sqrtf(d2) < 5 decides every pair as d2 < 25 does
// (the largest grid value below 25 is 25 - 1/256, whose square root is 4.9996, far from 5), ties at the radius
// included.
#include <cuda_runtime.h>

__global__ void step(const float* agents, float* next, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float px = agents[4 * i], py = agents[4 * i + 1], vx = agents[4 * i + 2], vy = agents[4 * i + 3];
  float sx = 0.f, sy = 0.f;
  int count = 0;
  for (int j = n - 1; j >= 0; --j) {  // the other way round: another summation order
    float dx = px - agents[4 * j], dy = py - agents[4 * j + 1];
    if (j != i && sqrtf(fmaf(dx, dx, dy * dy)) < 5.f) {
      sx += agents[4 * j + 2];
      sy += agents[4 * j + 3];
      ++count;
    }
  }
  float ax = vx, ay = vy;
  if (count > 0) {
    float inv = 1.f / count;
    ax = sx * inv, ay = sy * inv;
  }
  float nvx = fmaf(0.05f, ax, 0.95f * vx), nvy = fmaf(0.05f, ay, 0.95f * vy);
  next[4 * i] = px + nvx;
  next[4 * i + 1] = py + nvy;
  next[4 * i + 2] = nvx;
  next[4 * i + 3] = nvy;
}

// agents, agents_next are device pointers
extern "C" void solve(const float* agents, float* agents_next, int N) {
  step<<<(N + 255) / 256, 256>>>(agents, agents_next, N);
  cudaDeviceSynchronize();
}
