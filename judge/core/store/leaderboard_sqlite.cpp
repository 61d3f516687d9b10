// The leaderboard in one SQLite file: the default, embedded, for the judges of one machine. The schema version is
// the file's user_version; older files are migrated on first write, and read as they are by readers.
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <string_view>
#include <system_error>
#include <utility>

#include <sqlite3.h>

#include "judge/core/store/leaderboard_store.hpp"
#include "judge/core/store/store_rows.hpp"

namespace judge {
namespace {

constexpr int kSchemaVersion = kLeaderboardSchema;

constexpr const char* kCreateSchema = R"sql(
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
  judge_version TEXT NOT NULL,
  protections TEXT NOT NULL DEFAULT '[]',
  run_key TEXT
);
CREATE INDEX submissions_by_ranking ON submissions (challenge, gpu_name, user, score_ms);
CREATE UNIQUE INDEX submissions_by_run_key ON submissions (run_key);
CREATE TABLE case_results (
  submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  median_ms REAL,
  min_ms REAL,
  spread_pct REAL,
  samples INTEGER NOT NULL,
  gflops REAL,
  gbps REAL,
  reference_ms REAL,
  stress INTEGER NOT NULL DEFAULT 0,
  verdict TEXT NOT NULL DEFAULT '',
  beyond TEXT NOT NULL DEFAULT ''
);
CREATE INDEX case_results_by_submission ON case_results (submission_id);
)sql";

// From version 1 to 2: the runs already recorded keep an empty list, which reads as "not recorded".
constexpr const char* kMigrateTo2 = "ALTER TABLE submissions ADD COLUMN protections TEXT NOT NULL DEFAULT '[]'";

// From version 2 to 3: no run recorded so far has a run key (NULL: none, and SQLite's UNIQUE lets NULLs repeat), and
// every case recorded so far was an accepted one within the promises.
constexpr const char* kMigrateTo3 = R"sql(
ALTER TABLE submissions ADD COLUMN run_key TEXT;
CREATE UNIQUE INDEX submissions_by_run_key ON submissions (run_key);
ALTER TABLE case_results ADD COLUMN stress INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_results ADD COLUMN verdict TEXT NOT NULL DEFAULT '';
ALTER TABLE case_results ADD COLUMN beyond TEXT NOT NULL DEFAULT '';
)sql";

// The case metrics may be NaN (SQLite stores NaN as NULL), so those columns allow NULL and read back as NaN.
// A reader of an older file (read-only access migrates nothing) reads what it lacks as a judge of its time recorded
// it: protections unrecorded (version 1), no run key, every case accepted within the promises (versions 1 and 2).
// The version is read in the reader's transaction: another judge may have migrated the file since it was opened.
std::string submission_columns(int version) {
  return fmt::format(
      "id, challenge, user, gpu_name, compute_capability, created_at, score_ms, source_hash, source, judge_version, "
      "{}, {}",
      version >= 2 ? "protections" : "'[]'", version >= 3 ? "coalesce(run_key, '')" : "''");
}

std::string case_columns(int version) {
  return fmt::format("name, median_ms, min_ms, spread_pct, samples, gflops, gbps, reference_ms, {}",
                     version >= 3 ? "stress, verdict, beyond" : "0, '', ''");
}

LeaderboardError not_a_leaderboard(const std::string& path, std::string_view detail) {
  return LeaderboardError(fmt::format(
      "{0} is not a judge leaderboard or is corrupt ({1}). Move it aside (e.g. mv {0} {0}.bad) and run again; "
      "nothing was written.",
      path, detail));
}

struct SqliteCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};

