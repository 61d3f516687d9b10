// expect: accepted
// The expanded form d = |p|^2 + |q|^2 - 2 p.q with the squared norms computed once per point (stored as the fourth
// component of a float4), the usual trick that turns the distance into a dot product. On arbitrary reals it rounds
// differently from (p - q)^2 and could flip near-ties; the judge's inputs lie on grids centred on 0 where every
// intermediate is an integer below 2^24 grid units, so both forms are exact and this is accepted, ties included.
#include <cuda_runtime.h>

__global__ void with_norms(const float* points, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = points[3 * i], y = points[3 * i + 1], z = points[3 * i + 2];
  out[i] = make_float4(x, y, z, x * x + y * y + z * z);
}

__global__ void nearest(const float4* p, int* indices, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 a = p[i];
  float best = 3.4e38f;
  int best_j = 0;
  for (int j = 0; j < n; ++j) {
    if (j == i) continue;
    float4 b = p[j];
    float d = a.w + b.w - 2.f * (a.x * b.x + a.y * b.y + a.z * b.z);
    if (d < best) {
      best = d;
      best_j = j;
    }
  }
  indices[i] = best_j;
}

extern "C" void solve(const float* points, int* indices, int N) {
  float4* p = nullptr;
  cudaMalloc(&p, sizeof(float4) * N);
  with_norms<<<(N + 255) / 256, 256>>>(points, p, N);
  nearest<<<(N + 255) / 256, 256>>>(p, indices, N);
  cudaDeviceSynchronize();
  cudaFree(p);
}
