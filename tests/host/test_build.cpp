// The build step needs nvcc but no GPU, so it runs in CI: good code builds (and is cached), every solve() form
// LeetGPU has used builds unchanged (extern "C", solve.h, C++ linkage, wider scalars, non-const inputs), a solve()
// the challenge's arguments cannot call is rejected with the expected declaration in the message, a syntax error
// points at the user's line. The built library is loaded without a GPU to see what judge_entry passes.
#include <dlfcn.h>

#include <sstream>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "judge/core/build/build.hpp"
#include "judge/core/sandbox/bwrap.hpp"
#include "judge/core/sandbox/landlock.hpp"
#include "support/test_support.hpp"

namespace {

using judge::testing::TempDir;
using judge::testing::write_file;

const char* kSpec = R"({
  "id": "vadd", "title": "t", "difficulty": "easy", "summary": "s",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "B", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["N"]},
    {"name": "N", "role": "scalar", "dtype": "int32"}
  ],
  "tolerance": {"atol": 1e-6, "rtol": 1e-6},
  "flops": "N",
  "tests": [{"name": "t1", "scalars": {"N": 7}}],
  "benchmarks": [{"name": "b1", "scalars": {"N": 1000}}]
})";

const char* kGood = R"(#include <cuda_runtime.h>
__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
)";

// A float scalar: y = alpha * x.
const char* kScaleSpec = R"({
  "id": "scale", "title": "t", "difficulty": "easy", "summary": "s",
  "params": [
    {"name": "x", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "y", "role": "output", "dtype": "float32", "shape": ["N"]},
    {"name": "alpha", "role": "scalar", "dtype": "float32"},
    {"name": "N", "role": "scalar", "dtype": "int32"}
  ],
  "tolerance": {"atol": 1e-6, "rtol": 1e-6},
  "flops": "N",
  "tests": [{"name": "t1", "scalars": {"alpha": 2, "N": 7}}],
  "benchmarks": [{"name": "b1", "scalars": {"alpha": 2, "N": 1000}}]
})";

class Build : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      nvcc_ = judge::find_nvcc();
    } catch (const judge::Error& e) {
      GTEST_SKIP() << "nvcc is not installed here: " << e.what();
    }
    challenge_ = judge::parse_challenge(kSpec, "vadd/spec.json");
  }

  judge::BuildResult build(const std::string& source, const std::string& name = "solve.cu") {
    return build_for(challenge_, source, name);
  }

  judge::BuildResult build_for(const judge::Challenge& challenge, const std::string& source,
                               const std::string& name = "solve.cu") {
    auto path = dir_ / name;
    write_file(path, source);
    judge::BuildRequest req;
    req.source = path;
    req.arch = "sm_75";  // any architecture compiles without a GPU; the oldest supported one is the quickest
    req.cache_dir = dir_ / "cache";
    req.nvcc = nvcc_;
    return judge::build_solution(challenge, req);
  }

  TempDir dir_;
  std::string nvcc_;
  judge::Challenge challenge_;
};

TEST_F(Build, GlueIncludesTheUsersFileFirstThenCallsSolve) {
  std::string glue = judge::make_glue(challenge_, "/x/solve.cu");
  auto include = glue.find("#include \"/x/solve.cu\"");
  auto entry = glue.find("extern \"C\" void judge_entry(void* const* judge_args)");
  ASSERT_NE(include, std::string::npos) << glue;
  ASSERT_NE(entry, std::string::npos) << glue;
  EXPECT_LT(include, entry);
  // Nothing declares solve() before the user's file (comments aside): its own declaration decides linkage and
  // scalar types.
  std::istringstream before(glue.substr(0, include));
  for (std::string line; std::getline(before, line);)
    if (line.rfind("//", 0) != 0) EXPECT_EQ(line.find("void solve("), std::string::npos) << line;
  // Buffers are passed non-const (they convert to const T*), scalars through the lossless proxy.
  EXPECT_NE(glue.find("*static_cast<float* const*>(judge_args[0])"), std::string::npos) << glue;
  EXPECT_NE(glue.find("judge_scalar_arg<int>{\"N\", *static_cast<const int*>(judge_args[3])}"), std::string::npos)
      << glue;
  // nvcc names the generated call, not a temporary path, in its errors.
  auto line = glue.find(std::string("#line 1 \"") + judge::kGlueCallName + "\"");
  ASSERT_NE(line, std::string::npos) << glue;
  EXPECT_LT(include, line);
  EXPECT_LT(line, entry);
}

