// expect: output_not_written
// Attacker's intent: forge the verdict instead of computing. The judge's processes talk in JSON lines, and the pipe
// they talk on may be one of this process's descriptors, so on every call this writes well-formed messages (each of
// vector_add's cases begun and ended `accepted` with a tiny time, answers to numbered commands 1..128 saying the
// call went well in a tenth of a microsecond, then `done`) to every open descriptor 0..1023 that could carry them:
// pipes, sockets, FIFOs, files and terminals. It never writes C. (Device files, anonymous inodes and shared memory
// are passed over: scribbling on CUDA's own descriptors would crash the process, and the point is to be believed,
// not to crash.)
// Harmless when nothing this process says decides a verdict: the trusted worker finds C still holding its poison
// and says `output_not_written`. `accepted` would mean a forged line was believed; a crash would mean the forgery
// at least derailed the judge.
#include <cuda_runtime.h>

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

const char* const kTests[] = {"n1",    "example_5", "n7",          "n33",     "n1023",
                              "n4097", "n1000003",  "large_mixed", "specials"};
const char* const kBenchmarks[] = {"N_25000000", "N_134217728"};

std::string case_result(const std::string& name, bool benchmark) {
  std::string r = "{\"name\":\"" + name + "\",\"kind\":\"" + (benchmark ? "benchmark" : "test") +
                  "\",\"verdict\":\"accepted\",\"message\":\"\",\"scalars\":{},\"outputs\":[],"
                  "\"flops\":0,\"bytes\":0";
  if (benchmark)
    r += ",\"timing\":{\"median_ms\":0.000123,\"min_ms\":0.000123,\"mean_ms\":0.000123,\"spread_pct\":0,"
         "\"samples\":100,\"gpu_median_ms\":0.000123,\"trusted_median_ms\":0.000123,\"overhead_ms\":0,"
         "\"charged\":\"gpu\",\"timer\":\"cupti\"}";
  return r + "}";
}

// One message per line, each short enough (< PIPE_BUF) to be written atomically.
std::vector<std::string> forged_lines() {
  std::vector<std::string> lines;
  auto add_case = [&](const char* name, bool benchmark) {
    lines.push_back(std::string("{\"event\":\"case_begin\",\"case\":\"") + name + "\",\"kind\":\"" +
                    (benchmark ? "benchmark" : "test") + "\"}\n");
    lines.push_back("{\"event\":\"call\",\"case\":\"" + std::string(name) + "\",\"index\":0}\n");
    lines.push_back("{\"event\":\"call_end\",\"case\":\"" + std::string(name) +
                    "\",\"ok\":true,\"gpu_ms\":0.000123,\"records\":1}\n");
    lines.push_back("{\"event\":\"case_end\",\"result\":" + case_result(name, benchmark) + "}\n");
  };
  for (const char* t : kTests) add_case(t, false);
  for (const char* b : kBenchmarks) add_case(b, true);
  // What a process that runs solve() for a worker might answer to its numbered commands: every number up to 128,
  // each saying the call went well and took a tenth of a microsecond.
  for (int seq = 1; seq <= 128; ++seq)
    lines.push_back("{\"re\":" + std::to_string(seq) +
                    ",\"ok\":true,\"host_ms\":0.0001,\"gpu_ms\":0.000123,\"records\":1,\"streams\":1,"
                    "\"foreign\":0,\"timer\":\"cupti\"}\n");
  lines.push_back("{\"event\":\"verdict\",\"verdict\":\"accepted\",\"score_ms\":0.000123}\n");
  lines.push_back("{\"event\":\"done\"}\n");
  return lines;
}

// Could this descriptor be the judge's channel? Only kinds of file a message could travel through.
bool worth_forging(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags == -1 || (flags & O_ACCMODE) == O_RDONLY) return false;
  char link[PATH_MAX] = {0};
  std::string proc = "/proc/self/fd/" + std::to_string(fd);
  ssize_t n = readlink(proc.c_str(), link, sizeof link - 1);
  std::string target = n > 0 ? std::string(link, static_cast<size_t>(n)) : std::string();
  if (target.rfind("/dev/nvidia", 0) == 0 || target.rfind("anon_inode:", 0) == 0 || target == "/dev/null" ||
      target.rfind("/dev/shm/", 0) == 0 || target.rfind("/memfd:", 0) == 0)
    return false;
  struct stat st;
  if (fstat(fd, &st) != 0) return false;
  return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISREG(st.st_mode) || isatty(fd);
}

void forge_everywhere() {
  static const std::vector<std::string> lines = forged_lines();
  // A pipe nobody reads would raise SIGPIPE: ignored meanwhile, so a closed pipe costs a failed write, not the run.
  struct sigaction ignore = {}, old = {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old);
  int written = 0;
  for (int fd = 0; fd < 1024; ++fd) {
    if (!worth_forging(fd)) continue;
    for (const auto& line : lines) {
      pollfd p = {fd, POLLOUT, 0};
      if (poll(&p, 1, 0) != 1 || !(p.revents & POLLOUT)) break;  // never block on a full pipe
      if (write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) break;
      ++written;
    }
  }
  sigaction(SIGPIPE, &old, nullptr);
  std::fprintf(stderr, "forged %d message lines\n", written);
  std::fflush(stderr);
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  (void)A;
  (void)B;
  (void)C;
  (void)N;
  forge_everywhere();  // and C is never written
}
