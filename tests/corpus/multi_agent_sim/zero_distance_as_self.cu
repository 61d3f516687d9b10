// expect: wrong_answer
// expect-message: elements wrong
// Rung 1 that skips the agent itself by its distance (d > 0) instead of its index: another agent at exactly the same
// position is then skipped too, although it is a neighbour (distance 0 < 5). duplicates_2000 fails: its clumps on the
// integer grid put many agents on the same spot.
#include <cuda_runtime.h>

__global__ void step(const float* agents, float* next, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float px = agents[4 * i], py = agents[4 * i + 1], vx = agents[4 * i + 2], vy = agents[4 * i + 3];
  float sx = 0.f, sy = 0.f;
  int count = 0;
  for (int j = 0; j < n; ++j) {
    float dx = px - agents[4 * j], dy = py - agents[4 * j + 1];
    float d = dx * dx + dy * dy;
    if (d > 0.f && d < 25.f) {
      sx += agents[4 * j + 2];
      sy += agents[4 * j + 3];
      ++count;
    }
  }
  float ax = vx, ay = vy;
  if (count > 0) ax = sx / count, ay = sy / count;
  float nvx = vx + 0.05f * (ax - vx), nvy = vy + 0.05f * (ay - vy);
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
