// Reference for challenges/nearest_neighbor: indices[i] = the j != i that minimises the squared Euclidean distance
// from point i to point j, the lowest such j on a tie (LeetGPU's torch.argmin over a row whose diagonal is +inf; with
// N = 1 that row is all +inf and argmin gives 0, so indices[0] = 0).
//
// Both references compute (xi - xj)^2 + (yi - yj)^2 + (zi - zj)^2 in double, in that order, with no fused multiply-add
// (the GPU one spells every operation with an _rn intrinsic, so nvcc cannot contract it), and scan j upwards keeping
// a strictly smaller distance: they give the same index for any input. The challenge's inputs lie on grids where
// float32 computes every squared distance exactly too (statement.md, "Exact answers"), so these are also the indices
// of every correct float32 solution, ties included.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "nearest_neighbor";
constexpr int kTile = judge::ref::kBlock;

__device__ __forceinline__ double sq_dist(double ax, double ay, double az, double bx, double by, double bz) {
  const double dx = __dsub_rn(ax, bx), dy = __dsub_rn(ay, by), dz = __dsub_rn(az, bz);
  return __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
}

// A thread per query point; the block walks the candidates in tiles of kTile points staged in shared memory.
__global__ void nearest_kernel(const float* __restrict__ points, int* __restrict__ indices, int n) {
  __shared__ float tile[3 * kTile];
  const int i = blockIdx.x * kTile + threadIdx.x;
  double px = 0, py = 0, pz = 0;
  if (i < n) px = points[3 * i], py = points[3 * i + 1], pz = points[3 * i + 2];
  double best = INFINITY;
  int best_j = 0;
  for (int base = 0; base < n; base += kTile) {
    const int count = min(kTile, n - base);
    __syncthreads();
    for (int e = threadIdx.x; e < 3 * count; e += kTile) tile[e] = points[3 * static_cast<std::int64_t>(base) + e];
    __syncthreads();
    if (i < n)
      for (int t = 0; t < count; ++t) {
        const int j = base + t;
        const double d = sq_dist(px, py, pz, tile[3 * t], tile[3 * t + 1], tile[3 * t + 2]);
        if (j != i && d < best) {  // strict, j ascending: the lowest index wins a tie
          best = d;
          best_j = j;
        }
      }
  }
  if (i < n) indices[i] = best_j;
}

void gpu(const judge::DeviceArgs& args, cudaStream_t s) {
  const int n = args.scalar<int>("N");
  if (n <= 0) return;
  const float* points = args.input<float>("points");
  int* indices = args.output<int>("indices");
  nearest_kernel<<<static_cast<unsigned>((n + kTile - 1) / kTile), kTile, 0, s>>>(points, indices, n);
  judge::ref::check_launch(kId, "nearest_kernel");
}

void cpu(judge::HostArgs& args) {
  const std::int64_t n = args.scalar<int>("N");
  const float* p = args.input<float>("points");
  double* indices = args.output("indices");
  for (std::int64_t i = 0; i < n; ++i) {
    const double px = p[3 * i], py = p[3 * i + 1], pz = p[3 * i + 2];
    double best = INFINITY;
    std::int64_t best_j = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const double dx = px - p[3 * j], dy = py - p[3 * j + 1], dz = pz - p[3 * j + 2];
      const double d = dx * dx + dy * dy + dz * dz;
      if (j != i && d < best) best = d, best_j = j;
    }
    indices[i] = static_cast<double>(best_j);
  }
}

}  // namespace

JUDGE_REFERENCE(nearest_neighbor, gpu, cpu)
