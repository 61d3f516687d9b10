// Rung 1: a thread per agent scans every agent in global memory, summing the velocities of those strictly within
// radius 5 (skipping itself by index), then applies v' = v + 0.05 (avg - v) and p' = p + v'. N^2 distance tests with
// each thread loading every agent through L1/L2, and with N = 10,000 only 40 blocks of 256 threads for the GPU.
#include <cuda_runtime.h>

__global__ void step(const float* agents, float* next, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float px = agents[4 * i], py = agents[4 * i + 1], vx = agents[4 * i + 2], vy = agents[4 * i + 3];
  float sx = 0.f, sy = 0.f;
  int count = 0;
  for (int j = 0; j < n; ++j) {
    if (j == i) continue;
    float dx = px - agents[4 * j], dy = py - agents[4 * j + 1];
    if (dx * dx + dy * dy < 25.f) {
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
