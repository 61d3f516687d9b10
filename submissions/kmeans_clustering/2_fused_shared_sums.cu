// Rung 2: labelling and summing fused into one pass per round, with per-block sums in shared memory. Each block
// copies the centroids into shared memory, labels its points, adds each point to its centroid's block-local sum
// (shared-memory atomics, cheap), then adds the block's non-zero sums to global double accumulators; a small kernel
// divides, keeps empty centroids in place and clears the accumulators for the next round. The data is read once per
// round instead of k + 1 times.
#include <cuda_runtime.h>

#define THREADS 256
#define MAX_K 1000

__global__ void assign_accumulate(const float* __restrict__ x, const float* __restrict__ y,
                                  const float* __restrict__ cx, const float* __restrict__ cy, int* labels,
                                  double* gsx, double* gsy, int* gcount, int n, int k) {
  __shared__ float scx[MAX_K], scy[MAX_K], ssx[MAX_K], ssy[MAX_K];
  __shared__ int scount[MAX_K];
  for (int j = threadIdx.x; j < k; j += THREADS) {
    scx[j] = cx[j];
    scy[j] = cy[j];
    ssx[j] = 0.f;
    ssy[j] = 0.f;
    scount[j] = 0;
  }
  __syncthreads();
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
    float px = x[i], py = y[i];
    float best = 3.4e38f;
    int label = 0;
    for (int j = 0; j < k; ++j) {
      float dx = px - scx[j], dy = py - scy[j];
      float d = dx * dx + dy * dy;
      if (d < best) {
        best = d;
        label = j;
      }
    }
    labels[i] = label;
    atomicAdd(&ssx[label], px);
    atomicAdd(&ssy[label], py);
    atomicAdd(&scount[label], 1);
  }
  __syncthreads();
  for (int j = threadIdx.x; j < k; j += THREADS)
    if (scount[j] > 0) {
      atomicAdd(&gsx[j], (double)ssx[j]);
      atomicAdd(&gsy[j], (double)ssy[j]);
      atomicAdd(&gcount[j], scount[j]);
    }
}

__global__ void finish(double* gsx, double* gsy, int* gcount, float* cx, float* cy, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= k) return;
  if (gcount[j] > 0) {
    cx[j] = (float)(gsx[j] / gcount[j]);
    cy[j] = (float)(gsy[j] / gcount[j]);
  }
  gsx[j] = 0.0;
  gsy[j] = 0.0;
  gcount[j] = 0;
}

static void* scratch = nullptr;

// data_x, data_y, labels, initial_centroid_x, initial_centroid_y,
// final_centroid_x, final_centroid_y are device pointers
extern "C" void solve(const float* data_x, const float* data_y, int* labels,
                      float* initial_centroid_x, float* initial_centroid_y, float* final_centroid_x,
                      float* final_centroid_y, int sample_size, int k, int max_iterations) {
  if (!scratch) cudaMalloc(&scratch, MAX_K * (2 * sizeof(double) + sizeof(int)));
  double* gsx = (double*)scratch;
  double* gsy = gsx + MAX_K;
  int* gcount = (int*)(gsy + MAX_K);
  cudaMemsetAsync(scratch, 0, MAX_K * (2 * sizeof(double) + sizeof(int)));
  cudaMemcpyAsync(final_centroid_x, initial_centroid_x, sizeof(float) * k, cudaMemcpyDeviceToDevice);
  cudaMemcpyAsync(final_centroid_y, initial_centroid_y, sizeof(float) * k, cudaMemcpyDeviceToDevice);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int blocks = (sample_size + THREADS - 1) / THREADS;
  if (blocks > 4 * sms) blocks = 4 * sms;
  for (int it = 0; it < max_iterations; ++it) {
    assign_accumulate<<<blocks, THREADS>>>(data_x, data_y, final_centroid_x, final_centroid_y, labels, gsx, gsy,
                                           gcount, sample_size, k);
    finish<<<(k + 255) / 256, 256>>>(gsx, gsy, gcount, final_centroid_x, final_centroid_y, k);
  }
  cudaDeviceSynchronize();
}
