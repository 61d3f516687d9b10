// Writes the fixture that tests/report/test_report_chromium.sh loads into a browser: a leaderboard database and a
// calibration store in <dir>, through the same API `judge submit` and `judge calibrate` use. The runs are made up
// but consistent: each case's rates are the repository spec's flops and bytes over its median. Prints what the page
// must then show, as shell assignments: cases=.. plotted=.. references=.. runs=.. boards=..
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "judge/core/challenge/spec.hpp"
#include "judge/core/measure/calibration.hpp"
#include "judge/core/store/leaderboard.hpp"

namespace {

namespace fs = std::filesystem;

constexpr const char* kH100 = "NVIDIA H100 80GB HBM3";    // calibrated below
constexpr const char* kA100 = "NVIDIA A100-SXM4-40GB";   // never calibrated: its rooflines have no roofs

struct Run {
  const char* challenge;
  const char* gpu;
  const char* user;
  const char* created_at;
  std::vector<double> medians_ms;    // one per benchmark case of the spec, in its order
  std::vector<double> reference_ms;  // the same
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s CHALLENGES_DIR OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const fs::path challenges = argv[1], out = argv[2];
  try {
    fs::remove_all(out);
    fs::create_directories(out);

    judge::Calibration c;
    c.gpu_name = kH100;
    c.compute_capability = "9.0";
    c.sm_count = 132;
    c.measured_at = "2025-04-30T08:00:00Z";
    c.judge_version = "fixture";
    c.copy_gbps = 2950;
    c.fp32_fma_gflops = 60500;
    c.sgemm_gflops = 51200;
    c.tf32_gflops = 378000;
    c.fp16_gflops = 742000;
    c.bf16_gflops = 747000;
    c.int8_gops = 1490000;
    judge::CalibrationStore(out / "calibration.json").save(c);

    const char* evil = "<script>alert(1)</script>";
    const std::vector<Run> runs = {
        {"matrix_multiplication", kH100, "alice", "2025-05-01T09:12:00.000Z", {95, 100}, {2.9, 3.5}},
        {"matrix_multiplication", kH100, "bob", "2025-05-02T11:05:00.000Z", {21, 22.5}, {2.9, 3.5}},
        {"matrix_multiplication", kH100, "alice", "2025-05-02T16:40:00.000Z", {14.2, 15.1}, {2.9, 3.5}},
        {"matrix_multiplication", kH100, evil, "2025-05-03T20:00:00.000Z", {48, 51}, {2.9, 3.5}},
        {"matrix_multiplication", kH100, "alice", "2025-05-04T10:20:00.000Z", {4.3, 4.6}, {2.9, 3.5}},
        {"matrix_multiplication", kH100, "bob", "2025-05-05T09:30:00.000Z", {3.7, 3.95}, {2.9, 3.5}},
        {"vector_add", kH100, "carol", "2025-05-01T13:00:00.000Z", {0.125, 0.62}, {0.110, 0.575}},
        {"vector_add", kH100, "dave", "2025-05-03T15:00:00.000Z", {0.118, 0.585}, {0.110, 0.575}},
        {"vector_add", kH100, "carol", "2025-05-04T09:00:00.000Z", {0.112, 0.58}, {0.110, 0.575}},
        {"vector_add", kA100, "erin", "2025-05-02T10:00:00.000Z", {0.21, 1.05}, {0.2, 1.0}},
    };

    // The protections each run recorded: none for the first two (judged before judges recorded them: "not
    // recorded"), the full set after, and one run judged where bubblewrap was missing.
    const std::vector<judge::Protection> sandboxed = {
        {"compile sandbox", true, "bubblewrap"},
        {"uid drop", true, "the solver runs as uid 65534"},
        {"stopped between calls", true, "SIGSTOP after each reply, SIGCONT before each command"},
        {"environment", true, "the solver sees none of the judge's variables or paths"},
        {"landlock", true, "ABI 6: files, TCP, signals and abstract sockets"},
        {"seccomp", true, "filter installed"},
        {"no network", true, "seccomp refuses every socket but AF_UNIX"}};
    std::vector<judge::Protection> without_bwrap = sandboxed;
    without_bwrap.push_back({"pid+mount namespaces (bubblewrap)", false, "bwrap is not installed"});

    judge::Leaderboard board(out / "leaderboard.sqlite");
    int cases = 0, plotted = 0, references = 0;
    std::set<std::pair<std::string, std::string>> boards;
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const Run& r = runs[k];
      const judge::Challenge spec = judge::load_challenge(challenges / r.challenge);
      judge::SubmissionRecord s;
      s.challenge = r.challenge;
      s.user = r.user;
      s.gpu_name = r.gpu;
      s.compute_capability = std::string(r.gpu) == kH100 ? "9.0" : "8.0";
      s.created_at = r.created_at;
      s.source = std::string("// fixture: ") + r.user + " " + r.created_at + "\n";
      s.judge_version = "fixture";
      if (k >= 2) s.protections = k == 3 ? without_bwrap : sandboxed;
      double log_sum = 0;
      // The first benchmarks of the repository's spec, one per fixture time (the spec may have more).
      const std::size_t n = std::min(spec.benchmarks.size(), r.medians_ms.size());
      for (std::size_t i = 0; i < n; ++i) {
        const auto& b = spec.benchmarks[i];
        const double ms = r.medians_ms.at(i), flops = spec.flops_for(b.scalars), bytes = spec.bytes_for(b.scalars);
        s.cases.push_back({b.name, ms, ms * 0.97, 0.3, 40, flops / (ms * 1e6), bytes / (ms * 1e6),
                           r.reference_ms.at(i)});
        log_sum += std::log(ms);
        ++cases;
        plotted += flops > 0;
        references += flops > 0 && r.reference_ms.at(i) > 0;
      }
      s.score_ms = std::exp(log_sum / static_cast<double>(n));
      board.record(s);
      boards.insert({r.challenge, r.gpu});
    }
    std::printf("cases=%d plotted=%d references=%d runs=%zu boards=%zu\n", cases, plotted, references, runs.size(),
                boards.size());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "report_fixture: %s\n", e.what());
    return 1;
  }
  return 0;
}
