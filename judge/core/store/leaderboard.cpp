#include "judge/core/store/leaderboard.hpp"

#include <ctime>
#include <limits>
#include <utility>

#include "judge/core/base/leaderboard_location.hpp"
#include "judge/core/base/sha256.hpp"
#include "judge/core/store/leaderboard_store.hpp"

#ifndef JUDGE_VERSION
#define JUDGE_VERSION "unknown"
#endif

namespace judge {
namespace {

std::string utc_now_iso8601() {
  const auto since_epoch = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  const std::time_t seconds = static_cast<std::time_t>(since_epoch.count() / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  return fmt::format("{}.{:03}Z", text, since_epoch.count() % 1000);
}

std::unique_ptr<LeaderboardStore> open_store(const std::string& location, Leaderboard::Access access) {
  if (!is_postgres_location(location)) return open_sqlite_store(location, access);
#if JUDGE_HAVE_LIBPQ
  return open_postgres_store(location, access);
#else
  JUDGE_THROW(LeaderboardError,
              "{} is a PostgreSQL database, but this judge was built without libpq, PostgreSQL's client library. "
              "Install it (apt-get install libpq-dev; scripts/deps.sh does) and rebuild the judge, or pass an SQLite "
              "file with --db / JUDGE_DB; nothing was written.",
              display_location(location));
#endif
}

}  // namespace

namespace store {

std::vector<Protection> protections_from_text(const std::string& text) {
  try {
    return nlohmann::json::parse(text).get<std::vector<Protection>>();
  } catch (const nlohmann::json::exception& e) {
    return {{"protections", false, fmt::format("the stored list could not be read ({})", e.what())}};
  }
}

Recorded recorded(std::int64_t id, const std::string& user, const std::vector<RankingEntry>& ranking,
                  bool duplicate) {
  Recorded r;
  r.id = id;
  r.duplicate = duplicate;
  r.ranked = static_cast<int>(ranking.size());
  for (const auto& e : ranking)
    if (e.user == user) r.rank = e.rank;
  return r;
}

}  // namespace store

Leaderboard::Leaderboard(const std::string& location, Access access)
    : location_(display_location(location)), access_(access), store_(open_store(location, access)) {}

Leaderboard::~Leaderboard() = default;

void Leaderboard::set_busy_timeout(std::chrono::milliseconds timeout) {
  std::lock_guard<std::mutex> lock(mutex_);
  store_->set_busy_timeout(timeout);
}

Recorded Leaderboard::record(SubmissionRecord s) {
  if (access_ == Access::read_only)
    JUDGE_THROW(LeaderboardError, "cannot record into {}: it was opened read-only (a judge bug)", location_);
  if (s.created_at.empty()) s.created_at = utc_now_iso8601();
  if (s.source_hash.empty()) s.source_hash = sha256_hex(s.source);
  if (s.judge_version.empty()) s.judge_version = JUDGE_VERSION;
  std::lock_guard<std::mutex> lock(mutex_);
  return store_->record(s);
}

std::vector<RankingEntry> Leaderboard::ranking(const std::string& challenge, const std::string& gpu_name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return store_->ranking(challenge, gpu_name);
}

std::vector<std::string> Leaderboard::gpus(const std::string& challenge) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return store_->gpus(challenge);
}

std::vector<BoardSummary> Leaderboard::overview() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return store_->overview();
}

std::vector<SubmissionRecord> Leaderboard::history(const std::string& challenge,
                                                   const std::optional<std::string>& user) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return store_->history(challenge, user);
}

std::optional<SubmissionRecord> Leaderboard::get(std::int64_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return store_->get(id);
}

nlohmann::json to_json(const SubmissionRecord& s) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : s.cases) {
    cases.push_back({{"name", c.name},
                     {"median_ms", c.median_ms},
                     {"min_ms", c.min_ms},
                     {"spread_pct", c.spread_pct},
                     {"samples", c.samples},
                     {"gflops", c.gflops},
                     {"gbps", c.gbps},
                     {"reference_ms", c.reference_ms},
                     {"stress", c.stress},
                     {"verdict", c.verdict},
                     {"beyond", c.beyond}});
  }
  return {{"id", s.id},
          {"challenge", s.challenge},
          {"user", s.user},
          {"gpu_name", s.gpu_name},
          {"compute_capability", s.compute_capability},
          {"created_at", s.created_at},
          {"score_ms", s.score_ms},
          {"source_hash", s.source_hash},
          {"source", s.source},
          {"judge_version", s.judge_version},
          {"cases", std::move(cases)},
          {"protections", s.protections},
          {"run_key", s.run_key}};
}

SubmissionRecord submission_from_json(const nlohmann::json& j) {
  // NaN metrics were written as null by to_json; they read back as NaN, as from the database.
  auto real = [](const nlohmann::json& o, const char* key) {
    const auto& v = o.at(key);
    return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
  };
  SubmissionRecord s;
  s.id = j.value("id", std::int64_t{0});
  s.challenge = j.at("challenge").get<std::string>();
  s.user = j.at("user").get<std::string>();
  s.gpu_name = j.at("gpu_name").get<std::string>();
  s.compute_capability = j.value("compute_capability", "");
  s.created_at = j.value("created_at", "");
  s.score_ms = real(j, "score_ms");
  s.source_hash = j.value("source_hash", "");
  s.source = j.value("source", "");
  s.judge_version = j.value("judge_version", "");
  for (const auto& c : j.at("cases")) {
    CaseRecord r;
    r.name = c.at("name").get<std::string>();
    r.median_ms = real(c, "median_ms");
    r.min_ms = real(c, "min_ms");
    r.spread_pct = real(c, "spread_pct");
    r.samples = c.at("samples").get<int>();
    r.gflops = real(c, "gflops");
    r.gbps = real(c, "gbps");
    r.reference_ms = real(c, "reference_ms");
    // Absent from results saved before schema 3: an accepted case within the promises.
    r.stress = c.value("stress", false);
    r.verdict = c.value("verdict", "");
    r.beyond = c.value("beyond", "");
    s.cases.push_back(std::move(r));
  }
  // Absent from results saved by judges that did not record protections: not recorded.
  if (const auto p = j.find("protections"); p != j.end() && !p->is_null())
    s.protections = p->get<std::vector<Protection>>();
  s.run_key = j.value("run_key", "");
  return s;
}

nlohmann::json to_json(const BoardSummary& b) {
  return {{"challenge", b.challenge},
          {"gpu", b.gpu_name},
          {"leader", b.leader},
          {"score_ms", b.score_ms},
          {"submission_id", b.submission_id},
          {"created_at", b.created_at},
          {"users", b.users},
          {"submissions", b.submissions}};
}

nlohmann::json to_json(const RankingEntry& r) {
  return {{"rank", r.rank},
          {"user", r.user},
          {"score_ms", r.score_ms},
          {"submission_id", r.submission_id},
          {"created_at", r.created_at},
          {"attempts", r.attempts}};
}

}  // namespace judge