// One SQLite connection and the rules for turning its failures into sentences for the user.
class Connection {
 public:
  Connection(const std::filesystem::path& path, Leaderboard::Access access)
      : path_(path.string()), read_only_(access == Leaderboard::Access::read_only) {
    if (read_only_) {
      // SQLite would only say "unable to open database file"; a reader that finds nothing wants to know why.
      std::error_code ec;
      if (!std::filesystem::exists(path, ec))
        JUDGE_THROW(LeaderboardError,
                    "there is no leaderboard at {}: nothing has been recorded there yet (`judge submit` records "
                    "accepted runs; --db / JUDGE_DB name another file)",
                    path_);
    } else if (path.has_parent_path()) {
      std::error_code ec;
      std::filesystem::create_directories(path.parent_path(), ec);
      if (ec) {
        JUDGE_THROW(LeaderboardError,
                    "cannot create the directory {} for the leaderboard {} ({}). Fix its permissions or pass "
                    "another path with --db / JUDGE_DB; nothing was written.",
                    path.parent_path().string(), path_, ec.message());
      }
    }
    sqlite3* raw = nullptr;
    const int flags = (read_only_ ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
                      SQLITE_OPEN_FULLMUTEX;
    const int rc = sqlite3_open_v2(path_.c_str(), &raw, flags, nullptr);
    db_.reset(raw);  // even a failed open allocates a handle that carries the message
    if (rc != SQLITE_OK) fail(rc, "opening it");
    sqlite3_extended_result_codes(db_.get(), 1);
    // SQLite silently falls back to read-only when the OS refuses write access; a judge would only find out at
    // the end of a run, when its result cannot be saved.
    if (!read_only_ && sqlite3_db_readonly(db_.get(), "main") == 1) {
      fail(SQLITE_READONLY, "opening it", "the file is read-only");
    }
    set_busy_timeout(kDefaultBusyTimeout);
  }

  sqlite3* get() const { return db_.get(); }
  const std::string& path() const { return path_; }
  bool read_only() const { return read_only_; }

  void set_busy_timeout(std::chrono::milliseconds timeout) {
    busy_timeout_ = timeout;
    sqlite3_busy_timeout(db_.get(), static_cast<int>(timeout.count()));
  }

  // Runs SQL that returns no rows (several statements allowed).
  void exec(const char* sql, std::string_view doing) const {
    const int rc = sqlite3_exec(db_.get(), sql, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) fail(rc, doing);
  }

  [[noreturn]] void fail(int rc, std::string_view doing, std::string_view detail = {}) const {
    const std::string why(!detail.empty() ? detail
                          : db_        ? std::string_view(sqlite3_errmsg(db_.get()))
                                       : std::string_view(sqlite3_errstr(rc)));
    switch (rc & 0xff) {
      case SQLITE_NOTADB:
      case SQLITE_CORRUPT:
        throw not_a_leaderboard(path_, why);
      case SQLITE_BUSY:
      case SQLITE_LOCKED:
        JUDGE_THROW(LeaderboardError,
                    "{} is locked by another judge: gave up {} after waiting {} ms for the lock ({}). Try again "
                    "when the other judge has finished; nothing was written.",
                    path_, doing, busy_timeout_.count(), why);
      case SQLITE_READONLY:
      case SQLITE_CANTOPEN:
      case SQLITE_PERM:
      case SQLITE_AUTH:
        if (read_only_)
          JUDGE_THROW(LeaderboardError,
                      "cannot read the leaderboard {} ({} failed: {}). Fix the permissions of the file and its "
                      "directory, or pass another path with --db / JUDGE_DB.",
                      path_, doing, why);
        JUDGE_THROW(LeaderboardError,
                    "cannot write the leaderboard {} ({} failed: {}). Fix the permissions of the file and its "
                    "directory, or pass another path with --db / JUDGE_DB; nothing was written.",
                    path_, doing, why);
      default:
        JUDGE_THROW(LeaderboardError, "leaderboard {}: {} failed ({}); nothing was written.", path_, doing, why);
    }
  }

 private:
  std::string path_;
  bool read_only_ = false;
  std::unique_ptr<sqlite3, SqliteCloser> db_;
  std::chrono::milliseconds busy_timeout_{0};
};

// A prepared statement; every value from outside goes through bind(), never into the SQL text.
class Statement {
 public:
  Statement(const Connection& connection, std::string_view sql, std::string_view doing)
      : connection_(connection), doing_(doing) {
    const int rc = sqlite3_prepare_v2(connection.get(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr);
    if (rc != SQLITE_OK) connection_.fail(rc, doing_);
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int index, std::string_view value) {
    check(sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  }
  void bind(int index, double value) { check(sqlite3_bind_double(stmt_, index, value)); }
  void bind(int index, std::int64_t value) { check(sqlite3_bind_int64(stmt_, index, value)); }
  void bind_optional(int index, const std::optional<std::string>& value) {
    if (value) {
      bind(index, *value);
    } else {
      check(sqlite3_bind_null(stmt_, index));
    }
  }

  // True while there is a row to read.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    connection_.fail(rc, doing_);
  }
  void run() {
    while (step()) {
    }
  }
  // Makes the statement ready to bind and run again.
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }

  std::string text(int column) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return data ? std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))) : std::string();
  }
  double real(int column) const {
    if (sqlite3_column_type(stmt_, column) == SQLITE_NULL) return std::numeric_limits<double>::quiet_NaN();
    return sqlite3_column_double(stmt_, column);
  }
  std::int64_t integer(int column) const { return sqlite3_column_int64(stmt_, column); }
  bool boolean(int column) const { return integer(column) != 0; }

 private:
  void check(int rc) const {
    if (rc != SQLITE_OK) connection_.fail(rc, doing_);
  }

  const Connection& connection_;
  std::string_view doing_;
  sqlite3_stmt* stmt_ = nullptr;
};

// Rolls back unless commit() succeeded, so a failure anywhere inside leaves the file as it was.
class Transaction {
 public:
  enum class Mode { read, write };
  Transaction(const Connection& connection, Mode mode, std::string_view doing)
      : connection_(connection), doing_(doing) {
    // A writer takes the write lock up front (IMMEDIATE): waiting for it happens in the busy handler, before
    // anything is read, instead of failing at the first INSERT with a lock upgrade SQLite cannot wait for.
    connection_.exec(mode == Mode::write ? "BEGIN IMMEDIATE" : "BEGIN", doing_);
  }
  ~Transaction() {
    if (!committed_) sqlite3_exec(connection_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void commit() {
    connection_.exec("COMMIT", doing_);
    committed_ = true;
  }

 private:
  const Connection& connection_;
  std::string_view doing_;
  bool committed_ = false;
};

int user_version(const Connection& connection) {
  Statement query(connection, "PRAGMA user_version", "reading its schema version");
  query.step();
  return static_cast<int>(query.integer(0));
}

// Throws unless the file has no tables at all: a judge takes over an empty file, never some other database.
void expect_no_tables(const Connection& connection, std::string_view doing) {
  Statement tables(connection, "SELECT count(*) FROM sqlite_master", doing);
  tables.step();
  if (tables.integer(0) != 0) throw not_a_leaderboard(connection.path(), "it is an SQLite database with other tables");
}

// Returns the schema version the file has now, or 0 when a read-only connection finds no tables yet (an empty
// file): there is nothing to read, and a reader creates nothing. A read-write connection migrates an older file to
// kSchemaVersion; a read-only one reads it as it is (the version tells the readers which columns it has).
int open_schema(const Connection& connection) {
  connection.exec("PRAGMA foreign_keys = ON", "enabling foreign keys");
  // WAL lets readers (ranking, history) run while another judge writes. Filesystems without shared memory
  // support (some network mounts) refuse it; the default rollback journal then does the same job, more slowly, so
  // a refusal is not an error. A file that is no database at all is reported by the next statement.
  if (!connection.read_only()) sqlite3_exec(connection.get(), "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr);

  int version = user_version(connection);
  if (version == 0 && connection.read_only()) {
    expect_no_tables(connection, "reading its tables");
    return 0;
  }
  if (version == 0) {
    const char* doing = "creating the leaderboard tables";
    Transaction transaction(connection, Transaction::Mode::write, doing);
    version = user_version(connection);  // another judge may have created them while this one waited
    if (version == 0) {
      expect_no_tables(connection, doing);
      connection.exec(kCreateSchema, doing);
      connection.exec(fmt::format("PRAGMA user_version = {}", kSchemaVersion).c_str(), doing);
      version = kSchemaVersion;
    }
    transaction.commit();
  }
  if (version > kSchemaVersion) {
    JUDGE_THROW(LeaderboardError,
                "{} was written by a newer judge (schema version {}; this judge reads version {}). Upgrade the "
                "judge, or pass another path with --db / JUDGE_DB; nothing was written.",
                connection.path(), version, kSchemaVersion);
  }
  if (version < 1) {
    throw not_a_leaderboard(connection.path(), fmt::format("unknown schema version {}", version));
  }
  if (version < kSchemaVersion && !connection.read_only()) {
    // One transaction: a failure leaves the file at its old version, and another judge migrating at the same time
    // waits for the lock and then finds the work done.
    const char* doing = "upgrading the leaderboard tables";
    Transaction transaction(connection, Transaction::Mode::write, doing);
    version = user_version(connection);
    if (version == 1) {
      connection.exec(kMigrateTo2, doing);
      version = 2;
    }
    if (version == 2) {
      connection.exec(kMigrateTo3, doing);
      version = 3;
    }
    if (version < 1 || version > kSchemaVersion) {
      throw not_a_leaderboard(connection.path(), fmt::format("unknown schema version {}", version));
    }
    connection.exec(fmt::format("PRAGMA user_version = {}", version).c_str(), doing);
    transaction.commit();
  }
  return version;
}

// Fills in each submission's cases, in the order they were recorded.
void read_cases(const Connection& connection, int version, std::vector<SubmissionRecord>& submissions,
                std::string_view doing) {
  Statement query(connection,
                  fmt::format("SELECT {} FROM case_results WHERE submission_id = ?1 ORDER BY rowid",
                              case_columns(version)),
                  doing);
  for (auto& s : submissions) {
    query.bind(1, s.id);
    while (query.step()) s.cases.push_back(store::case_from(query, 0));
    query.reset();
  }
}

// Best accepted run per user, best first. Each user's best run is the lowest score, the earliest on ties
// (created_at, then id for runs recorded within the same millisecond); the ranking orders those best runs the same
// way. The caller holds the connection (and, inside record(), the write transaction).
std::vector<RankingEntry> read_ranking(const Connection& connection, const std::string& challenge,
                                       const std::string& gpu_name, std::string_view doing) {
  Statement query(connection, R"sql(
    WITH runs AS (
      SELECT id, user, score_ms, created_at,
             row_number() OVER (PARTITION BY user ORDER BY score_ms, created_at, id) AS nth_best,
             count(*) OVER (PARTITION BY user) AS attempts
      FROM submissions
      WHERE challenge = ?1 AND gpu_name = ?2)
    SELECT row_number() OVER (ORDER BY score_ms, created_at, id) AS rank,
           user, score_ms, id, created_at, attempts
    FROM runs WHERE nth_best = 1
    ORDER BY rank)sql",
                  doing);
  query.bind(1, challenge);
  query.bind(2, gpu_name);
  std::vector<RankingEntry> entries;
  while (query.step()) entries.push_back(store::ranking_entry_from(query));
  return entries;
}

}  // namespace

namespace {

class SqliteStore final : public LeaderboardStore {
 public:
  SqliteStore(const std::string& path, Leaderboard::Access access) : connection_(path, access) {
    version_ = open_schema(connection_);
  }