TEST_F(Build, SolveHeaderDeclaresSolveExternCWithTheCudaHeaders) {
  std::string h = judge::make_solve_header(challenge_);
  for (const char* include : {"<cuda_runtime.h>", "<cuda_fp16.h>", "<cuda_bf16.h>", "<cstdint>", "<cstddef>"})
    EXPECT_NE(h.find(std::string("#include ") + include), std::string::npos) << include << "\n" << h;
  EXPECT_NE(h.find("extern \"C\" void solve(const float* A, const float* B, float* C, int N);"), std::string::npos)
      << h;
  EXPECT_NE(h.find("#pragma once"), std::string::npos) << h;
}

TEST_F(Build, GoodSourceBuildsAndIsCachedByContent) {
  auto first = build(kGood);
  ASSERT_TRUE(first.ok) << first.diagnostics;
  EXPECT_FALSE(first.cached);
  EXPECT_TRUE(std::filesystem::exists(first.library));
  EXPECT_EQ(first.source_hash.size(), 64u);
  auto second = build(kGood);
  ASSERT_TRUE(second.ok);
  EXPECT_TRUE(second.cached);
  EXPECT_EQ(second.library, first.library);
  auto changed = build(std::string(kGood) + "\n// a change\n");
  ASSERT_TRUE(changed.ok);
  EXPECT_FALSE(changed.cached);
  EXPECT_NE(changed.library, first.library);
}

// `judge batch` builds on several threads of one process, and may build one source on two of them at once: each
// build needs a private directory of its own (a per-process one made the second nvcc lose its output).
TEST_F(Build, TwoThreadsBuildingTheSameSourceBothSucceed) {
  auto path = dir_ / "solve.cu";
  write_file(path, kGood);
  judge::BuildRequest req;
  req.source = path;
  req.arch = "sm_75";
  req.cache_dir = dir_ / "cache";
  req.nvcc = nvcc_;
  judge::BuildResult a, b;
  std::thread other([&] { b = judge::build_solution(challenge_, req); });
  a = judge::build_solution(challenge_, req);
  other.join();
  EXPECT_TRUE(a.ok) << a.diagnostics;
  EXPECT_TRUE(b.ok) << b.diagnostics;
  EXPECT_EQ(a.library, b.library);
  EXPECT_TRUE(std::filesystem::exists(a.library));
}

// A solve() body for vector_add, after the declaration under test.
std::string vadd_with(const std::string& declaration) {
  return "__global__ void add(const float* A, const float* B, float* C, long N) {\n"
         "  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;\n"
         "  if (i < N) C[i] = A[i] + B[i];\n"
         "}\n" +
         declaration + " {\n  add<<<(N + 255) / 256, 256>>>(A, B, C, N);\n  cudaDeviceSynchronize();\n}\n";
}

// Every form LeetGPU has used compiles unchanged.
TEST_F(Build, TodaysExternCFormBuilds) {
  auto r = build(kGood);
  EXPECT_TRUE(r.ok) << r.diagnostics;
}

TEST_F(Build, SolveHeaderFormWithCppLinkageBuilds) {
  // LeetGPU's starters until mid-2025: solve.h (which brought the CUDA headers and <cstdint>) and a definition
  // without extern "C".
  auto r = build("#include \"solve.h\"\n"
                 "static_assert(sizeof(int64_t) == 8 && sizeof(size_t) == 8, \"solve.h brings <cstdint>, <cstddef>\");\n"
                 "__device__ __half judge_test_half;  // and <cuda_fp16.h>\n" +
                 vadd_with("void solve(const float* A, const float* B, float* C, int N)"));
  EXPECT_TRUE(r.ok) << r.diagnostics;
}

