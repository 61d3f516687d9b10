#include "judge/core/store/leaderboard.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if JUDGE_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

#include "judge/core/base/sha256.hpp"
#include "support/leaderboard_records.hpp"
#include "support/postgres_server.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

using ::judge::testing::read_file;
using ::judge::testing::TempDir;
using ::judge::testing::write_file;

using ::judge::testing::kA100;
using ::judge::testing::kH100;
using ::judge::testing::submission;

// The tables as judges wrote them before protections were recorded (schema version 1), made by hand as such a
// judge made them, with one run in them.
void write_version_1_leaderboard(const std::filesystem::path& path);

// A second, plain SQLite connection: what another judge (or a person with the sqlite3 shell) would hold.
class RawConnection {
 public:
  explicit RawConnection(const std::filesystem::path& path) {
    if (sqlite3_open(path.string().c_str(), &db_) != SQLITE_OK) ADD_FAILURE() << sqlite3_errmsg(db_);
  }
  ~RawConnection() { sqlite3_close(db_); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << (error ? error : "?");
    }
    sqlite3_free(error);
  }
  std::int64_t scalar(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    std::int64_t value = -1;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
      value = sqlite3_column_int64(stmt, 0);
    } else {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
    }
    sqlite3_finalize(stmt);
    return value;
  }

 private:
  sqlite3* db_ = nullptr;
};

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

// Runs `make`, expecting a LeaderboardError, and returns its message.
template <typename F>
std::string error_from(F&& make) {
  try {
    make();
  } catch (const LeaderboardError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a LeaderboardError";
  return {};
}

// Plain SQL on the leaderboard under test through a connection of its own: what another judge, or a person with the
// sqlite3 shell or psql, would hold.
class RawSql {
 public:
  virtual ~RawSql() = default;
  virtual void exec(const std::string& sql) = 0;
  virtual std::int64_t scalar(const std::string& sql) = 0;
};

class RawSqlite final : public RawSql {
 public:
  explicit RawSqlite(const std::string& path) : connection_(path) {}
  void exec(const std::string& sql) override { connection_.exec(sql); }
  std::int64_t scalar(const std::string& sql) override { return connection_.scalar(sql); }

 private:
  RawConnection connection_;
};

#if JUDGE_HAVE_LIBPQ
class RawPostgres final : public RawSql {
 public:
  explicit RawPostgres(const std::string& uri) : connection_(PQconnectdb(uri.c_str()), PQfinish) {
    if (PQstatus(connection_.get()) != CONNECTION_OK) ADD_FAILURE() << PQerrorMessage(connection_.get());
    PQsetNoticeProcessor(connection_.get(), [](void*, const char*) {}, nullptr);
  }
  void exec(const std::string& sql) override { run(sql); }
  std::int64_t scalar(const std::string& sql) override {
    const std::string value = run(sql);
    return value.empty() ? -1 : std::stoll(value);
  }

 private:
  std::string run(const std::string& sql) {
    std::unique_ptr<PGresult, void (*)(PGresult*)> result(PQexec(connection_.get(), sql.c_str()), PQclear);
    const auto status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      ADD_FAILURE() << sql << ": " << PQerrorMessage(connection_.get());
      return "";
    }
    return PQntuples(result.get()) > 0 ? PQgetvalue(result.get(), 0, 0) : "";
  }
  std::unique_ptr<PGconn, void (*)(PGconn*)> connection_;
};
#endif

enum class Store { sqlite, postgresql };
void PrintTo(Store store, std::ostream* out) { *out << (store == Store::sqlite ? "sqlite" : "postgresql"); }

// The behaviour both stores share, run against each: an SQLite file in a fresh directory, and a fresh database on
// the process's throwaway PostgreSQL server (support/postgres_server.hpp; a missing server fails these tests).
class LeaderboardTest : public ::testing::TestWithParam<Store> {
 protected:
  void SetUp() override {
    if (GetParam() == Store::postgresql) {
      JUDGE_REQUIRE_POSTGRES();
      location_ = ::judge::testing::new_postgres_database();
    } else {
      location_ = (dir_ / "lb.db").string();
    }
  }
  bool postgres() const { return GetParam() == Store::postgresql; }
  // Another connection to the leaderboard under test.
  std::unique_ptr<RawSql> raw() const {
#if JUDGE_HAVE_LIBPQ
    if (postgres()) return std::make_unique<RawPostgres>(location_);
#endif
    return std::make_unique<RawSqlite>(location_);
  }

  TempDir dir_;
  std::string location_;
};

INSTANTIATE_TEST_SUITE_P(Stores, LeaderboardTest, ::testing::Values(Store::sqlite, Store::postgresql),
                         [](const ::testing::TestParamInfo<Store>& info) {
                           return info.param == Store::sqlite ? std::string("sqlite") : std::string("postgresql");
                         });

void write_version_1_leaderboard(const std::filesystem::path& path) {
  RawConnection v1(path);
  v1.exec(R"sql(
CREATE TABLE submissions (
  id INTEGER PRIMARY KEY,
  challenge TEXT NOT NULL,
  user TEXT NOT NULL,
  gpu_name TEXT NOT NULL,
  compute_capability TEXT NOT NULL,
  created_at TEXT NOT NULL,
  score_ms REAL NOT NULL,
  source_hash TEXT NOT NULL,
  source TEXT NOT NULL,
  judge_version TEXT NOT NULL
);
CREATE INDEX submissions_by_ranking ON submissions (challenge, gpu_name, user, score_ms);
CREATE TABLE case_results (
  submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  median_ms REAL,
  min_ms REAL,
  spread_pct REAL,
  samples INTEGER NOT NULL,
  gflops REAL,
  gbps REAL,
  reference_ms REAL
);
CREATE INDEX case_results_by_submission ON case_results (submission_id);
INSERT INTO submissions VALUES (1, 'vector_add', 'old-timer', 'NVIDIA H100 80GB HBM3', '9.0',
  '2025-01-02T03:04:05.000Z', 1.5, 'abc', '// from before', '0.1.0');
INSERT INTO case_results VALUES (1, 'small', 1.0, 0.9, 0.5, 30, 12.0, 120.0, 0.8);
PRAGMA user_version = 1;
)sql");
}

