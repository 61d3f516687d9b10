// The build step needs nvcc but no GPU, so it runs in CI: good code builds (and is cached), a wrong signature is
// rejected with the expected one in the message, a syntax error points at the user's line.
#include <gtest/gtest.h>

#include "judge/core/build.hpp"
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
    auto path = dir_ / name;
    write_file(path, source);
    judge::BuildRequest req;
    req.source = path;
    req.arch = "sm_75";  // any architecture compiles without a GPU; the oldest supported one is the quickest
    req.cache_dir = dir_ / "cache";
    req.nvcc = nvcc_;
    return judge::build_solution(challenge_, req);
  }

  TempDir dir_;
  std::string nvcc_;
  judge::Challenge challenge_;
};

TEST_F(Build, GlueDeclaresTheExpectedSignatureBeforeTheUsersCode) {
  std::string glue = judge::make_glue(challenge_, "/x/solve.cu");
  auto decl = glue.find("extern \"C\" void solve(const float* A, const float* B, float* C, int N);");
  auto include = glue.find("#include \"/x/solve.cu\"");
  ASSERT_NE(decl, std::string::npos) << glue;
  ASSERT_NE(include, std::string::npos) << glue;
  EXPECT_LT(decl, include);
  EXPECT_NE(glue.find("judge_entry"), std::string::npos);
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

TEST_F(Build, WrongSignatureIsRejectedWithTheExpectedOne) {
  auto r = build(R"(#include <cuda_runtime.h>
extern "C" void solve(const float* A, const float* B, float* C, long N) {}
)");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("solve.cu(2)"), std::string::npos) << r.diagnostics;
  EXPECT_NE(r.diagnostics.find("extern \"C\" void solve(const float* A, const float* B, float* C, int N)"),
            std::string::npos)
      << r.diagnostics;
}

TEST_F(Build, SolveWithCppLinkageAndOtherTypesDoesNotLink) {
  // Not extern "C" and different types: an overload, so the expected solve() is never defined.
  auto r = build("void solve(float* A, float* B, float* C, int N) {}\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("The judge expects exactly this declaration"), std::string::npos) << r.diagnostics;
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
