// The sanitizer component without a GPU: which compute-sanitizer is found, the command line put in front of the
// worker, and the reading of compute-sanitizer's reports. The reports are real ones, from the places named above
// each: mostly the Compute Sanitizer manual (docs.nvidia.com/compute-sanitizer/ComputeSanitizer, chapter "Compute
// Sanitizer Tool Examples" and the sections on each tool). The manual's copy loses the indentation of detail lines;
// it is restored here as the tool prints it ("=========     at ..."), and one test reads the flattened form too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/base/error.hpp"
#include "judge/core/run/sanitizer.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::SanitizerReport;
using judge::SanitizerTool;
using judge::testing::TempDir;
using judge::testing::write_file;

// ---- samples --------------------------------------------------------------------------------------------------------

// Manual, "memcheck_demo Output with Memcheck (Debug Build)": two invalid writes, the second inside a __device__
// function (its caller in the Device Frame line), the program's own lines in between.
const char* kMemcheckDebug = R"(========= COMPUTE-SANITIZER
Mallocing memory
========= Invalid __global__ write of size 4 bytes
=========     at unaligned_kernel()+0x100 in memcheck_demo.cu:34
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x7cc43aa00001 is misaligned
=========     and is inside the nearest allocation at 0x7cc43aa00000 of size 4 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: run_unaligned() [0xacd4] in memcheck_demo
=========         Host Frame: main [0xae61] in memcheck_demo
=========
Running unaligned_kernel: no error
========= Invalid __global__ write of size 4 bytes
=========     at out_of_bounds_function()+0xb0 in memcheck_demo.cu:39
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x87654320 is out of bounds
=========     and is 137,179,965,340,896 bytes before the nearest allocation at 0x7cc43a800000 of size 1,024 bytes
=========     Device Frame: out_of_bounds_kernel()+0x30 in memcheck_demo.cu:44
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: run_out_of_bounds() [0xadb6] in memcheck_demo
=========         Host Frame: main [0xae66] in memcheck_demo
=========
Running out_of_bounds_kernel: no error
========= ERROR SUMMARY: 2 errors
)";

// Manual, "memcheck_demo Output with Memcheck (Release Build)": no line information.
const char* kMemcheckRelease = R"(========= COMPUTE-SANITIZER
Mallocing memory
========= Invalid __global__ write of size 4 bytes
=========     at unaligned_kernel()+0x50
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x710fdca00001 is misaligned
=========     and is inside the nearest allocation at 0x710fdca00000 of size 4 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: run_unaligned() [0xacd4] in memcheck_demo
=========         Host Frame: main [0xae61] in memcheck_demo
=========
Running unaligned_kernel: no error
========= ERROR SUMMARY: 1 error
)";

// Manual, "Example Use of Racecheck / Block-level Hazards" (--racecheck-report analysis).
const char* kRacecheckBlock = R"(========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at sumKernel(int *, int *)+0x90 in /home/cuda/github/compute-sanitizer-samples/Racecheck/block_error.cu:41
=========     and Read access at sumKernel(int *, int *)+0x100 in /home/cuda/github/compute-sanitizer-samples/Racecheck/block_error.cu:51 [508 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
)";

// NVIDIA/nsight-training, "Debugging A Simple Image Processing Program Using The Compute Sanitizer / 05 Racecheck":
// an older release's site format ("0xPC in FILE:LINE:FUNCTION"), one race with several writers, program output in
// front. (Its last lines are cut where the stored copy ends.)
const char* kRacecheckOlder = R"(========= COMPUTE-SANITIZER
Image ./checkerboard.png size: 32 * 32
Grid size: 2 * 2 * 1
Block size: 31 * 31 * 1
========= ERROR: Race reported between Read access at 0x6360 in /home/nvidia/sanitizer-demo/convolution.cu:123:convolution(pixel const*, int, int, float const*, int, pixel*)
=========     and Write access at 0x1fe0 in /home/nvidia/sanitizer-demo/convolution.cu:63:convolution(pixel const*, int, int, float const*, int, pixel*) [1088 hazards]
=========     and Write access at 0x26d0 in /home/nvidia/sanitizer-demo/convolution.cu:68:convolution(pixel const*, int, int, float const*, int, pixel*) [64 hazards]
=========
)";