// The columns of the submissions table.
std::set<std::string> submission_columns(const std::filesystem::path& path) {
  sqlite3* db = nullptr;
  std::set<std::string> names;
  if (sqlite3_open(path.string().c_str(), &db) == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info('submissions')", -1, &stmt, nullptr) ==
        SQLITE_OK) {
      while (sqlite3_step(stmt) == SQLITE_ROW)
        names.insert(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return names;
}

TEST_P(LeaderboardTest, KeepsEntriesAcrossReopen) {
  std::int64_t id = 0;
  {
    Leaderboard board(location_);
    EXPECT_TRUE(board.history("vector_add").empty());
    id = board.record(submission("alice", 1.25)).id;
  }
  Leaderboard reopened(location_);
  const auto again = reopened.get(id);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->user, "alice");
  EXPECT_EQ(again->cases.size(), 2u);
  EXPECT_EQ(reopened.history("vector_add").size(), 1u);
}

TEST(Leaderboard, CreatesDirectoriesAndFileAndKeepsEntriesAcrossReopen) {
  TempDir dir;
  const auto path = dir / "nested/deeper/leaderboard.db";
  std::int64_t id = 0;
  {
    Leaderboard board(path);
    EXPECT_EQ(board.location(), path.string());
    EXPECT_TRUE(std::filesystem::exists(path));
    EXPECT_TRUE(board.history("vector_add").empty());
    id = board.record(submission("alice", 1.25)).id;
  }
  Leaderboard reopened(path);
  const auto again = reopened.get(id);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->user, "alice");
  EXPECT_EQ(again->cases.size(), 2u);
  EXPECT_EQ(reopened.history("vector_add").size(), 1u);
}

TEST_P(LeaderboardTest, RecordAssignsIdCreatedAtAndSourceHash) {
  Leaderboard board(location_);
  const auto first = board.record(submission("alice", 2.0)).id;
  const auto second = board.record(submission("alice", 1.0)).id;
  EXPECT_GT(first, 0);
  EXPECT_GT(second, first);

  const auto stored = board.get(first);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->id, first);
  EXPECT_TRUE(std::regex_match(stored->created_at, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")))
      << stored->created_at;
  EXPECT_EQ(stored->source_hash, sha256_hex(stored->source));

  auto given = submission("bob", 3.0);
  given.created_at = "2020-01-02T03:04:05.678Z";
  given.source_hash = "given-hash";
  const auto kept = board.get(board.record(given).id);
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->created_at, "2020-01-02T03:04:05.678Z");
  EXPECT_EQ(kept->source_hash, "given-hash");
}

TEST_P(LeaderboardTest, RankingTakesEachUsersBestRunAndCountsAttempts) {
  Leaderboard board(location_);
  board.record(submission("alice", 3.0));
  const auto bob_best = board.record(submission("bob", 2.0)).id;
  const auto alice_best = board.record(submission("alice", 1.5)).id;  // a later, better run replaces the best
  const auto carol = board.record(submission("carol", 2.5)).id;
  board.record(submission("bob", 4.0));  // a later, worse run does not

  const auto ranking = board.ranking("vector_add", kH100);
  ASSERT_EQ(ranking.size(), 3u);
  EXPECT_EQ(ranking[0].rank, 1);
  EXPECT_EQ(ranking[0].user, "alice");
  EXPECT_DOUBLE_EQ(ranking[0].score_ms, 1.5);
  EXPECT_EQ(ranking[0].submission_id, alice_best);
  EXPECT_EQ(ranking[0].attempts, 2);
  EXPECT_EQ(ranking[0].created_at, board.get(alice_best)->created_at);
  EXPECT_EQ(ranking[1].rank, 2);
  EXPECT_EQ(ranking[1].user, "bob");
  EXPECT_EQ(ranking[1].submission_id, bob_best);
  EXPECT_EQ(ranking[1].attempts, 2);
  EXPECT_EQ(ranking[2].rank, 3);
  EXPECT_EQ(ranking[2].user, "carol");
  EXPECT_EQ(ranking[2].submission_id, carol);
  EXPECT_EQ(ranking[2].attempts, 1);

  // Every run is kept.
  EXPECT_EQ(board.history("vector_add").size(), 5u);
}

TEST_P(LeaderboardTest, TiesGoToTheEarliestRun) {
  Leaderboard board(location_);
  auto late = submission("late", 1.0);
  late.created_at = "2026-01-02T00:00:00.000Z";
  auto early = submission("early", 1.0);
  early.created_at = "2026-01-01T00:00:00.000Z";
  board.record(late);  // recorded first, but made later
  board.record(early);

  // The same user with the same score twice: the first of the two is the best.
  const auto first_equal = board.record(submission("twice", 0.5)).id;
  board.record(submission("twice", 0.5));

  const auto ranking = board.ranking("vector_add", kH100);
  ASSERT_EQ(ranking.size(), 3u);
  EXPECT_EQ(ranking[0].user, "twice");
  EXPECT_EQ(ranking[0].submission_id, first_equal);
  EXPECT_EQ(ranking[0].attempts, 2);
  EXPECT_EQ(ranking[1].user, "early");
  EXPECT_EQ(ranking[2].user, "late");
}

TEST_P(LeaderboardTest, RecordReturnsTheUsersRankRightAfterTheInsert) {
  Leaderboard board(location_);
  auto rank_of = [&](const SubmissionRecord& s) {
    const Recorded r = board.record(s);
    return std::pair{r.rank, r.ranked};
  };
  EXPECT_EQ(rank_of(submission("alice", 3.0)), std::pair(1, 1));
  EXPECT_EQ(rank_of(submission("bob", 2.0)), std::pair(1, 2));
  // A worse run than the user's best: the user keeps the place of the best run.
  EXPECT_EQ(rank_of(submission("alice", 4.0)), std::pair(2, 2));
  EXPECT_EQ(rank_of(submission("carol", 1.0)), std::pair(1, 3));
  EXPECT_EQ(rank_of(submission("alice", 1.5)), std::pair(2, 3));
  EXPECT_EQ(rank_of(submission("dave", 9.0, kA100)), std::pair(1, 1)) << "another GPU is another ranking";
}