  void set_busy_timeout(std::chrono::milliseconds timeout) override { connection_.set_busy_timeout(timeout); }

  Recorded record(const SubmissionRecord& s) override {
    const char* doing = "recording the submission";
    Transaction transaction(connection_, Transaction::Mode::write, doing);
    // A run recorded before (a resumed batch judging it again) is answered from its row: the write lock is held, so
    // no other judge can insert the same key between this look and the insert.
    if (!s.run_key.empty()) {
      Statement existing(connection_, "SELECT id, user, challenge, gpu_name FROM submissions WHERE run_key = ?1",
                         doing);
      existing.bind(1, s.run_key);
      if (existing.step()) {
        const std::int64_t id = existing.integer(0);
        const std::string user = existing.text(1);
        const auto ranking = read_ranking(connection_, existing.text(2), existing.text(3), doing);
        transaction.commit();
        return store::recorded(id, user, ranking, true);
      }
    }
    Statement insert(connection_,
                     "INSERT INTO submissions (challenge, user, gpu_name, compute_capability, created_at, score_ms, "
                     "source_hash, source, judge_version, protections, run_key) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                     doing);
    insert.bind(1, s.challenge);
    insert.bind(2, s.user);
    insert.bind(3, s.gpu_name);
    insert.bind(4, s.compute_capability);
    insert.bind(5, s.created_at);
    insert.bind(6, s.score_ms);
    insert.bind(7, s.source_hash);
    insert.bind(8, s.source);
    insert.bind(9, s.judge_version);
    insert.bind(10, nlohmann::json(s.protections).dump());
    insert.bind_optional(11, s.run_key.empty() ? std::nullopt : std::optional<std::string>(s.run_key));
    insert.run();
    const std::int64_t id = sqlite3_last_insert_rowid(connection_.get());

    Statement insert_case(connection_,
                          "INSERT INTO case_results (submission_id, name, median_ms, min_ms, spread_pct, samples, "
                          "gflops, gbps, reference_ms, stress, verdict, beyond) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                          doing);
    for (const auto& c : s.cases) {
      insert_case.bind(1, id);
      insert_case.bind(2, c.name);
      insert_case.bind(3, c.median_ms);
      insert_case.bind(4, c.min_ms);
      insert_case.bind(5, c.spread_pct);
      insert_case.bind(6, std::int64_t{c.samples});
      insert_case.bind(7, c.gflops);
      insert_case.bind(8, c.gbps);
      insert_case.bind(9, c.reference_ms);
      insert_case.bind(10, std::int64_t{c.stress ? 1 : 0});
      insert_case.bind(11, c.verdict);
      insert_case.bind(12, c.beyond);
      insert_case.run();
      insert_case.reset();
    }
    const auto ranking = read_ranking(connection_, s.challenge, s.gpu_name, doing);
    transaction.commit();
    return store::recorded(id, s.user, ranking, false);
  }

  std::vector<RankingEntry> ranking(const std::string& challenge, const std::string& gpu_name) override {
    if (!has_tables()) return {};
    return read_ranking(connection_, challenge, gpu_name, "reading the ranking");
  }

  std::vector<std::string> gpus(const std::string& challenge) override {
    if (!has_tables()) return {};
    Statement query(connection_, "SELECT DISTINCT gpu_name FROM submissions WHERE challenge = ?1 ORDER BY gpu_name",
                    "listing the GPUs");
    query.bind(1, challenge);
    std::vector<std::string> names;
    while (query.step()) names.push_back(query.text(0));
    return names;
  }

  std::vector<BoardSummary> overview() override {
    if (!has_tables()) return {};
    // The leader is the first run in the ranking's order (score, then created_at, then id); its user is ranked
    // first.
    Statement query(connection_, R"sql(
      WITH runs AS (
        SELECT challenge, gpu_name, user, score_ms, id, created_at,
               row_number() OVER (PARTITION BY challenge, gpu_name ORDER BY score_ms, created_at, id) AS place,
               count(*) OVER (PARTITION BY challenge, gpu_name) AS submissions
        FROM submissions),
      users AS (
        SELECT challenge, gpu_name, count(DISTINCT user) AS users FROM submissions GROUP BY challenge, gpu_name)
      SELECT runs.challenge, runs.gpu_name, user, score_ms, id, created_at, users, submissions
      FROM runs JOIN users USING (challenge, gpu_name)
      WHERE place = 1
      ORDER BY runs.challenge, runs.gpu_name)sql",
                    "reading the overview");
    std::vector<BoardSummary> boards;
    while (query.step()) boards.push_back(store::board_from(query));
    return boards;
  }

  std::vector<SubmissionRecord> history(const std::string& challenge,
                                        const std::optional<std::string>& user) override {
    if (!has_tables()) return {};
    const char* doing = "reading the history";
    // One read transaction, so the submissions and their cases come from the same snapshot.
    Transaction transaction(connection_, Transaction::Mode::read, doing);
    const int version = user_version(connection_);
    Statement query(connection_,
                    fmt::format("SELECT {} FROM submissions WHERE challenge = ?1 AND (?2 IS NULL OR user = ?2) "
                                "ORDER BY created_at DESC, id DESC",
                                submission_columns(version)),
                    doing);
    query.bind(1, challenge);
    query.bind_optional(2, user);
    std::vector<SubmissionRecord> submissions;
    while (query.step()) submissions.push_back(store::submission_from(query));
    read_cases(connection_, version, submissions, doing);
    transaction.commit();
    return submissions;
  }

  std::optional<SubmissionRecord> get(std::int64_t id) override {
    if (!has_tables()) return {};
    const char* doing = "reading a submission";
    Transaction transaction(connection_, Transaction::Mode::read, doing);
    const int version = user_version(connection_);
    Statement query(connection_, fmt::format("SELECT {} FROM submissions WHERE id = ?1", submission_columns(version)),
                    doing);
    query.bind(1, id);
    std::vector<SubmissionRecord> found;
    if (query.step()) found.push_back(store::submission_from(query));
    read_cases(connection_, version, found, doing);
    transaction.commit();
    if (found.empty()) return std::nullopt;
    return std::move(found.front());
  }

 private:
  // 0 only for a read-only look at a file no judge has written to: there is nothing to read.
  bool has_tables() const { return version_ > 0; }

  Connection connection_;
  int version_ = kSchemaVersion;
};

}  // namespace

std::unique_ptr<LeaderboardStore> open_sqlite_store(const std::string& path, Leaderboard::Access access) {
  return std::make_unique<SqliteStore>(path, access);
}

}  // namespace judge