TEST_F(Build, SolveHeaderFormWithExternCDefinitionBuilds) {
  auto r = build("#include \"solve.h\"\n" +
                 vadd_with("extern \"C\" void solve(const float* A, const float* B, float* C, int N)"));
  EXPECT_TRUE(r.ok) << r.diagnostics;
}

TEST_F(Build, PlainCppLinkageWithoutSolveHeaderBuilds) {
  auto r = build("#include <cuda_runtime.h>\n" + vadd_with("void solve(const float* A, const float* B, float* C, int N)"));
  EXPECT_TRUE(r.ok) << r.diagnostics;
}

TEST_F(Build, WiderScalarsAndNonConstInputsBuild) {
  // LeetGPU's own harness passes a size_t for vector_add's N; constness never mattered through ctypes.
  for (const char* declaration :
       {"extern \"C\" void solve(const float* A, const float* B, float* C, size_t N)",
        "extern \"C\" void solve(const float* A, const float* B, float* C, long N)",
        "extern \"C\" void solve(const float* A, const float* B, float* C, unsigned N)",
        "extern \"C\" void solve(const float* A, const float* B, float* C, int64_t N)",
        "void solve(float* A, float* B, float* C, const long long N)"}) {
    SCOPED_TRACE(declaration);
    auto r = build("#include <cstdint>\n#include <cstddef>\n" + vadd_with(declaration));
    EXPECT_TRUE(r.ok) << r.diagnostics;
  }
}

// A compile error whose diagnostics name the generated call and say what the judge calls and what may differ.
void expect_signature_error(const judge::BuildResult& r) {
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("extern \"C\" void solve(const float* A, const float* B, float* C, int N)"),
            std::string::npos)
      << r.diagnostics;
  EXPECT_NE(r.diagnostics.find("Scalars may be declared wider"), std::string::npos) << r.diagnostics;
}

TEST_F(Build, NarrowerScalarIsACompileErrorAtTheGeneratedCall) {
  for (const char* type : {"short", "float", "char", "bool"}) {
    SCOPED_TRACE(type);
    auto r = build(std::string("extern \"C\" void solve(const float* A, const float* B, float* C, ") + type +
                   " N) {}\n");
    expect_signature_error(r);
    EXPECT_NE(r.diagnostics.find(judge::kGlueCallName), std::string::npos) << r.diagnostics;
    // The proxy's name in nvcc's message says what it is.
    EXPECT_NE(r.diagnostics.find("judge_scalar_arg<int>"), std::string::npos) << r.diagnostics;
    EXPECT_EQ(r.diagnostics.find("tmp-"), std::string::npos) << "a temporary path leaked:\n" << r.diagnostics;
  }
}

TEST_F(Build, WrongPointerTypeIsACompileError) {
  auto r = build("extern \"C\" void solve(const double* A, const float* B, float* C, int N) {}\n");
  expect_signature_error(r);
  EXPECT_NE(r.diagnostics.find(judge::kGlueCallName), std::string::npos) << r.diagnostics;
}

TEST_F(Build, SolveHeaderAndAnotherOverloadIsACompileError) {
  // solve.h declares the int version; a size_t definition is then a second overload, and the call is ambiguous.
  auto r = build("#include \"solve.h\"\nvoid solve(const float* A, const float* B, float* C, size_t N) {}\n");
  expect_signature_error(r);
}

TEST_F(Build, DeclaredButUndefinedSolveDoesNotLink) {
  auto r = build("#include \"solve.h\"\n");
  expect_signature_error(r);
}