TEST_P(LeaderboardTest, OverviewNamesEachBoardsLeaderAndCountsUsers) {
  Leaderboard board(location_);
  EXPECT_TRUE(board.overview().empty());
  board.record(submission("alice", 3.0));
  board.record(submission("bob", 2.0));
  board.record(submission("bob", 2.5));
  board.record(submission("carol", 7.0, kA100));
  auto late = submission("late", 1.0, kH100, "matmul");
  late.created_at = "2026-01-02T00:00:00.000Z";
  auto early = submission("early", 1.0, kH100, "matmul");
  early.created_at = "2026-01-01T00:00:00.000Z";
  board.record(late);
  const auto early_id = board.record(early).id;

  const auto boards = board.overview();
  ASSERT_EQ(boards.size(), 3u);
  EXPECT_EQ(boards[0].challenge, "matmul");
  EXPECT_EQ(boards[0].leader, "early") << "a tie goes to the earliest run, as in the ranking";
  EXPECT_EQ(boards[0].submission_id, early_id);
  EXPECT_EQ(boards[0].users, 2);
  EXPECT_EQ(boards[1].challenge, "vector_add");
  EXPECT_EQ(boards[1].gpu_name, kA100);
  EXPECT_EQ(boards[1].leader, "carol");
  EXPECT_EQ(boards[1].users, 1);
  EXPECT_EQ(boards[2].gpu_name, kH100);
  EXPECT_EQ(boards[2].leader, "bob");
  EXPECT_DOUBLE_EQ(boards[2].score_ms, 2.0);
  EXPECT_EQ(boards[2].users, 2);
  EXPECT_EQ(boards[2].submissions, 3);
  // The leader is whoever the ranking puts first.
  for (const auto& b : boards) EXPECT_EQ(b.leader, board.ranking(b.challenge, b.gpu_name).front().user);
  const auto j = to_json(boards[2]);
  for (const char* key : {"challenge", "gpu", "leader", "score_ms", "submission_id", "created_at", "users",
                          "submissions"})
    EXPECT_TRUE(j.contains(key)) << key;
}

TEST_P(LeaderboardTest, RankingIsPerChallengePerGpu) {
  Leaderboard board(location_);
  board.record(submission("alice", 1.0, kH100));
  board.record(submission("alice", 5.0, kA100));
  board.record(submission("bob", 3.0, kA100));
  board.record(submission("carol", 0.1, kH100, "matmul"));

  const auto h100 = board.ranking("vector_add", kH100);
  ASSERT_EQ(h100.size(), 1u);
  EXPECT_EQ(h100[0].user, "alice");
  EXPECT_EQ(h100[0].attempts, 1);

  const auto a100 = board.ranking("vector_add", kA100);
  ASSERT_EQ(a100.size(), 2u);
  EXPECT_EQ(a100[0].user, "bob");
  EXPECT_EQ(a100[1].user, "alice");
  EXPECT_DOUBLE_EQ(a100[1].score_ms, 5.0);
  EXPECT_EQ(a100[1].attempts, 1);

  EXPECT_EQ(board.gpus("vector_add"), (std::vector<std::string>{kA100, kH100}));
  EXPECT_EQ(board.gpus("matmul"), (std::vector<std::string>{kH100}));
  EXPECT_TRUE(board.gpus("softmax").empty());
  EXPECT_TRUE(board.ranking("softmax", kH100).empty());
  EXPECT_TRUE(board.ranking("vector_add", "NVIDIA T4").empty());
}

TEST_P(LeaderboardTest, HistoryListsEveryRunNewestFirst) {
  Leaderboard board(location_);
  const auto a1 = board.record(submission("alice", 1.0)).id;
  const auto b1 = board.record(submission("bob", 2.0)).id;
  const auto a2 = board.record(submission("alice", 3.0)).id;
  board.record(submission("alice", 0.5, kH100, "matmul"));

  const auto all = board.history("vector_add");
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].id, a2);
  EXPECT_EQ(all[1].id, b1);
  EXPECT_EQ(all[2].id, a1);
  ASSERT_EQ(all[0].cases.size(), 2u);
  EXPECT_EQ(all[0].cases[0].name, "small");  // insertion order
  EXPECT_EQ(all[0].cases[1].name, "large");
  EXPECT_FALSE(all[0].source.empty());

  const auto alice = board.history("vector_add", std::string("alice"));
  ASSERT_EQ(alice.size(), 2u);
  EXPECT_EQ(alice[0].id, a2);
  EXPECT_EQ(alice[1].id, a1);
  EXPECT_TRUE(board.history("vector_add", std::string("nobody")).empty());
}

TEST_P(LeaderboardTest, GetReturnsExactlyWhatWasRecorded) {
  Leaderboard board(location_);
  auto s = submission("zoë", 0.123456789012345);
  s.source = "// naïve kernel, ∑ over blocks, 🚀\n__global__ void solve(const float* a, float* b) {}\n";
  std::string large;
  while (large.size() < (1u << 20)) large += "  c[i] = a[i] + b[i]; // line " + std::to_string(large.size()) + "\n";
  s.source += large;
  s.cases.push_back({"ünïcode case", 1e-9, 1e-10, 123.5, 7, 1e12, 3.5e3, 2.0 / 3.0});
  s.cases.push_back({"n = 2^31", std::numeric_limits<double>::quiet_NaN(), 0.5, 0, 3, 0, 0, 0.25, true,
                     "wrong_answer", "N = 2147483648 is past the statement's 1 ≤ N ≤ 100,000,000"});
  s.run_key = "batch-7/shard-3/alice/1_naive.cu";
  s.protections.push_back({"compile sandbox", false, "bwrap: \"not installed\"; 'quoted' ∑ <tag> \\ end"});
  const auto id = board.record(s).id;

  const auto stored = board.get(id);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->id, id);
  EXPECT_EQ(stored->challenge, s.challenge);
  EXPECT_EQ(stored->user, s.user);
  EXPECT_EQ(stored->gpu_name, s.gpu_name);
  EXPECT_EQ(stored->compute_capability, s.compute_capability);
  EXPECT_EQ(stored->score_ms, s.score_ms);
  EXPECT_EQ(stored->source, s.source);
  EXPECT_EQ(stored->source_hash, sha256_hex(s.source));
  EXPECT_EQ(stored->judge_version, s.judge_version);
  EXPECT_EQ(stored->run_key, s.run_key);
  ASSERT_EQ(stored->protections.size(), s.protections.size());
  for (std::size_t i = 0; i < s.protections.size(); ++i) {
    EXPECT_EQ(stored->protections[i].name, s.protections[i].name);
    EXPECT_EQ(stored->protections[i].on, s.protections[i].on);
    EXPECT_EQ(stored->protections[i].why, s.protections[i].why);
  }
  ASSERT_EQ(stored->cases.size(), s.cases.size());
  for (std::size_t i = 0; i < s.cases.size(); ++i) {
    const auto& want = s.cases[i];
    const auto& got = stored->cases[i];
    EXPECT_EQ(got.name, want.name);
    if (std::isnan(want.median_ms)) {
      EXPECT_TRUE(std::isnan(got.median_ms)) << got.median_ms;
    } else {
      EXPECT_EQ(got.median_ms, want.median_ms);
    }
    EXPECT_EQ(got.stress, want.stress);
    EXPECT_EQ(got.verdict, want.verdict);
    EXPECT_EQ(got.beyond, want.beyond);
    EXPECT_EQ(got.min_ms, want.min_ms);
    EXPECT_EQ(got.spread_pct, want.spread_pct);
    EXPECT_EQ(got.samples, want.samples);
    EXPECT_EQ(got.gflops, want.gflops);
    EXPECT_EQ(got.gbps, want.gbps);
    EXPECT_EQ(got.reference_ms, want.reference_ms);
  }
  EXPECT_FALSE(board.get(id + 1000).has_value());
}