// Manual, "Understanding Racecheck Analysis Reports" (a WARNING-level race; "raceGroupBasic:46" is as printed there)
// and the racecheck summary of the mojo-gpu-puzzles walk-through (puzzle 10) with the counts changed to a warning.
const char* kRacecheckWarning = R"(========= COMPUTE-SANITIZER
========= WARNING: Race reported between Write access at RAW()+0xf0 in raceGroupBasic.cu:40
=========     and Read access at RAW()+0x280 in raceGroupBasic:46 [4 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)
)";

// Manual, "Understanding Racecheck Hazard Reports" (--racecheck-report hazard).
const char* kRacecheckHazard = R"(========= ERROR: Potential WAW hazard detected at __shared__ 0x0 in block (0,0,0) :
=========     Write Thread (0,0,0) at WAW()+0x2f0 in raceWAW.cu:20
=========     Write Thread (1,0,0) at WAW()+0x2f0 in raceWAW.cu:20
=========     Current Value : 1, Incoming Value : 2
=========
)";

// Manual, "Example Use of Initcheck / Memset Error" (followed here by the summary line of the manual's initcheck
// suppression example).
const char* kInitcheck = R"(========= COMPUTE-SANITIZER
========= Uninitialized __global__ memory read of size 4 bytes
=========     at vectorAdd(int *)+0x70 in /home/cuda/github/compute-sanitizer-samples/Initcheck/memset_error.cu:41
=========     by thread (31,0,0) in block (1,0,0)
=========     Address 0x7f3c7ec000fc
=========
========= ERROR SUMMARY: 1 error
)";

// Manual, "Example Use of Synccheck / Divergent Threads": the barrier is in a function outlined from the kernel.
const char* kSynccheckDivergent = R"(========= COMPUTE-SANITIZER
========= Barrier error detected. Divergent thread(s) in block.
=========     at [clone myKernel(int *, int *)] outlineSync()+0x11f0 in test.cu:42
=========     by thread (32,0,0) in block (0,0,0)
=========     Device Frame: myKernel(int *, int *)+0xe40 in test.cu:60
=========
========= Barrier error detected. Divergent thread(s) in block.
=========     at [clone myKernel(int *, int *)] outlineSync()+0x11f0 in test.cu:42
=========     by thread (33,0,0) in block (0,0,0)
=========     Device Frame: myKernel(int *, int *)+0xe40 in test.cu:60
=========
========= ERROR SUMMARY: 32 errors
)";

// Manual, "Example Use of Synccheck / Illegal Syncwarp": the fault is in CUDA's own code, the user's line is the
// outermost device frame ("Device Frame:" without a blank, as printed there).
const char* kSynccheckSyncwarp = R"(========= Barrier error detected. Invalid arguments
=========     at __cuda_sm70_warpsync+0x30
=========     by thread (0,0,0) in block (0,0,0)
=========     Device Frame:__syncwarp(unsigned int)+0xf0 in /usr/local/cuda/include/sm_30_intrinsics.hpp:110
=========     Device Frame:myKernel(int *)+0x3c0 in /home/cuda/github/compute-sanitizer-samples/Synccheck/illegal_syncwarp.cu:48
=========
)";

// Manual, "Example Use of Suppressions": a run with nothing to report.
const char* kClean = R"(========= COMPUTE-SANITIZER
========= ERROR SUMMARY: 0 errors
)";

// NVIDIA/compute-sanitizer-samples, NvtxPermissions/README.md: no line information, the site as "0xPC in KERNEL";
// the same read twice.
const char* kNvtxPermissions = R"(========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at 0x90 in IncrementTwice(unsigned int*)
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x7f6f67000000 is not writable
=========
========= Invalid __global__ read of size 4 bytes
=========     at 0x20 in IncrementTwice(unsigned int*)
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x7f6f67000000 is not readable
=========
========= Invalid __global__ read of size 4 bytes
=========     at 0x20 in IncrementTwice(unsigned int*)
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x7f6f67000000 is not readable
=========
========= Invalid __global__ atomic of size 4 bytes
=========     at 0xa0 in IncrementTwice(unsigned int*)
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x7f6f67000000 is not readable/writable with atomic operations
=========
========= ERROR SUMMARY: 4 errors
)";

// The manual's first memcheck sample ("Understanding Memcheck Errors", an older release's "KERNEL:0xPC" form) and
// its CUDA API error sample, as the stored copy of the manual shows them: every blank after the prefix collapsed.
const char* kFlattened = R"(========= Invalid __global__ write of size 4 bytes
========= at unaligned_kernel():0x160 in memcheck_demo.cu:6
========= by thread (0,0,0) in block (0,0,0)
========= Address 0x7f6510c00001 is misaligned
========= Program hit invalid copy direction for memcpy (error 21) on CUDA API call to cudaMemcpy.
)";

