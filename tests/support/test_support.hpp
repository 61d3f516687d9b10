#pragma once
// Helpers shared by the tests: paths to the repository and the built executables, scratch directories, and the
// GPU guard that turns "no CUDA device" into a reported skip.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace judge::testing {

std::filesystem::path source_dir();      // the repository root
std::filesystem::path challenges_dir();  // <root>/challenges
std::filesystem::path cli_path();        // the built `judge`
std::filesystem::path worker_path();     // the built `judge-worker`

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

std::string read_file(const std::filesystem::path& p);
void write_file(const std::filesystem::path& p, const std::string& text);

struct CommandResult {
  int exit_code = -1;   // -1: killed by a signal or timed out
  std::string output;   // stdout and stderr, merged
};
// Runs argv (argv[0] is a path) with extra environment variables, waiting at most timeout_s.
CommandResult run_command(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env = {}, double timeout_s = 600);

// The JSON document a `judge --json` command printed on stdout, from its merged output: what its stderr said before
// the document (a notice such as "waiting for GPU 0: ..." when another judge is timing on the GPU) is skipped.
// Discarded (is_discarded()) when there is no document.
nlohmann::json json_of(const std::string& output);

// The GPU calibration the GPU tests share ($JUDGE_CALIBRATION, else test-calibration.json in the build tree): `judge
// submit` would otherwise measure the GPU again in every test's fresh directory, and while other tests share the GPU.
// SharedCalibration (tests/gpu/test_calibration.cpp), a ctest fixture of the tests that submit, measures it once,
// alone on the GPU. It outlives each ctest process and is keyed by GPU name.
std::string shared_calibration_file();

// The name of GPU 0 as the driver reports it (the calibration's and the leaderboard's key), or "" if unknown.
std::string gpu_name();

// True when `file` holds a plausible calibration of this GPU (by gpu_name()), so no test needs to measure it again.
bool calibration_covers_gpu(const std::string& file);

// The build cache the example submissions' GPU tests share (example-cache in the build tree): gpu_test_example_builds
// fills it for every example at once, one nvcc per core, before they run (a ctest fixture), so that each of them
// spends its slot of the GPU judging rather than waiting for nvcc.
std::filesystem::path shared_example_cache();

// The build cache CorpusBuilds fills for the corpus entries (corpus-cache in the build tree), with an index of whose
// build is where; each entry copies its own build from there into its private cache (tests/gpu/test_corpus.cpp).
std::filesystem::path shared_corpus_cache();

// Every example submission: submissions/<challenge>/*.cu, ordered by path.
struct ExampleFile {
  std::string challenge;
  std::filesystem::path file;
};
std::vector<ExampleFile> example_files();

// How many slots of its GPU ctest gave this test (CTEST_RESOURCE_GROUP_0_GPUS, "id:0,slots:4"), or `fallback` when
// it runs outside ctest's resource allocation: a test that starts several judges at once starts that many.
int assigned_gpu_slots(int fallback);

// True when `nvidia-smi -L` lists a GPU. Host-side: no CUDA runtime is touched.
bool gpu_present();

}  // namespace judge::testing

// Skips (reported as skipped by ctest) when no CUDA device is present.
#define JUDGE_REQUIRE_GPU()                                                    \
  do {                                                                         \
    if (!::judge::testing::gpu_present()) GTEST_SKIP() << "no CUDA device present"; \
  } while (0)