TEST_P(LeaderboardTest, ToJsonCarriesEveryField) {
  Leaderboard board(location_);
  const auto id = board.record(submission("alice", 2.0)).id;
  const auto s = *board.get(id);

  const auto json = to_json(s);
  EXPECT_EQ(json.at("id"), id);
  EXPECT_EQ(json.at("challenge"), "vector_add");
  EXPECT_EQ(json.at("user"), "alice");
  EXPECT_EQ(json.at("gpu_name"), kH100);
  EXPECT_EQ(json.at("compute_capability"), "9.0");
  EXPECT_EQ(json.at("created_at"), s.created_at);
  EXPECT_EQ(json.at("score_ms"), 2.0);
  EXPECT_EQ(json.at("source_hash"), s.source_hash);
  EXPECT_EQ(json.at("source"), s.source);
  EXPECT_EQ(json.at("judge_version"), "0.1.0");
  ASSERT_TRUE(json.at("cases").is_array());
  ASSERT_EQ(json.at("cases").size(), 2u);
  const auto& c = json.at("cases").at(1);
  EXPECT_EQ(c.at("name"), "large");
  EXPECT_EQ(c.at("median_ms"), 4.0);
  EXPECT_EQ(c.at("min_ms"), 2.0 * 1.9);
  EXPECT_EQ(c.at("spread_pct"), 0.25);
  EXPECT_EQ(c.at("samples"), 20);
  EXPECT_EQ(c.at("gflops"), 20.0);
  EXPECT_EQ(c.at("gbps"), 800.0);
  EXPECT_EQ(c.at("reference_ms"), 1.5);
  EXPECT_EQ(c.at("stress"), false);
  EXPECT_EQ(c.at("verdict"), "");
  EXPECT_EQ(c.at("beyond"), "");
  EXPECT_EQ(c.size(), 11u);
  ASSERT_TRUE(json.at("protections").is_array());
  ASSERT_EQ(json.at("protections").size(), 2u);
  EXPECT_EQ(json.at("protections").at(1).at("name"), "uid drop");
  EXPECT_EQ(json.at("protections").at(1).at("on"), false);
  EXPECT_EQ(json.at("protections").at(1).at("why"), "judge not running as root: solver keeps uid 1000");
  EXPECT_EQ(json.at("run_key"), "");
  EXPECT_EQ(json.size(), 13u);

  const auto entry = to_json(board.ranking("vector_add", kH100).at(0));
  EXPECT_EQ(entry.at("rank"), 1);
  EXPECT_EQ(entry.at("user"), "alice");
  EXPECT_EQ(entry.at("score_ms"), 2.0);
  EXPECT_EQ(entry.at("submission_id"), id);
  EXPECT_EQ(entry.at("created_at"), s.created_at);
  EXPECT_EQ(entry.at("attempts"), 1);
  EXPECT_EQ(entry.size(), 6u);
}

TEST(Leaderboard, FileThatIsNotADatabaseIsReportedAndLeftAlone) {
  TempDir dir;
  for (const std::string& garbage : {std::string("hello, I am not a database\n"), std::string(8192, 'x')}) {
    const auto path = dir / "garbage.db";
    write_file(path, garbage);
    const auto message = error_from([&] { Leaderboard board(path); });
    EXPECT_TRUE(contains(message, path.string()));
    EXPECT_TRUE(contains(message, "Move it aside"));
    EXPECT_TRUE(contains(message, "nothing was written"));
    EXPECT_EQ(read_file(path), garbage);
  }
}

TEST(Leaderboard, SomeOtherSqliteDatabaseIsNotTakenOver) {
  TempDir dir;
  const auto path = dir / "other.db";
  RawConnection(path).exec("CREATE TABLE notes (text TEXT)");
  const auto message = error_from([&] { Leaderboard board(path); });
  EXPECT_TRUE(contains(message, path.string()));
  EXPECT_TRUE(contains(message, "Move it aside"));
  EXPECT_EQ(RawConnection(path).scalar("SELECT count(*) FROM sqlite_master WHERE name = 'submissions'"), 0);
}

TEST_P(LeaderboardTest, NewerSchemaIsRefused) {
  { Leaderboard board(location_); }
  raw()->exec(postgres() ? "UPDATE judge_schema SET version = 4" : "PRAGMA user_version = 4");
  for (const auto access : {Leaderboard::Access::read_write, Leaderboard::Access::read_only}) {
    const auto message = error_from([&] { Leaderboard board(location_, access); });
    EXPECT_TRUE(contains(message, location_));
    EXPECT_TRUE(contains(message, "newer judge"));
  }
}

TEST(Leaderboard, NewFilesHaveSchemaVersion3) {
  TempDir dir;
  const auto path = dir / "lb.db";
  { Leaderboard board(path); }
  // Judges of versions 1 and 2 refuse this file (newer schema) instead of writing runs without what it records.
  EXPECT_EQ(RawConnection(path).scalar("PRAGMA user_version"), 3);
  EXPECT_EQ(submission_columns(path).count("protections"), 1u);
  EXPECT_EQ(submission_columns(path).count("run_key"), 1u);
}