// The summary of a run past --print-limit, as quoted from a real run in morluto/flameox issue #472.
const char* kPrintLimit = R"(========= ERROR SUMMARY: 133 errors
========= ERROR SUMMARY: 33 errors were not printed. Use --print-limit option to adjust the number of printed errors
)";

// A report in the documented memcheck form for a judge submission (solve.cu, built with -lineinfo): the grid covers
// 8 threads for N = 7 and the kernel has no bounds check.
const char* kSolveSource = R"(#include <cuda_runtime.h>
__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  C[i] = A[i] + B[i];
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 7) / 8, 8>>>(A, B, C, N);
}
)";
const char* kSolveReport = R"(========= COMPUTE-SANITIZER
========= Invalid __global__ read of size 4 bytes
=========     at add(const float *, const float *, float *, int)+0x70 in solve.cu:4
=========     by thread (7,0,0) in block (0,0,0)
=========     Address 0x7f5c92600fa0 is out of bounds
=========     and is 0 bytes after the nearest allocation at 0x7f5c92600f80 of size 28 bytes
=========
case t1: wrong answer
========= ERROR SUMMARY: 1 error
)";

// ---- environment ----------------------------------------------------------------------------------------------------

// Sets (or unsets, with nullopt) an environment variable for one test and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

fs::path fake_tool(const fs::path& path) {
  fs::create_directories(path.parent_path());
  write_file(path, "#!/bin/sh\nexit 0\n");
  fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
  return path;
}

bool system_sanitizer_present() {
  for (const char* p : {"/usr/local/cuda/bin/compute-sanitizer", "/usr/local/cuda/compute-sanitizer/compute-sanitizer"})
    if (fs::exists(p)) return true;
  return false;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The value after `flag` in argv, or "" when the flag is absent.
std::string value_of(const std::vector<std::string>& argv, const std::string& flag) {
  auto it = std::find(argv.begin(), argv.end(), flag);
  return it != argv.end() && it + 1 != argv.end() ? *(it + 1) : "";
}

// ---- tools ----------------------------------------------------------------------------------------------------------

TEST(SanitizerTool, NamesRoundTrip) {
  for (SanitizerTool t :
       {SanitizerTool::memcheck, SanitizerTool::racecheck, SanitizerTool::initcheck, SanitizerTool::synccheck}) {
    auto parsed = judge::parse_sanitizer_tool(judge::to_string(t));
    ASSERT_TRUE(parsed) << judge::to_string(t);
    EXPECT_EQ(*parsed, t);
  }
  EXPECT_EQ(judge::to_string(SanitizerTool::racecheck), "racecheck");
  EXPECT_FALSE(judge::parse_sanitizer_tool("leakcheck"));
  EXPECT_FALSE(judge::parse_sanitizer_tool("Memcheck"));
  EXPECT_FALSE(judge::parse_sanitizer_tool(""));
}

// ---- finding compute-sanitizer ----------------------------------------------------------------------------------

TEST(FindComputeSanitizer, EnvironmentVariableWins) {
  TempDir dir;
  fs::path tool = fake_tool(dir / "mine" / "compute-sanitizer");
  ScopedEnv env("JUDGE_COMPUTE_SANITIZER", tool.string());
  EXPECT_EQ(judge::find_compute_sanitizer(), tool.string());
}

TEST(FindComputeSanitizer, EnvironmentVariableNamingNothingIsAnError) {
  TempDir dir;
  for (const fs::path& bad : {dir / "missing", dir.path()}) {  // no such file; a directory
    ScopedEnv env("JUDGE_COMPUTE_SANITIZER", bad.string());
    try {
      judge::find_compute_sanitizer();
      FAIL() << "no error for " << bad;
    } catch (const judge::Error& e) {
      std::string message = e.what();
      EXPECT_NE(message.find("JUDGE_COMPUTE_SANITIZER"), std::string::npos) << message;
      EXPECT_NE(message.find(bad.string()), std::string::npos) << message;
    }
  }
}

TEST(FindComputeSanitizer, SearchesPathSkippingDirectories) {
  TempDir dir;
  fs::create_directories(dir / "a" / "compute-sanitizer");  // a directory of that name, as in a toolkit's root
  fs::path tool = fake_tool(dir / "b" / "compute-sanitizer");
  ScopedEnv env("JUDGE_COMPUTE_SANITIZER", std::nullopt);
  ScopedEnv path("PATH", (dir / "a").string() + ":" + (dir / "b").string());
  EXPECT_EQ(judge::find_compute_sanitizer(), tool.string());
}

TEST(FindComputeSanitizer, LooksBesideNvcc) {
  TempDir dir;
  fs::path nvcc = fake_tool(dir / "cuda" / "bin" / "nvcc");
  ScopedEnv env("JUDGE_COMPUTE_SANITIZER", std::nullopt);
  ScopedEnv path("PATH", (dir / "empty").string());
  ScopedEnv nvcc_env("JUDGE_NVCC", nvcc.string());
  // The toolkit's own layout: <cuda>/compute-sanitizer/compute-sanitizer ...
  fs::path in_toolkit = fake_tool(dir / "cuda" / "compute-sanitizer" / "compute-sanitizer");
  EXPECT_EQ(judge::find_compute_sanitizer(), in_toolkit.string());
  // ... and <cuda>/bin/compute-sanitizer, which comes first.
  fs::path in_bin = fake_tool(dir / "cuda" / "bin" / "compute-sanitizer");
  EXPECT_EQ(judge::find_compute_sanitizer(), in_bin.string());
}

TEST(FindComputeSanitizer, NoneIsAnErrorThatSaysWhatToDo) {
  if (system_sanitizer_present()) GTEST_SKIP() << "this machine has a compute-sanitizer in /usr/local/cuda";
  TempDir dir;
  ScopedEnv env("JUDGE_COMPUTE_SANITIZER", std::nullopt);
  ScopedEnv path("PATH", (dir / "empty").string());
  ScopedEnv nvcc_env("JUDGE_NVCC", fake_tool(dir / "bin" / "nvcc").string());
  try {
    judge::find_compute_sanitizer();
    FAIL() << "found a compute-sanitizer where there is none";
  } catch (const judge::Error& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("cannot find compute-sanitizer"), std::string::npos) << message;
    EXPECT_NE(message.find("JUDGE_COMPUTE_SANITIZER"), std::string::npos) << message;
    EXPECT_NE(message.find("PATH"), std::string::npos) << message;
  }
}

