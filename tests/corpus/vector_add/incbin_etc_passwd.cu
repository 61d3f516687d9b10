// expect: compile_error
// expect-output-lacks: root:x:0
// Attacker's intent: carry a file of the judge's machine out inside the build. Against the old judge the
// assembler's `.incbin` embedded any file the judge's user could read into the submission's own library, which then
// printed it. This embeds /etc/passwd (the first line of which is root's entry on every Linux system) through a
// top-level asm() of the host code, prints it on the first call, and is otherwise a correct submission.
// Harmless when nvcc (and the assembler it runs) is sandboxed, seeing the submission, the toolkit and the system's
// headers only: the .incbin cannot open the file, so `compile_error`, and no line of it (root:x:0:...) appears in
// the diagnostics, the message or the output. `accepted` would mean the file was read and printed.
#include <cuda_runtime.h>

#include <cstdio>

asm(".pushsection .rodata\n"
    ".globl corpus_passwd_start\n"
    "corpus_passwd_start:\n"
    ".incbin \"/etc/passwd\"\n"
    ".globl corpus_passwd_end\n"
    "corpus_passwd_end:\n"
    ".byte 0\n"
    ".popsection\n");

extern "C" const char corpus_passwd_start[];
extern "C" const char corpus_passwd_end[];

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool printed = false;
  if (!printed) {
    printed = true;
    std::fwrite(corpus_passwd_start, 1, static_cast<size_t>(corpus_passwd_end - corpus_passwd_start), stdout);
    std::fflush(stdout);
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
