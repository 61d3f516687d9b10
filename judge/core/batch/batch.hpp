#pragma once
// `judge batch`: many submissions of one challenge, judged as `judge submit` judges one, spread over the GPUs of the
// host. Each GPU runs a few judging runs at once: their builds and functional tests overlap, while the GPU's timing
// lock (gpu_lock.hpp) lets one of them time at a time, so every score is measured on a GPU of its own. No CUDA here.
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "judge/core/run/judging.hpp"

namespace judge {

struct BatchEntry {
  std::filesystem::path source;
  std::string name;  // the leaderboard name
};

enum class NameFrom { file, folder };

// The files given, and every *.cu under the directories given (recursively, in path order), each named by its file
// name without .cu (NameFrom::file) or by the folder that holds it (NameFrom::folder: one folder per student).
// A name met twice gets "-2", "-3", ... Throws Error naming a path that does not exist, a file that is not .cu,
// or a directory with no .cu in it.
std::vector<BatchEntry> collect_submissions(const std::vector<std::string>& paths, NameFrom name_from);

// "all" or a comma-separated list of ordinals ("0,2"), each below device_count, without repeats.
// Throws Error saying which entry is wrong and how many GPUs there are.
std::vector<int> parse_gpus(const std::string& spec, int device_count);

struct BatchResult {
  std::size_t index = 0;  // of the entry
  BatchEntry entry;
  int device = 0;
  JudgeReport report;
};

struct BatchPlan {
  std::vector<int> gpus;
  // Judging runs in flight per GPU: one times while the others start workers and run functional tests. A small
  // challenge's timed phase is a fraction of a run, so it takes several to keep the GPU's timer busy.
  int runs_per_gpu = 4;
  // Compile ahead: this many threads build the submissions (into the build cache, for these architectures) while
  // the first runs start, so nvcc is rarely on a run's path. 0: no building ahead.
  int build_threads = 0;
  std::vector<std::string> build_archs;
  // The options of every run; device and calibration are set per GPU.
  JudgeOptions options;
  std::map<int, std::optional<Calibration>> calibration;  // per GPU ordinal
};

// What the batch's runs recorded about their protections, for its summary: a batch judged with less isolation says
// so, once, rather than in every line.
struct BatchProtections {
  std::size_t recorded = 0;  // runs that recorded their protections (a run that failed before its worker has none)
  struct Off {
    std::string name;
    std::string why;       // the first such run's reason
    std::size_t runs = 0;  // in how many runs it was off
    std::size_t of = 0;    // of how many runs that recorded it (a run that did not compile has no solver to confine)
  };
  std::vector<Off> off;  // each protection off in any run, in the order first met
};
BatchProtections batch_protections(const std::vector<BatchResult>& results);

// Judges every entry; on_done is called (serialised, from the worker threads) as each finishes, in completion
// order, and on_start (may be empty; from the worker threads at once, each for its own entry) as each begins, with
// the entry's index and its GPU. The results come back in the entries' order.
std::vector<BatchResult> run_batch(const Challenge& challenge, const std::vector<BatchEntry>& entries,
                                   const BatchPlan& plan, const std::function<void(const BatchResult&)>& on_done,
                                   const std::function<void(std::size_t, int)>& on_start = {});

}  // namespace judge