// ---- the command line -------------------------------------------------------------------------------------------

TEST(SanitizerPrefix, CommonOptions) {
  for (SanitizerTool t :
       {SanitizerTool::memcheck, SanitizerTool::racecheck, SanitizerTool::initcheck, SanitizerTool::synccheck}) {
    auto argv = judge::sanitizer_prefix("/opt/cs/compute-sanitizer", t);
    SCOPED_TRACE(std::string(judge::to_string(t)));
    ASSERT_GE(argv.size(), 3u);
    EXPECT_EQ(argv.front(), "/opt/cs/compute-sanitizer");
    EXPECT_EQ(argv.back(), "--");  // the worker's argv follows; nothing of it is read as an option
    EXPECT_EQ(value_of(argv, "--tool"), judge::to_string(t));
    EXPECT_EQ(value_of(argv, "--error-exitcode"), std::to_string(judge::kSanitizerErrorExitCode));
    EXPECT_EQ(value_of(argv, "--prefix"), "=========");
    EXPECT_EQ(value_of(argv, "--show-backtrace"), "device");
    EXPECT_EQ(value_of(argv, "--target-processes"), "all");
    EXPECT_EQ(value_of(argv, "--destroy-on-device-error"), "kernel");
    EXPECT_EQ(value_of(argv, "--check-exit-code"), "no");
    EXPECT_FALSE(value_of(argv, "--print-limit").empty());
    EXPECT_FALSE(value_of(argv, "--launch-timeout").empty());
    EXPECT_FALSE(contains(argv, "--leak-check"));
    EXPECT_FALSE(contains(argv, "--log-file"));
    EXPECT_EQ(std::count(argv.begin(), argv.end(), "--tool"), 1);
  }
  for (int worker_code : {0, 1, 2, 64}) EXPECT_NE(judge::kSanitizerErrorExitCode, worker_code);
}

TEST(SanitizerPrefix, ToolSpecificOptions) {
  auto memcheck = judge::sanitizer_prefix("cs", SanitizerTool::memcheck);
  EXPECT_EQ(value_of(memcheck, "--padding"), "65536");
  EXPECT_FALSE(contains(memcheck, "--racecheck-report"));

  auto racecheck = judge::sanitizer_prefix("cs", SanitizerTool::racecheck);
  EXPECT_EQ(value_of(racecheck, "--racecheck-report"), "analysis");
  EXPECT_FALSE(contains(racecheck, "--padding"));

  for (SanitizerTool t : {SanitizerTool::initcheck, SanitizerTool::synccheck}) {
    auto argv = judge::sanitizer_prefix("cs", t);
    EXPECT_FALSE(contains(argv, "--padding"));
    EXPECT_FALSE(contains(argv, "--racecheck-report"));
  }
}

