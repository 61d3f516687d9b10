#include <cuda_runtime.h>

// Agent i is agents[4*i .. 4*i + 3] = (x, y, vx, vy). Its neighbours are the other agents j != i with
// (x_i - x_j)^2 + (y_i - y_j)^2 < 25 (strictly: exactly 5 apart is not a neighbour). With neighbours, avg is the mean
// of their velocities, otherwise the agent's own velocity; v' = v + 0.05 * (avg - v), p' = p + v'; write (p', v') to
// agents_next[4*i .. 4*i + 3]. Every agent reads the old state in agents, never the new one.
__global__ void multi_agent_kernel(const float* agents, float* agents_next, int N) {
  // TODO
}

// agents, agents_next are device pointers
extern "C" void solve(const float* agents, float* agents_next, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  multi_agent_kernel<<<blocks, threads_per_block>>>(agents, agents_next, N);
  cudaDeviceSynchronize();
}