// A leaderboard written by a judge of schema version 1 keeps working: read-only access (reports) reads it as it is,
// read-write access migrates it in place; its runs read back with no protections ("not recorded"), new runs keep
// theirs.
TEST(Leaderboard, Version1FileIsReadAsItIsAndMigratedOnFirstWrite) {
  TempDir dir;
  const auto path = dir / "lb.db";
  write_version_1_leaderboard(path);
  {
    Leaderboard reader(path, Leaderboard::Access::read_only);
    const auto old = reader.get(1);
    ASSERT_TRUE(old.has_value());
    EXPECT_EQ(old->user, "old-timer");
    EXPECT_TRUE(old->protections.empty());
    ASSERT_EQ(reader.history("vector_add").size(), 1u);
    EXPECT_TRUE(reader.history("vector_add")[0].protections.empty());
    EXPECT_EQ(reader.ranking("vector_add", kH100).size(), 1u);
  }
  EXPECT_EQ(RawConnection(path).scalar("PRAGMA user_version"), 1) << "a reader migrates nothing";
  EXPECT_EQ(submission_columns(path).count("protections"), 0u);

  std::int64_t new_id = 0;
  {
    Leaderboard board(path);
    EXPECT_EQ(RawConnection(path).scalar("PRAGMA user_version"), 3);
    EXPECT_EQ(submission_columns(path).count("protections"), 1u);
    const auto old = board.get(1);
    ASSERT_TRUE(old.has_value());
    EXPECT_EQ(old->user, "old-timer");
    EXPECT_EQ(old->score_ms, 1.5);
    EXPECT_EQ(old->source, "// from before");
    ASSERT_EQ(old->cases.size(), 1u);
    EXPECT_EQ(old->cases[0].samples, 30);
    EXPECT_TRUE(old->protections.empty());
    const Recorded recorded = board.record(submission("newcomer", 1.0));
    new_id = recorded.id;
    EXPECT_EQ(recorded.rank, 1);
    EXPECT_EQ(recorded.ranked, 2);
  }
  Leaderboard reopened(path);  // already at version 3: nothing to migrate
  const auto fresh = reopened.get(new_id);
  ASSERT_TRUE(fresh.has_value());
  ASSERT_EQ(fresh->protections.size(), 2u);
  EXPECT_EQ(fresh->protections[0].name, "landlock");
  EXPECT_TRUE(fresh->protections[0].on);
  EXPECT_EQ(fresh->protections[1].name, "uid drop");
  EXPECT_FALSE(fresh->protections[1].on);
  EXPECT_EQ(fresh->protections[1].why, "judge not running as root: solver keeps uid 1000");
  const auto history = reopened.history("vector_add");
  ASSERT_EQ(history.size(), 2u);
  EXPECT_TRUE(reopened.get(1)->protections.empty());
  EXPECT_EQ(RawConnection(path).scalar("SELECT count(*) FROM submissions"), 2);
}

// A reader that opened a version 1 file sees the protections of runs recorded after another judge migrated it.
TEST(Leaderboard, ReaderOfAVersion1FileSeesAMigrationMadeWhileItWasOpen) {
  TempDir dir;
  const auto path = dir / "lb.db";
  write_version_1_leaderboard(path);
  Leaderboard reader(path, Leaderboard::Access::read_only);
  const auto id = Leaderboard(path).record(submission("newcomer", 1.0)).id;
  const auto fresh = reader.get(id);
  ASSERT_TRUE(fresh.has_value());
  EXPECT_EQ(fresh->protections.size(), 2u);
  EXPECT_TRUE(reader.get(1)->protections.empty());
}

// Judges starting at once on a version 1 file: one migrates, the others find it done (the column is added once).
TEST(Leaderboard, ConcurrentOpensMigrateAVersion1FileOnce) {
  TempDir dir;
  const auto path = dir / "lb.db";
  write_version_1_leaderboard(path);
  constexpr int kThreads = 6;
  std::vector<std::thread> threads;
  std::vector<std::string> errors(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        Leaderboard board(path);
        board.record(submission("judge" + std::to_string(t), 1.0 + t));
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& e : errors) EXPECT_EQ(e, "");
  EXPECT_EQ(RawConnection(path).scalar("PRAGMA user_version"), 3);
  Leaderboard board(path);
  const auto history = board.history("vector_add");
  ASSERT_EQ(history.size(), std::size_t{kThreads + 1});
  for (const auto& s : history) EXPECT_EQ(s.protections.size(), s.user == "old-timer" ? 0u : 2u) << s.user;
}

// Protections stored as something other than a list (edited by hand) read as one protection, off, saying so: the
// rest of the leaderboard still reads, and the run does not pass for a sandboxed one or an unrecorded one.
TEST_P(LeaderboardTest, UnreadableStoredProtectionsReadAsOff) {
  Leaderboard board(location_);
  const auto id = board.record(submission("alice", 1.0)).id;
  raw()->exec("UPDATE submissions SET protections = 'all on, trust me'");
  const auto s = board.get(id);
  ASSERT_TRUE(s.has_value());
  ASSERT_EQ(s->protections.size(), 1u);
  EXPECT_FALSE(s->protections[0].on);
  EXPECT_TRUE(contains(s->protections[0].why, "could not be read")) << s->protections[0].why;
}

TEST(Leaderboard, UncreatableDirectoryNamesThePath) {
  TempDir dir;
  write_file(dir / "plain-file", "x");
  const auto path = dir / "plain-file" / "lb.db";
  const auto message = error_from([&] { Leaderboard board(path); });
  EXPECT_TRUE(contains(message, path.string()));
  EXPECT_TRUE(contains(message, "--db"));
}

TEST(Leaderboard, ReadOnlyFileOrDirectoryNamesThePath) {
  if (geteuid() == 0) GTEST_SKIP() << "running as root, which ignores file permissions";
  TempDir dir;
  const auto file = dir / "readonly.db";
  { Leaderboard board(file); }
  ASSERT_EQ(chmod(file.c_str(), 0444), 0);
  auto message = error_from([&] { Leaderboard board(file); });
  EXPECT_TRUE(contains(message, file.string()));
  EXPECT_TRUE(contains(message, "permissions"));
  chmod(file.c_str(), 0644);

  const auto locked_dir = dir / "locked";
  std::filesystem::create_directory(locked_dir);
  ASSERT_EQ(chmod(locked_dir.c_str(), 0555), 0);
  message = error_from([&] { Leaderboard board(locked_dir / "lb.db"); });
  EXPECT_TRUE(contains(message, (locked_dir / "lb.db").string()));
  EXPECT_TRUE(contains(message, "permissions"));
  chmod(locked_dir.c_str(), 0755);
}