TEST(SanitizerPrefix, LogFileEscapesPercent) {
  auto argv = judge::sanitizer_prefix("cs", SanitizerTool::memcheck, "/tmp/run 100%/sanitizer.log");
  EXPECT_EQ(value_of(argv, "--log-file"), "/tmp/run 100%%/sanitizer.log");
  EXPECT_EQ(argv.back(), "--");
}

// ---- reading reports --------------------------------------------------------------------------------------------

TEST(ParseSanitizerOutput, MemcheckWithLineInformation) {
  SanitizerReport r = judge::parse_sanitizer_output(kMemcheckDebug, "memcheck_demo.cu");
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.errors, 2);
  EXPECT_EQ(r.summary_line, "ERROR SUMMARY: 2 errors");
  ASSERT_EQ(r.findings.size(), 2u);

  const auto& a = r.findings[0];
  EXPECT_EQ(a.kind, "Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(a.kernel, "unaligned_kernel()");
  EXPECT_EQ(a.location, "memcheck_demo.cu:34");
  EXPECT_EQ(a.line, 34);
  EXPECT_TRUE(a.related_lines.empty());
  EXPECT_EQ(a.detail,
            "by thread (0,0,0) in block (0,0,0)\n"
            "Address 0x7cc43aa00001 is misaligned\n"
            "and is inside the nearest allocation at 0x7cc43aa00000 of size 4 bytes");
  EXPECT_EQ(a.occurrences, 1);
  EXPECT_EQ(a.raw.find("========= Invalid __global__ write"), 0u);
  EXPECT_NE(a.raw.find("Host Frame: main [0xae61]"), std::string::npos);  // raw keeps everything printed

  const auto& b = r.findings[1];
  EXPECT_EQ(b.kernel, "out_of_bounds_kernel()");  // the kernel, not the __device__ function it called
  EXPECT_EQ(b.location, "memcheck_demo.cu:39");
  EXPECT_EQ(b.line, 39);
  EXPECT_EQ(b.related_lines, std::vector<int>{44});  // the call site in the kernel
  EXPECT_EQ(b.detail.find("Host Frame"), std::string::npos);
  EXPECT_EQ(b.detail.find("Device Frame"), std::string::npos);
  EXPECT_NE(b.detail.find("is out of bounds"), std::string::npos);
}

TEST(ParseSanitizerOutput, MemcheckWithoutLineInformation) {
  SanitizerReport r = judge::parse_sanitizer_output(kMemcheckRelease, "memcheck_demo.cu");
  EXPECT_EQ(r.errors, 1);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kernel, "unaligned_kernel()");
  EXPECT_EQ(r.findings[0].location, "");
  EXPECT_EQ(r.findings[0].line, 0);
}

TEST(ParseSanitizerOutput, MemcheckSiteAsOffsetInKernel) {
  SanitizerReport r = judge::parse_sanitizer_output(kNvtxPermissions, "NvtxPermissions.cu");
  EXPECT_EQ(r.errors, 4);
  ASSERT_EQ(r.findings.size(), 3u);  // the repeated read is folded into one
  EXPECT_EQ(r.findings[0].kind, "Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(r.findings[1].kind, "Invalid __global__ read of size 4 bytes");
  EXPECT_EQ(r.findings[1].occurrences, 2);
  EXPECT_EQ(r.findings[2].kind, "Invalid __global__ atomic of size 4 bytes");
  for (const auto& f : r.findings) {
    EXPECT_EQ(f.kernel, "IncrementTwice(unsigned int*)");
    EXPECT_EQ(f.location, "");
  }
}

TEST(ParseSanitizerOutput, RacecheckAnalysis) {
  // The user's file given as a path of its own: frames are matched by file name.
  SanitizerReport r = judge::parse_sanitizer_output(kRacecheckBlock, "/home/me/work/block_error.cu");
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.errors, 1);
  EXPECT_EQ(r.warnings, 0);
  EXPECT_EQ(r.summary_line, "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)");
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.kind, "Error: Race reported between Write access and Read access");
  EXPECT_EQ(f.kernel, "sumKernel(int *, int *)");
  EXPECT_EQ(f.location, "/home/cuda/github/compute-sanitizer-samples/Racecheck/block_error.cu:41");
  EXPECT_EQ(f.line, 41);
  EXPECT_EQ(f.related_lines, std::vector<int>{51});
  EXPECT_EQ(f.detail,
            "Write access at /home/cuda/github/compute-sanitizer-samples/Racecheck/block_error.cu:41\n"
            "and Read access at /home/cuda/github/compute-sanitizer-samples/Racecheck/block_error.cu:51 [508 hazards]");
}

