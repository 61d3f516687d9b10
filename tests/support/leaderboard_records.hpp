#pragma once
// A leaderboard row as the leaderboard tests record it (SQLite and PostgreSQL alike): two cases, two protections,
// a source that names its user.
#include <string>

#include "judge/core/store/leaderboard.hpp"

namespace judge::testing {

inline constexpr const char* kH100 = "NVIDIA H100 80GB HBM3";
inline constexpr const char* kA100 = "NVIDIA A100-SXM4-40GB";

inline SubmissionRecord submission(const std::string& user, double score_ms, const std::string& gpu = kH100,
                                   const std::string& challenge = "vector_add") {
  SubmissionRecord s;
  s.challenge = challenge;
  s.user = user;
  s.gpu_name = gpu;
  s.compute_capability = gpu == kH100 ? "9.0" : "8.0";
  s.score_ms = score_ms;
  s.source = "__global__ void solve() {} // " + user;
  s.judge_version = "0.1.0";
  s.cases = {{"small", score_ms / 2, score_ms / 3, 1.5, 50, 10.0, 100.0, 0.5},
             {"large", score_ms * 2, score_ms * 1.9, 0.25, 20, 20.0, 800.0, 1.5}};
  s.protections = {{"landlock", true, "ABI 6: files, TCP, signals and abstract sockets"},
                   {"uid drop", false, "judge not running as root: solver keeps uid 1000"}};
  return s;
}

}  // namespace judge::testing