// Reports read with Access::read_only: nothing is created or written, and a file others may not write still reads.
TEST(Leaderboard, ReadOnlyAccessOfAMissingFileNamesItAndCreatesNothing) {
  TempDir dir;
  const auto path = dir / "data" / "lb.db";
  const auto message = error_from([&] { Leaderboard board(path, Leaderboard::Access::read_only); });
  EXPECT_TRUE(contains(message, "there is no leaderboard at " + path.string())) << message;
  EXPECT_TRUE(contains(message, "--db")) << message;
  EXPECT_FALSE(std::filesystem::exists(dir / "data"));
}

TEST(Leaderboard, ReadOnlyAccessReadsAFileItMayNotWrite) {
  TempDir dir;
  const auto path = dir / "lb.db";
  {
    Leaderboard board(path);
    board.record(submission("alice", 2.0));
    board.record(submission("bob", 1.0));
  }
  ASSERT_EQ(chmod(path.c_str(), 0444), 0);
  Leaderboard board(path, Leaderboard::Access::read_only);
  const auto ranking = board.ranking("vector_add", kH100);
  ASSERT_EQ(ranking.size(), 2u);
  EXPECT_EQ(ranking[0].user, "bob");
  EXPECT_EQ(board.history("vector_add").at(0).cases.size(), 2u);
  const auto message = error_from([&] { board.record(submission("carol", 0.5)); });
  EXPECT_TRUE(contains(message, "read-only")) << message;
  chmod(path.c_str(), 0644);
}

TEST(Leaderboard, ReadOnlyAccessRefusesWhatReadWriteRefuses) {
  TempDir dir;
  const auto garbage = dir / "garbage.db";
  write_file(garbage, std::string(8192, 'x'));
  EXPECT_TRUE(contains(error_from([&] { Leaderboard board(garbage, Leaderboard::Access::read_only); }),
                       "Move it aside"));
  const auto other = dir / "other.db";
  RawConnection(other).exec("CREATE TABLE notes (text TEXT)");
  EXPECT_TRUE(contains(error_from([&] { Leaderboard board(other, Leaderboard::Access::read_only); }),
                       "other tables"));
  const auto newer = dir / "newer.db";
  { Leaderboard board(newer); }
  RawConnection(newer).exec("PRAGMA user_version = 4");
  EXPECT_TRUE(contains(error_from([&] { Leaderboard board(newer, Leaderboard::Access::read_only); }),
                       "newer judge"));
}

TEST(Leaderboard, SubmissionFromJsonReadsWhatToJsonWrote) {
  SubmissionRecord s = submission("alice", 2.0);
  s.id = 7;
  s.created_at = "2025-05-01T09:00:00.000Z";
  s.source_hash = "abc";
  s.cases[1].reference_ms = std::numeric_limits<double>::quiet_NaN();  // stored as null
  const SubmissionRecord back = submission_from_json(nlohmann::json::parse(to_json(s).dump()));
  EXPECT_EQ(to_json(back).dump(), to_json(s).dump());
  EXPECT_TRUE(std::isnan(back.cases[1].reference_ms));
  ASSERT_EQ(back.protections.size(), 2u);
  EXPECT_EQ(back.protections[1].name, "uid drop");
  EXPECT_FALSE(back.protections[1].on);
  // A result saved by a judge that did not record protections: not recorded.
  nlohmann::json older = to_json(s);
  older.erase("protections");
  EXPECT_TRUE(submission_from_json(older).protections.empty());
  EXPECT_THROW(submission_from_json(nlohmann::json::parse(R"({"challenge": "x"})")), nlohmann::json::exception);
}

TEST_P(LeaderboardTest, LockHeldByAnotherJudgeFailsCleanlyAndARetrySucceeds) {
  Leaderboard board(location_);
  board.set_busy_timeout(std::chrono::milliseconds(200));
  const auto other = raw();
  other->exec(postgres() ? "BEGIN; LOCK TABLE submissions IN EXCLUSIVE MODE" : "BEGIN EXCLUSIVE");

  const auto started = std::chrono::steady_clock::now();
  const auto message = error_from([&] { board.record(submission("alice", 1.0)); });
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(150));  // it did wait
  EXPECT_TRUE(contains(message, location_));
  EXPECT_TRUE(contains(message, "locked by another judge"));
  EXPECT_TRUE(contains(message, "Try again"));

  other->exec("COMMIT");
  const auto id = board.record(submission("alice", 1.0)).id;
  EXPECT_EQ(other->scalar("SELECT count(*) FROM submissions"), 1);
  EXPECT_EQ(other->scalar("SELECT count(*) FROM case_results"), 2);
  EXPECT_EQ(other->scalar("SELECT count(*) FROM case_results WHERE submission_id = " + std::to_string(id)), 2);
}

TEST_P(LeaderboardTest, FailureHalfwayThroughARecordLeavesNothingBehind) {
  Leaderboard board(location_);
  // Make the second case's insert fail after the submission row and the first case went in.
  raw()->exec(postgres() ? "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                           "IF NEW.name = 'large' THEN RAISE EXCEPTION 'refused by test trigger'; END IF; "
                           "RETURN NEW; END $$; "
                           "CREATE TRIGGER refuse BEFORE INSERT ON case_results FOR EACH ROW EXECUTE FUNCTION refuse()"
                         : "CREATE TRIGGER refuse BEFORE INSERT ON case_results WHEN NEW.name = 'large' "
                           "BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END");
  const auto message = error_from([&] { board.record(submission("alice", 1.0)); });
  EXPECT_TRUE(contains(message, location_));
  EXPECT_TRUE(contains(message, "refused by test trigger"));

  const auto check = raw();
  EXPECT_EQ(check->scalar("SELECT count(*) FROM submissions"), 0);
  EXPECT_EQ(check->scalar("SELECT count(*) FROM case_results"), 0);
  check->exec(postgres() ? "DROP TRIGGER refuse ON case_results" : "DROP TRIGGER refuse");
  board.record(submission("alice", 1.0));  // the connection is usable again: no transaction left open
  EXPECT_EQ(check->scalar("SELECT count(*) FROM submissions"), 1);
}