TEST(ParseSanitizerOutput, RacecheckOlderSiteFormatWithSeveralSides) {
  SanitizerReport r = judge::parse_sanitizer_output(kRacecheckOlder, "convolution.cu");
  EXPECT_FALSE(r.complete);  // the sample ends before the summary
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.kind, "ERROR: Race reported between Read access and Write access");
  EXPECT_EQ(f.kernel, "convolution(pixel const*, int, int, float const*, int, pixel*)");
  EXPECT_EQ(f.location, "/home/nvidia/sanitizer-demo/convolution.cu:123");
  EXPECT_EQ(f.line, 123);
  EXPECT_EQ(f.related_lines, (std::vector<int>{63, 68}));
}

TEST(ParseSanitizerOutput, RacecheckWarningsAreCounted) {
  SanitizerReport r = judge::parse_sanitizer_output(kRacecheckWarning, "raceGroupBasic.cu");
  EXPECT_EQ(r.errors, 0);
  EXPECT_EQ(r.warnings, 1);
  EXPECT_FALSE(r.clean());
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, "WARNING: Race reported between Write access and Read access");
  EXPECT_EQ(r.findings[0].line, 40);
  // "raceGroupBasic:46" (as the manual prints it) is not the user's file: no related line from it.
  EXPECT_TRUE(r.findings[0].related_lines.empty());
  EXPECT_NE(r.findings[0].detail.find("and Read access at raceGroupBasic:46 [4 hazards]"), std::string::npos);
}

TEST(ParseSanitizerOutput, RacecheckHazardReport) {
  SanitizerReport r = judge::parse_sanitizer_output(kRacecheckHazard, "raceWAW.cu");
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.kind, "ERROR: Potential WAW hazard detected at __shared__ 0x0 in block (0,0,0)");
  EXPECT_EQ(f.kernel, "WAW()");
  EXPECT_EQ(f.location, "raceWAW.cu:20");
  EXPECT_TRUE(f.related_lines.empty());  // both threads at the same line
  EXPECT_NE(f.detail.find("Write Thread (1,0,0) at raceWAW.cu:20"), std::string::npos);
  EXPECT_NE(f.detail.find("Current Value : 1, Incoming Value : 2"), std::string::npos);
}

TEST(ParseSanitizerOutput, Initcheck) {
  SanitizerReport r = judge::parse_sanitizer_output(kInitcheck, "memset_error.cu");
  EXPECT_EQ(r.errors, 1);
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.kind, "Uninitialized __global__ memory read of size 4 bytes");
  EXPECT_EQ(f.kernel, "vectorAdd(int *)");
  EXPECT_EQ(f.line, 41);
  EXPECT_EQ(f.detail, "by thread (31,0,0) in block (1,0,0)\nAddress 0x7f3c7ec000fc");
}

TEST(ParseSanitizerOutput, SynccheckDivergentThreads) {
  SanitizerReport r = judge::parse_sanitizer_output(kSynccheckDivergent, "test.cu");
  EXPECT_EQ(r.errors, 32);
  ASSERT_EQ(r.findings.size(), 1u);  // the same barrier, other threads
  const auto& f = r.findings[0];
  EXPECT_EQ(f.kind, "Barrier error detected. Divergent thread(s) in block.");
  EXPECT_EQ(f.kernel, "myKernel(int *, int *)");
  EXPECT_EQ(f.location, "test.cu:42");
  EXPECT_EQ(f.related_lines, std::vector<int>{60});
  EXPECT_EQ(f.occurrences, 2);
  EXPECT_EQ(f.detail, "by thread (32,0,0) in block (0,0,0)");  // the first occurrence's
}

