// expect: compile_error
// expect-output-lacks: root:x:0
// Attacker's intent: read a file of the judge's machine at compile time. Against the old judge
// `#include "/etc/passwd"` made nvcc quote the file, line by line, in the diagnostics it reported: any file the
// judge's user could read came back to the submitter as "errors". This includes /etc/passwd (the first line of
// which is root's entry on every Linux system) and is otherwise a correct submission.
// Harmless when nvcc runs sandboxed, seeing the submission, the toolkit and the system's headers only: the include
// fails as a file that cannot be opened, so `compile_error`, and no line of the file (root:x:0:...) appears in the
// diagnostics, the message or the output.
#include <cuda_runtime.h>

#include "/etc/passwd"

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
