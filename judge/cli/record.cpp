#include "judge/cli/record.hpp"

#include <chrono>
#include <cctype>
#include <ctime>
#include <fstream>

#include <fmt/format.h>

#include "judge/core/base/leaderboard_location.hpp"
#include "judge/core/base/version.hpp"
#include "judge/core/store/leaderboard.hpp"

namespace judge::cli {

namespace {

// A user name as part of a file name: a batch may record many users in the same second.
std::string safe_name(const std::string& user) {
  std::string out;
  for (char c : user) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return out.empty() ? "anonymous" : out;
}

std::string utc_stamp() {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

SubmissionRecord record_of(const JudgeReport& r, const std::string& user) {
  SubmissionRecord s;
  s.challenge = r.challenge;
  s.user = user;
  s.gpu_name = r.device ? r.device->name : "";
  s.compute_capability = r.device ? r.device->compute_capability : "";
  s.score_ms = r.score_ms;
  s.source_hash = r.build.source_hash;
  s.source = r.build.source_text;
  s.judge_version = std::string(judge_version());
  s.protections = r.protections;
  // The timed benchmarks, graded and stress (a stress benchmark that failed is kept with its verdict and no time).
  for (const auto& c : r.cases) {
    if (c.kind != "benchmark" || (!c.timing && !c.stress)) continue;
    CaseRecord cr;
    cr.name = c.name;
    cr.stress = c.stress;
    cr.beyond = c.beyond;
    cr.verdict = std::string(to_string(c.verdict));
    if (c.timing) {
      cr.median_ms = c.timing->median_ms;
      cr.min_ms = c.timing->min_ms;
      cr.spread_pct = c.timing->noise_pct;
      cr.samples = c.timing->samples;
      cr.gflops = c.gflops();
      cr.gbps = c.gbps();
    }
    cr.reference_ms = c.reference_timing ? c.reference_timing->median_ms : 0;
    s.cases.push_back(cr);
  }
  return s;
}

}  // namespace

RecordOutcome record_submission(const JudgeReport& r, const std::string& user, const std::string& database,
                                const std::string& run_key) {
  RecordOutcome out;
  out.attempted = true;
  out.database = display_location(database);
  SubmissionRecord s = record_of(r, user);
  s.run_key = run_key;
  try {
    Leaderboard board(database);
    Recorded recorded = board.record(s);
    out.submission_id = recorded.id;
    out.rank = recorded.rank;
    out.ranked = recorded.ranked;
    out.recorded = true;
  } catch (const std::exception& e) {
    out.error = e.what();
    for (const auto& dir : pending_dirs(database)) {
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      auto file = dir / fmt::format("{}-{}-{}-{}.json", s.challenge, safe_name(user), utc_stamp(),
                                          s.source_hash.substr(0, 12));
      std::ofstream f(file);
      f << to_json(s).dump(2);
      if (f) {
        out.saved_to = file.string();
        break;
      }
    }
  }
  return out;
}


}  // namespace judge::cli