TEST(ParseSanitizerOutput, SynccheckUserLineIsAnOuterFrame) {
  SanitizerReport r = judge::parse_sanitizer_output(kSynccheckSyncwarp, "illegal_syncwarp.cu");
  EXPECT_FALSE(r.complete);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, "Barrier error detected. Invalid arguments");
  EXPECT_EQ(r.findings[0].kernel, "myKernel(int *)");
  EXPECT_EQ(r.findings[0].location,
            "/home/cuda/github/compute-sanitizer-samples/Synccheck/illegal_syncwarp.cu:48");
  EXPECT_EQ(r.findings[0].line, 48);

  // Another user file: the location is the first frame with a line, and it is not the user's.
  r = judge::parse_sanitizer_output(kSynccheckSyncwarp, "solve.cu");
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].location, "/usr/local/cuda/include/sm_30_intrinsics.hpp:110");
  EXPECT_EQ(r.findings[0].line, 0);
}

TEST(ParseSanitizerOutput, CleanRun) {
  SanitizerReport r = judge::parse_sanitizer_output(kClean, "solve.cu");
  EXPECT_TRUE(r.complete);
  EXPECT_TRUE(r.clean());
  EXPECT_EQ(r.errors, 0);
  EXPECT_EQ(r.summary_line, "ERROR SUMMARY: 0 errors");
  EXPECT_TRUE(r.findings.empty());
}

TEST(ParseSanitizerOutput, ProgramOutputInterleavedIsIgnored) {
  // The program's lines fall inside and between reports, including ones that look a little like the sanitizer's.
  std::string noisy = std::string("==== case t1 ====\n") +
                      "========= Invalid __global__ write of size 4 bytes\n"
                      "=========     at add(float *)+0x70 in solve.cu:4\n"
                      "printf from the kernel: i = 8\n"
                      "========== not a sanitizer line either\n"
                      "=========     by thread (8,0,0) in block (0,0,0)\n"
                      "=========\n"
                      "Error: this line is the program's\n"
                      "========= ERROR SUMMARY: 1 error\n";
  SanitizerReport r = judge::parse_sanitizer_output(noisy, "solve.cu");
  EXPECT_EQ(r.errors, 1);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].location, "solve.cu:4");
  EXPECT_EQ(r.findings[0].detail, "by thread (8,0,0) in block (0,0,0)");
  EXPECT_EQ(r.findings[0].raw.find("printf"), std::string::npos);
}

TEST(ParseSanitizerOutput, FlattenedReportsAndApiErrors) {
  SanitizerReport r = judge::parse_sanitizer_output(kFlattened, "memcheck_demo.cu");
  EXPECT_FALSE(r.complete);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].kernel, "unaligned_kernel()");
  EXPECT_EQ(r.findings[0].location, "memcheck_demo.cu:6");
  EXPECT_EQ(r.findings[0].detail,
            "by thread (0,0,0) in block (0,0,0)\nAddress 0x7f6510c00001 is misaligned");
  EXPECT_EQ(r.findings[1].kind,
            "Program hit invalid copy direction for memcpy (error 21) on CUDA API call to cudaMemcpy.");
  EXPECT_EQ(r.findings[1].kernel, "");
}

TEST(ParseSanitizerOutput, MoreFindingsThanAsked) {
  std::string out = "========= COMPUTE-SANITIZER\n";
  for (int line = 10; line < 17; ++line)
    for (int thread = 0; thread < 3; ++thread)
      out += "========= Invalid __global__ write of size 4 bytes\n"
             "=========     at k(float *)+0x70 in solve.cu:" + std::to_string(line) + "\n"
             "=========     by thread (" + std::to_string(thread) + ",0,0) in block (0,0,0)\n"
             "=========\n";
  out += kPrintLimit;
  SanitizerReport r = judge::parse_sanitizer_output(out, "solve.cu", 3);
  EXPECT_EQ(r.errors, 133);
  EXPECT_EQ(r.not_printed, 33);
  EXPECT_EQ(r.summary_line, "ERROR SUMMARY: 133 errors");
  ASSERT_EQ(r.findings.size(), 3u);
  EXPECT_EQ(r.omitted, 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(r.findings[i].line, 10 + i);
    EXPECT_EQ(r.findings[i].occurrences, 3);
  }
  std::string text = judge::format_findings(r, "");
  EXPECT_NE(text.find("4 more distinct reports"), std::string::npos) << text;
  EXPECT_NE(text.find("33 more errors"), std::string::npos) << text;
}

TEST(ParseSanitizerOutput, NoSanitizerLinesAtAll) {
  SanitizerReport r = judge::parse_sanitizer_output("hello from solve()\nresult: 42\n", "solve.cu");
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.errors, 0);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(r.summary_line, "");
  EXPECT_EQ(judge::format_findings(r, ""), "compute-sanitizer printed no report: it did not run to its end\n");
  EXPECT_TRUE(judge::parse_sanitizer_output("", "solve.cu").findings.empty());
}

