// expect: wrong_answer
// expect-message: never written
// judge-args: --case n33_r7 --case n4097_r5
// Hashes four values per thread from int4 loads but has no scalar loop for the last N % 4: N = 33 leaves
// output[32] and N = 4097 output[4096] holding the judge's poison. (For N < 4 nothing at all is written, which is
// `output_not_written`; the cases named above have something to get right.)
#include <cuda_runtime.h>

__device__ unsigned int fnv1a_hash(unsigned int input) {
  unsigned int hash = 2166136261u;
  for (int byte_pos = 0; byte_pos < 4; byte_pos++) {
    unsigned char byte = (input >> (byte_pos * 8)) & 0xFFu;
    hash = (hash ^ byte) * 16777619u;
  }
  return hash;
}

__global__ void hash_kernel(const int4* input, uint4* output, int n4, int R) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q < n4) {
    int4 v = input[q];
    unsigned int a = v.x, b = v.y, c = v.z, d = v.w;
    for (int r = 0; r < R; r++) {
      a = fnv1a_hash(a);
      b = fnv1a_hash(b);
      c = fnv1a_hash(c);
      d = fnv1a_hash(d);
    }
    output[q] = make_uint4(a, b, c, d);
  }
  // missing: the last N % 4 values
}

extern "C" void solve(const int* input, unsigned int* output, int N, int R) {
  int n4 = N / 4;
  if (n4 > 0)
    hash_kernel<<<(n4 + 255) / 256, 256>>>(reinterpret_cast<const int4*>(input), reinterpret_cast<uint4*>(output),
                                            n4, R);
  cudaDeviceSynchronize();
}