// "Many judges at once lose nothing": separate processes, each with its own connection, created at the same moment
// on a file that does not exist yet, all writing as fast as they can.
TEST_P(LeaderboardTest, ConcurrentJudgeProcessesLoseNothing) {
  // No tables yet (a database nobody wrote to; for SQLite not even its directory): the judges race to create them.
  const std::string path = postgres() ? location_ : (dir_ / "shared" / "lb.db").string();
  constexpr int kProcesses = 8;
  constexpr int kRecordsEach = 25;

  int start[2];
  ASSERT_EQ(pipe(start), 0);
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(start[1]);
      char byte;
      (void)!read(start[0], &byte, 1);  // returns 0 once the parent closes its end: everyone starts together
      try {
        Leaderboard board(path);
        for (int m = 0; m < kRecordsEach; ++m) board.record(submission("judge" + std::to_string(p), 1.0 + m));
      } catch (const std::exception& e) {
        fprintf(stderr, "child %d: %s\n", p, e.what());
        _exit(1);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  close(start[0]);
  close(start[1]);
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a judge process failed; see its stderr";
  }

  Leaderboard board(path);
  const auto all = board.history("vector_add");
  EXPECT_EQ(all.size(), std::size_t{kProcesses * kRecordsEach});
  std::set<std::int64_t> ids;
  for (const auto& s : all) {
    ids.insert(s.id);
    EXPECT_EQ(s.cases.size(), 2u);
  }
  EXPECT_EQ(ids.size(), all.size());
  const auto ranking = board.ranking("vector_add", kH100);
  ASSERT_EQ(ranking.size(), std::size_t{kProcesses});
  for (const auto& entry : ranking) {
    EXPECT_EQ(entry.attempts, kRecordsEach);
    EXPECT_EQ(entry.score_ms, 1.0);
  }
}

TEST_P(LeaderboardTest, ThreadsSharingOrNotSharingALeaderboardLoseNothing) {
  const std::string& path = location_;
  constexpr int kThreads = 4;
  constexpr int kRecordsEach = 20;
  Leaderboard shared(path);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Leaderboard own(path);
      for (int m = 0; m < kRecordsEach; ++m) {
        shared.record(submission("shared" + std::to_string(t), 1.0 + m));
        own.record(submission("own" + std::to_string(t), 1.0 + m));
        (void)shared.ranking("vector_add", kH100);  // readers interleaved with writers
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(shared.history("vector_add").size(), std::size_t{2 * kThreads * kRecordsEach});
  EXPECT_EQ(raw()->scalar("SELECT count(*) FROM case_results"), 2 * 2 * kThreads * kRecordsEach);
}

// Judges submitting at once, each on its own connection: every rank a judge reports is the rank its user had in the
// database right after its own insert, whatever the others inserted just after. Ids grow in commit order (each
// insert holds the write lock), so the ranking at that moment is the one of the submissions up to its id.
TEST_P(LeaderboardTest, ConcurrentRecordsReportTheRankOfTheirOwnMoment) {
  const std::string& path = location_;
  constexpr int kThreads = 8;
  constexpr int kRecordsEach = 15;
  // Distinct scores in a shuffled order: users overtake one another all the time, and no tie needs breaking.
  std::vector<double> scores(kThreads * kRecordsEach);
  for (std::size_t i = 0; i < scores.size(); ++i) scores[i] = 1.0 + static_cast<double>(i);
  std::shuffle(scores.begin(), scores.end(), std::mt19937(12345));
  struct Reported {
    std::int64_t id;
    std::string user;
    double score;
    int rank;
    int ranked;
  };
  std::vector<std::vector<Reported>> reported(kThreads);
  { Leaderboard create(path); }
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Leaderboard own(path);
      for (int m = 0; m < kRecordsEach; ++m) {
        const std::string user = "user" + std::to_string(t);
        const double score = scores[t * kRecordsEach + m];
        const Recorded r = own.record(submission(user, score));
        reported[t].push_back({r.id, user, score, r.rank, r.ranked});
      }
    });
  }
  for (auto& thread : threads) thread.join();

  std::vector<Reported> all;
  for (const auto& list : reported) all.insert(all.end(), list.begin(), list.end());
  std::sort(all.begin(), all.end(), [](const Reported& a, const Reported& b) { return a.id < b.id; });
  ASSERT_EQ(all.size(), scores.size());
  std::map<std::string, double> best;  // each user's best so far, replayed in commit order
  int mismatched = 0;
  for (const auto& r : all) {
    auto it = best.find(r.user);
    if (it == best.end() || r.score < it->second) best[r.user] = r.score;
    int expected = 1;
    for (const auto& [user, score] : best)
      if (score < best[r.user]) ++expected;
    const int users = static_cast<int>(best.size());
    if ((r.rank != expected || r.ranked != users) && ++mismatched <= 5)
      ADD_FAILURE() << "submission #" << r.id << " of " << r.user << " (score " << r.score << ") reported rank "
                    << r.rank << " of " << r.ranked << ", but right after it was inserted its user was rank "
                    << expected << " of " << users;
  }
  EXPECT_EQ(mismatched, 0);
  // The last report of each judge agrees with the final ranking too.
  Leaderboard board(path);
  std::map<std::string, int> final_rank;
  for (const auto& e : board.ranking("vector_add", kH100)) final_rank[e.user] = e.rank;
  EXPECT_EQ(all.back().rank, final_rank[all.back().user]);
}

// A run recorded again under the same key (a batch shard resumed after a failure) is not inserted twice: the second
// record returns the first one's id, says it is a duplicate, and ranks the user as they stand now.
TEST_P(LeaderboardTest, RunKeyRecordsARunOnce) {
  Leaderboard board(location_);
  auto first = submission("alice", 2.0);
  first.run_key = "batch-1/alice/1_naive.cu";
  const Recorded recorded = board.record(first);
  EXPECT_FALSE(recorded.duplicate);
  board.record(submission("bob", 1.0));

  auto again = first;
  again.score_ms = 0.5;  // judged again, timed differently: still the same run
  const Recorded duplicate = board.record(again);
  EXPECT_TRUE(duplicate.duplicate);
  EXPECT_EQ(duplicate.id, recorded.id);
  EXPECT_EQ(duplicate.rank, 2) << "alice's current place, behind bob";
  EXPECT_EQ(duplicate.ranked, 2);
  const auto other = raw();
  EXPECT_EQ(other->scalar("SELECT count(*) FROM submissions"), 2);
  EXPECT_EQ(other->scalar("SELECT count(*) FROM case_results"), 4);
  EXPECT_EQ(board.get(recorded.id)->score_ms, 2.0);
  EXPECT_EQ(board.get(recorded.id)->run_key, first.run_key);

  // Runs without a key never collide; another key is another run.
  EXPECT_FALSE(board.record(submission("alice", 3.0)).duplicate);
  EXPECT_FALSE(board.record(submission("alice", 3.0)).duplicate);
  auto second = first;
  second.run_key = "batch-1/alice/2_coalesced.cu";
  EXPECT_FALSE(board.record(second).duplicate);
  EXPECT_EQ(other->scalar("SELECT count(*) FROM submissions"), 5);
  EXPECT_EQ(board.ranking("vector_add", kH100).at(1).attempts, 4);
}