TEST(ParseSanitizerOutput, CarriageReturnsAndChatter) {
  std::string out =
      "========= COMPUTE-SANITIZER\r\n"
      "========= Error: process didn't terminate successfully\r\n"
      "========= Target application returned an error\r\n"
      "========= LEAK SUMMARY: 0 bytes leaked in 0 allocations\r\n"
      "========= ERROR SUMMARY: 0 errors\r\n";
  SanitizerReport r = judge::parse_sanitizer_output(out, "solve.cu");
  EXPECT_TRUE(r.clean());
  EXPECT_EQ(r.summary_line, "ERROR SUMMARY: 0 errors");
}

// ---- human text -------------------------------------------------------------------------------------------------

TEST(FormatFindings, ShowsTheUsersLineWithContext) {
  SanitizerReport r = judge::parse_sanitizer_output(kSolveReport, "/home/me/solve.cu");
  std::string text = judge::format_findings(r, kSolveSource);
  EXPECT_EQ(text,
            "compute-sanitizer: ERROR SUMMARY: 1 error\n"
            "\n"
            "1. Invalid __global__ read of size 4 bytes\n"
            "   in add(const float *, const float *, float *, int)\n"
            "   at solve.cu:4\n"
            "   by thread (7,0,0) in block (0,0,0)\n"
            "   Address 0x7f5c92600fa0 is out of bounds\n"
            "   and is 0 bytes after the nearest allocation at 0x7f5c92600f80 of size 28 bytes\n"
            "     3 |   int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "   > 4 |   C[i] = A[i] + B[i];\n"
            "     5 | }\n");
}

TEST(FormatFindings, RaceShowsBothLines) {
  std::string source;
  for (int i = 1; i <= 60; ++i) source += "line " + std::to_string(i) + "\n";
  SanitizerReport r = judge::parse_sanitizer_output(kRacecheckBlock, "block_error.cu");
  std::string text = judge::format_findings(r, source);
  EXPECT_NE(text.find("1. Error: Race reported between Write access and Read access\n"), std::string::npos) << text;
  EXPECT_NE(text.find("   > 41 | line 41\n"), std::string::npos) << text;
  EXPECT_NE(text.find("     42 | line 42\n"), std::string::npos) << text;
  EXPECT_NE(text.find("block_error.cu:51\n     50 | line 50\n   > 51 | line 51\n"), std::string::npos) << text;
  EXPECT_NE(text.find("     50 | line 50\n"), std::string::npos) << text;
}

TEST(FormatFindings, EdgesOfTheSource) {
  // A fault on the first and on the last line: context only where there is some; a line past the end (the file
  // changed since the build) shows no source at all.
  std::string out;
  for (int line : {1, 3, 9})
    out += "========= Invalid __global__ write of size 4 bytes\n"
           "=========     at k(float *)+0x70 in solve.cu:" + std::to_string(line) + "\n=========\n";
  SanitizerReport r = judge::parse_sanitizer_output(out + "========= ERROR SUMMARY: 3 errors\n", "solve.cu");
  std::string text = judge::format_findings(r, "first\nsecond\nthird\n");
  EXPECT_NE(text.find("   > 1 | first\n     2 | second\n\n2."), std::string::npos) << text;
  EXPECT_NE(text.find("     2 | second\n   > 3 | third\n\n3."), std::string::npos) << text;
  EXPECT_NE(text.find("   at solve.cu:9\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("> 9"), std::string::npos) << text;
}

TEST(FormatFindings, CleanRunAndOtherFiles) {
  EXPECT_EQ(judge::format_findings(judge::parse_sanitizer_output(kClean, "solve.cu"), "x\n"),
            "compute-sanitizer found no errors\n");
  // A fault outside the user's file: named, but no source of the user's is shown for it.
  SanitizerReport r = judge::parse_sanitizer_output(kSynccheckSyncwarp, "solve.cu");
  std::string text = judge::format_findings(r, "a\nb\n");
  EXPECT_NE(text.find("   at /usr/local/cuda/include/sm_30_intrinsics.hpp:110\n"), std::string::npos) << text;
  EXPECT_EQ(text.find(" | "), std::string::npos) << text;
  EXPECT_NE(text.find("did not run to its end"), std::string::npos) << text;
}

}  // namespace