TEST_F(Build, FloatScalarMayBeDeclaredDoubleButNotInt) {
  judge::Challenge scale = judge::parse_challenge(kScaleSpec, "scale/spec.json");
  auto wide = build_for(scale, "extern \"C\" void solve(const float* x, float* y, double alpha, size_t N) {}\n");
  EXPECT_TRUE(wide.ok) << wide.diagnostics;
  // Floating to integer is never lossless.
  auto narrow = build_for(scale, "extern \"C\" void solve(const float* x, float* y, int alpha, int N) {}\n");
  EXPECT_FALSE(narrow.ok);
  EXPECT_NE(narrow.diagnostics.find("judge_scalar_arg<float>"), std::string::npos) << narrow.diagnostics;
}

// The built library, loaded without a GPU: a solve() that only does host work shows what judge_entry passes.
class Loaded {
 public:
  explicit Loaded(const std::filesystem::path& library) {
    handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw std::runtime_error(std::string("dlopen: ") + dlerror());
    entry_ = reinterpret_cast<void (*)(void* const*)>(dlsym(handle_, "judge_entry"));
  }
  // Never dlclose'd, like the worker's Solution: unloading a CUDA module at exit gains nothing and risks teardown
  // order trouble in the CUDA runtime.
  bool has_entry() const { return entry_ != nullptr; }
  // vector_add's arguments: the judge passes a pointer to each buffer pointer and to each scalar.
  void call(const float* a, const float* b, float* c, int n) const {
    const void* pa = a;
    const void* pb = b;
    void* pc = c;
    void* const args[] = {&pa, &pb, &pc, &n};
    entry_(args);
  }

 private:
  void* handle_ = nullptr;
  void (*entry_)(void* const*) = nullptr;
};

TEST_F(Build, JudgeEntryPassesBuffersAndWidenedScalars) {
  auto r = build("#include <cstddef>\n"
                 "void solve(float* A, const float* B, float* C, size_t N) {\n"
                 "  for (size_t i = 0; i < N; ++i) C[i] = A[i] + B[i];\n"
                 "}\n");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  Loaded lib(r.library);
  ASSERT_TRUE(lib.has_entry());
  float a[3] = {1, 2, 3}, b[3] = {10, 20, 30}, c[3] = {0, 0, 0};
  lib.call(a, b, c, 3);
  EXPECT_EQ(c[0], 11);
  EXPECT_EQ(c[1], 22);
  EXPECT_EQ(c[2], 33);
}

TEST_F(Build, NegativeValueForAnUnsignedParameterThrowsNamingIt) {
  auto r = build("extern \"C\" void solve(const float* A, const float* B, float* C, unsigned N) { C[0] = N; }\n");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  Loaded lib(r.library);
  ASSERT_TRUE(lib.has_entry());
  float a = 0, b = 0, c = -1;
  lib.call(&a, &b, &c, 7);
  EXPECT_EQ(c, 7);
  try {
    lib.call(&a, &b, &c, -3);
    FAIL() << "a negative N reached an unsigned parameter";
  } catch (const std::exception& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("N is -3"), std::string::npos) << what;
    EXPECT_NE(what.find("unsigned"), std::string::npos) << what;
  }
  EXPECT_EQ(c, 7) << "solve() ran although its argument could not be passed";
}

TEST_F(Build, MissingSolveIsRejected) {
  auto r = build("extern \"C\" void solve_v2(const float*, const float*, float*, int) {}\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("solve"), std::string::npos) << r.diagnostics;
}

TEST_F(Build, SyntaxErrorPointsAtTheUsersLine) {
  auto r = build("#include <cuda_runtime.h>\n\n\nint x = ;\n", "broken.cu");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("broken.cu(4)"), std::string::npos) << r.diagnostics;
  EXPECT_NE(r.diagnostics.find("error"), std::string::npos);
}

TEST_F(Build, HeadersBesideTheSourceArePartOfTheCacheKey) {
  write_file(dir_ / "helper.cuh", "#define SCALE 1\n");
  std::string src = "#include \"helper.cuh\"\n" + std::string(kGood);
  auto first = build(src);
  ASSERT_TRUE(first.ok) << first.diagnostics;
  write_file(dir_ / "helper.cuh", "#define SCALE 2\n");
  auto second = build(src);
  ASSERT_TRUE(second.ok);
  EXPECT_FALSE(second.cached);
}