TEST_P(LeaderboardTest, ReadOnlyAccessOfAnEmptyLeaderboardReadsNothingAndCreatesNothing) {
  if (!postgres()) write_file(location_, "");
  {
    Leaderboard board(location_, Leaderboard::Access::read_only);
    EXPECT_TRUE(board.overview().empty());
    EXPECT_TRUE(board.history("vector_add").empty());
    EXPECT_TRUE(board.ranking("vector_add", kH100).empty());
    EXPECT_TRUE(board.gpus("vector_add").empty());
    EXPECT_FALSE(board.get(1).has_value());
    const auto message = error_from([&] { board.record(submission("carol", 0.5)); });
    EXPECT_TRUE(contains(message, "read-only")) << message;
  }
  if (postgres()) {
    EXPECT_EQ(raw()->scalar("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"), 0);
  } else {
    EXPECT_EQ(std::filesystem::file_size(location_), 0u);
  }
}

TEST_P(LeaderboardTest, ReadOnlyAccessReadsWhatWasRecordedAndRefusesToRecord) {
  {
    Leaderboard board(location_);
    board.record(submission("alice", 2.0));
    board.record(submission("bob", 1.0));
  }
  Leaderboard board(location_, Leaderboard::Access::read_only);
  const auto ranking = board.ranking("vector_add", kH100);
  ASSERT_EQ(ranking.size(), 2u);
  EXPECT_EQ(ranking[0].user, "bob");
  EXPECT_EQ(board.history("vector_add").at(0).cases.size(), 2u);
  const auto message = error_from([&] { board.record(submission("carol", 0.5)); });
  EXPECT_TRUE(contains(message, "read-only")) << message;
  EXPECT_EQ(raw()->scalar("SELECT count(*) FROM submissions"), 2);
}

// A leaderboard of schema version 2 (protections, no run keys, no per-case verdicts) is migrated on first write: its
// runs read back with no run key and every case accepted within the promises; new runs keep theirs.
TEST(Leaderboard, Version2FileIsReadAsItIsAndMigratedOnFirstWrite) {
  TempDir dir;
  const auto path = dir / "lb.db";
  write_version_1_leaderboard(path);
  RawConnection(path).exec(
      "ALTER TABLE submissions ADD COLUMN protections TEXT NOT NULL DEFAULT '[]';"
      "UPDATE submissions SET protections = '[{\"name\": \"landlock\", \"on\": true, \"why\": \"ABI 6\"}]';"
      "PRAGMA user_version = 2");
  {
    Leaderboard reader(path, Leaderboard::Access::read_only);
    const auto old = reader.get(1);
    ASSERT_TRUE(old.has_value());
    EXPECT_EQ(old->protections.size(), 1u);
    EXPECT_EQ(old->run_key, "");
    ASSERT_EQ(old->cases.size(), 1u);
    EXPECT_FALSE(old->cases[0].stress);
  }
  EXPECT_EQ(RawConnection(path).scalar("PRAGMA user_version"), 2) << "a reader migrates nothing";

  Leaderboard board(path);
  EXPECT_EQ(RawConnection(path).scalar("PRAGMA user_version"), 3);
  EXPECT_EQ(submission_columns(path).count("run_key"), 1u);
  const auto old = board.get(1);
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->protections.size(), 1u);
  EXPECT_EQ(old->run_key, "");
  ASSERT_EQ(old->cases.size(), 1u);
  EXPECT_FALSE(old->cases[0].stress);
  EXPECT_EQ(old->cases[0].verdict, "");
  EXPECT_EQ(old->cases[0].samples, 30);

  auto keyed = submission("newcomer", 1.0);
  keyed.run_key = "k";
  keyed.cases[1].stress = true;
  keyed.cases[1].verdict = "timeout";
  keyed.cases[1].beyond = "N past the promised 10^8";
  const auto id = board.record(keyed).id;
  EXPECT_TRUE(board.record(keyed).duplicate) << "the key is unique after the migration";
  const auto fresh = board.get(id);
  EXPECT_EQ(fresh->run_key, "k");
  EXPECT_TRUE(fresh->cases[1].stress);
  EXPECT_EQ(fresh->cases[1].verdict, "timeout");
  EXPECT_EQ(fresh->cases[1].beyond, "N past the promised 10^8");
  EXPECT_EQ(RawConnection(path).scalar("SELECT count(*) FROM submissions WHERE run_key IS NULL"), 1);
}

TEST(Leaderboard, SubmissionFromJsonCarriesRunKeyAndCaseVerdictsAndReadsOldResults) {
  SubmissionRecord s = submission("alice", 2.0);
  s.run_key = "shard-2/alice";
  s.cases[1].stress = true;
  s.cases[1].verdict = "wrong_answer";
  s.cases[1].beyond = "values past the promised range";
  const SubmissionRecord back = submission_from_json(nlohmann::json::parse(to_json(s).dump()));
  EXPECT_EQ(back.run_key, "shard-2/alice");
  EXPECT_TRUE(back.cases[1].stress);
  EXPECT_EQ(back.cases[1].verdict, "wrong_answer");
  EXPECT_EQ(back.cases[1].beyond, "values past the promised range");
  EXPECT_EQ(to_json(back).dump(), to_json(s).dump());

  // Saved by a judge of schema 2: no run key, no per-case verdicts.
  nlohmann::json older = to_json(s);
  older.erase("run_key");
  for (auto& c : older.at("cases")) {
    c.erase("stress");
    c.erase("verdict");
    c.erase("beyond");
  }
  const SubmissionRecord old = submission_from_json(older);
  EXPECT_EQ(old.run_key, "");
  EXPECT_FALSE(old.cases[1].stress);
  EXPECT_EQ(old.cases[1].verdict, "");
  EXPECT_EQ(old.cases[1].beyond, "");
}

}  // namespace
}  // namespace judge
