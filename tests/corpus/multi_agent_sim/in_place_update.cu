// expect: wrong_answer
// expect-message: elements wrong
// Updates the agents in place: copies agents into agents_next, then one block sweeps the agents in chunks of 256,
// each chunk reading its neighbours from agents_next and writing its results back there before the next chunk runs
// (a Gauss-Seidel sweep). Agents of later chunks thus see earlier agents' new positions and velocities instead of
// the old state every agent must read. Deterministic (a barrier separates each chunk's reads from its writes), so
// the small tests, which fit in one chunk, pass, and medium_1024 fails: 4 chunks, about 2 neighbours per agent.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void sweep(float* a, int n) {
  for (int base = 0; base < n; base += THREADS) {
    int i = base + threadIdx.x;
    float px = 0.f, py = 0.f, nvx = 0.f, nvy = 0.f;
    if (i < n) {
      px = a[4 * i], py = a[4 * i + 1];
      float vx = a[4 * i + 2], vy = a[4 * i + 3];
      float sx = 0.f, sy = 0.f;
      int count = 0;
      for (int j = 0; j < n; ++j) {
        if (j == i) continue;
        float dx = px - a[4 * j], dy = py - a[4 * j + 1];
        if (dx * dx + dy * dy < 25.f) {
          sx += a[4 * j + 2];
          sy += a[4 * j + 3];
          ++count;
        }
      }
      float ax = vx, ay = vy;
      if (count > 0) ax = sx / count, ay = sy / count;
      nvx = vx + 0.05f * (ax - vx), nvy = vy + 0.05f * (ay - vy);
    }
    __syncthreads();  // every read of this chunk is done before any of its writes
    if (i < n) {
      a[4 * i] = px + nvx;
      a[4 * i + 1] = py + nvy;
      a[4 * i + 2] = nvx;
      a[4 * i + 3] = nvy;
    }
    __syncthreads();
  }
}

// agents, agents_next are device pointers
extern "C" void solve(const float* agents, float* agents_next, int N) {
  cudaMemcpy(agents_next, agents, sizeof(float) * 4 * static_cast<size_t>(N), cudaMemcpyDeviceToDevice);
  sweep<<<1, THREADS>>>(agents_next, N);
  cudaDeviceSynchronize();
}