// ptxas's -v report gives each kernel's registers, spills and shared memory (shown beside the kernels solve()
// launched), and stays out of the diagnostics, which are for warnings and errors: a clean build has none. A cached
// build gives the same report.
TEST_F(Build, PtxasReportNamesEachKernelsResourcesAndStaysOutOfTheDiagnostics) {
  const std::string src = R"(#include <cuda_runtime.h>
__global__ void __launch_bounds__(1024, 1) heavy(const float* a, float* out, int n) {
  float acc[96];
#pragma unroll
  for (int i = 0; i < 96; ++i) acc[i] = a[i * n + threadIdx.x];
#pragma unroll
  for (int r = 1; r < 4; ++r)
#pragma unroll
    for (int i = 0; i < 96; ++i) acc[i] = fmaf(acc[i], acc[(i + r) % 96], acc[(i + 7 * r) % 96]);
  float s = 0;
#pragma unroll
  for (int i = 0; i < 96; ++i) s += acc[i] * (i + 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void tiled(const float* a, float* out) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.x * 32 + threadIdx.y] = tile[threadIdx.x][threadIdx.y];
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  heavy<<<1, 1024>>>(A, C, N);
  tiled<<<1, dim3(32, 32)>>>(B, C);
}
)";
  for (bool cached : {false, true}) {
    SCOPED_TRACE(cached ? "cached" : "fresh");
    auto r = build(src);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(r.cached, cached);
    EXPECT_EQ(r.diagnostics.find("ptxas info"), std::string::npos) << r.diagnostics;
    EXPECT_EQ(r.diagnostics.find("bytes stack frame"), std::string::npos) << r.diagnostics;
    const judge::PtxasKernel* heavy = judge::find_ptxas_kernel(r.ptxas, "_Z5heavyPKfPfi", "sm_75");
    ASSERT_NE(heavy, nullptr) << r.ptxas.size() << " kernels in the report";
    EXPECT_EQ(heavy->arch, "sm_75");
    EXPECT_EQ(heavy->registers, 64) << "__launch_bounds__(1024, 1): 65536 registers / 1024 threads";
    EXPECT_TRUE(heavy->spills()) << "96 live values do not fit in 64 registers";
    const judge::PtxasKernel* tiled = judge::find_ptxas_kernel(r.ptxas, "_Z5tiledPKfPf", "sm_75");
    ASSERT_NE(tiled, nullptr);
    EXPECT_EQ(tiled->shared_bytes, 32 * 33 * 4);
    EXPECT_FALSE(tiled->spills());
  }
  EXPECT_TRUE(build(kGood).diagnostics.empty()) << "a clean build says nothing";
}

// The compile sandbox (sandbox/confine.hpp): nvcc reads the submission, its headers, the toolkit and the system's
// headers, nothing else. A submission that includes or embeds another file fails to build, and the diagnostics never
// carry that file's contents. Without Landlock or bubblewrap the build says it was not sandboxed, and these skip.
class CompileSandbox : public Build {
 protected:
  void SetUp() override {
    Build::SetUp();
    if (IsSkipped()) return;
    if (judge::landlock_support().abi == 0 && !judge::bwrap_trial().works)
      GTEST_SKIP() << "neither Landlock (" << judge::landlock_support().why << ") nor bubblewrap ("
                   << judge::bwrap_trial().why << ") is available to sandbox nvcc here";
    auto probe = build(kGood, "probe.cu");
    ASSERT_TRUE(probe.ok) << probe.diagnostics;
    ASSERT_TRUE(probe.sandbox == "landlock" || probe.sandbox == "bubblewrap") << probe.sandbox;
    auto cached = build(kGood, "probe.cu");
    EXPECT_TRUE(cached.cached);
    EXPECT_EQ(cached.sandbox, probe.sandbox) << "a cached build says how it was built";
  }

  void expect_refused(const std::string& source, const std::string& name) {
    auto r = build(source, name);
    EXPECT_FALSE(r.ok) << "built although it reads another file:\n" << source;
    EXPECT_EQ(r.diagnostics.find("root:x:0:0"), std::string::npos) << "/etc/passwd leaked:\n" << r.diagnostics;
    EXPECT_EQ(r.diagnostics.find("root:"), std::string::npos) << r.diagnostics;
  }
};

TEST_F(CompileSandbox, IncludeOfASystemFileFailsWithoutQuotingIt) {
  expect_refused("#include \"/etc/passwd\"\n" + std::string(kGood), "include_passwd.cu");
  expect_refused("#include \"/root/anything\"\n" + std::string(kGood), "include_root.cu");
  expect_refused("#include \"../../../../../../../../etc/passwd\"\n" + std::string(kGood), "include_relative.cu");
}

TEST_F(CompileSandbox, IncbinInHostOrDeviceAssemblyFails) {
  expect_refused("asm(\".section .rodata\\n.global judge_leak\\njudge_leak:\\n.incbin \\\"/etc/passwd\\\"\\n"
                 ".byte 0\\n.previous\\n\");\n" + std::string(kGood),
                 "incbin_host.cu");
  expect_refused("__device__ void leak() { asm volatile(\".incbin \\\"/etc/passwd\\\"\"); }\n"
                 "__global__ void leak_kernel() { leak(); }\n" + std::string(kGood),
                 "incbin_device.cu");
  expect_refused(
      "void leak() { asm volatile(\".pushsection .rodata\\n.incbin \\\"/etc/passwd\\\"\\n.popsection\"); }\n" +
          std::string(kGood),
      "incbin_function.cu");
}

// A header beside the submission that is a symlink is not copied for nvcc: the judge would otherwise read the file it
// points to with its own rights.
TEST_F(CompileSandbox, SymlinkedHeaderBesideTheSourceIsNotFollowed) {
  std::filesystem::create_symlink("/etc/passwd", dir_ / "leak.h");
  expect_refused("#include \"leak.h\"\n" + std::string(kGood), "include_symlink.cu");
}

// Everything a submission legitimately includes still builds in the sandbox: system and CUDA headers, cuBLAS, CUB,
// half precision, solve.h and a header of its own.
TEST_F(CompileSandbox, LibrariesAndOwnHeadersStillBuild) {
  write_file(dir_ / "tile.cuh", "#pragma once\nconstexpr int kTile = 32;\n");
  auto r = build(R"(#include "solve.h"
#include "tile.cuh"
#include <cstdio>
#include <vector>
#include <cublas_v2.h>
#include <cub/cub.cuh>
#include <cuda_fp16.h>
__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i] + __half2float(__float2half(0.f)) * kTile;
}
void solve(const float* A, const float* B, float* C, int N) {
  cublasHandle_t h;
  cublasCreate(&h);
  cublasDestroy(h);
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
}
)",
                 "libraries.cu");
  EXPECT_TRUE(r.ok) << r.diagnostics;
}

// Diagnostics still name the user's own file and line, not the copy nvcc compiled.
TEST_F(CompileSandbox, DiagnosticsNameTheUsersFile) {
  auto r = build(std::string(kGood) + "int broken = ;\n", "named.cu");
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find((dir_ / "named.cu").string() + "(10)"), std::string::npos) << r.diagnostics;
  EXPECT_EQ(r.diagnostics.find("tmp-"), std::string::npos) << r.diagnostics;
}

TEST_F(Build, UnreadableSourceIsAnErrorNamingTheFile) {
  judge::BuildRequest req;
  req.source = dir_ / "nope.cu";
  req.cache_dir = dir_ / "cache";
  req.nvcc = nvcc_;
  try {
    judge::build_solution(challenge_, req);
    FAIL() << "expected an error";
  } catch (const judge::Error& e) {
    EXPECT_NE(std::string(e.what()).find("nope.cu"), std::string::npos) << e.what();
  }
}

}  // namespace
