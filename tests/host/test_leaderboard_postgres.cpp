// What only a leaderboard on a server has to show: many writer processes at once (a Slurm batch's nodes), a writer
// killed in the middle of its transaction, a database shared with tables that are not the judge's, passwords kept
// out of messages, and `judge leaderboard` and `judge report` printing for a PostgreSQL database exactly what they
// print for an SQLite file holding the same runs. The behaviour both stores share is in test_leaderboard.cpp, run
// against each. The server is the process's throwaway one (support/postgres_server.hpp).
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/core/base/leaderboard_location.hpp"
#include "judge/core/store/leaderboard.hpp"
#include "support/leaderboard_records.hpp"
#include "support/postgres_server.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

using ::judge::testing::new_postgres_database;
using ::judge::testing::postgres_sql;
using ::judge::testing::read_file;
using ::judge::testing::TempDir;

using ::judge::testing::kA100;
using ::judge::testing::kH100;
using ::judge::testing::submission;

std::int64_t count(const std::string& uri, const std::string& sql) { return std::stoll(postgres_sql(uri, sql)); }

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

// Waits for a child process; true when it exited with status 0.
bool exited_cleanly(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(LeaderboardLocation, PostgresUrisAreServersAndEverythingElseAFile) {
  EXPECT_TRUE(is_postgres_location("postgresql://judge@db.example/leaderboard"));
  EXPECT_TRUE(is_postgres_location("postgres://judge@/leaderboard?host=/run/postgresql"));
  EXPECT_FALSE(is_postgres_location("/home/alice/.local/share/judge/leaderboard.sqlite"));
  EXPECT_FALSE(is_postgres_location("postgresql.sqlite"));
  EXPECT_FALSE(is_postgres_location("host=db dbname=leaderboard"));  // a key=value conninfo is not recognised

  EXPECT_EQ(display_location("postgresql://judge:s3cret@db:5432/lb?sslmode=require"),
            "postgresql://judge:***@db:5432/lb?sslmode=require");
  EXPECT_EQ(display_location("postgres://judge@db/lb?password=s3cret&sslmode=require"),
            "postgres://judge@db/lb?password=***&sslmode=require");
  EXPECT_EQ(display_location("postgresql://judge@/lb?host=/tmp/x"), "postgresql://judge@/lb?host=/tmp/x");
  EXPECT_EQ(display_location("/data/a:b@c.sqlite"), "/data/a:b@c.sqlite");

  // Results a server could not take are kept on this machine, in the judge's data folder.
  const auto pending = pending_dirs("postgresql://judge@db/lb");
  ASSERT_EQ(pending.size(), 2u);
  EXPECT_EQ(pending[0].filename(), "pending");
  EXPECT_EQ(pending[0].parent_path().filename(), "judge");
  EXPECT_EQ(pending_dirs("/data/lb.sqlite").at(0), std::filesystem::path("/data/pending"));
  EXPECT_EQ(leaderboard_local_dir("/data/lb.sqlite"), std::filesystem::path("/data"));
}

// Needs no server: nothing listens in a socket directory that does not exist. Without libpq, the judge says how to
// get a PostgreSQL leaderboard.
TEST(PostgresLeaderboard, UnreachableDatabaseIsNamedWithoutItsPassword) {
  const std::string uri = "postgresql://judge:s3cret@/leaderboard?host=/nonexistent-judge-socket-dir&port=5432";
  const std::string message = error_from([&] { Leaderboard board(uri); });
  EXPECT_NE(message.find("postgresql://judge:***@/leaderboard"), std::string::npos) << message;
  EXPECT_EQ(message.find("s3cret"), std::string::npos) << message;
  EXPECT_NE(message.find("nothing was written"), std::string::npos) << message;
#if JUDGE_HAVE_LIBPQ
  EXPECT_NE(message.find("cannot connect"), std::string::npos) << message;
  EXPECT_NE(message.find("--db / JUDGE_DB"), std::string::npos) << message;
#else
  EXPECT_NE(message.find("built without libpq"), std::string::npos) << message;
  EXPECT_NE(message.find("libpq-dev"), std::string::npos) << message;
#endif
}

TEST(PostgresLeaderboard, TablesThatAreNotTheJudgesAreNotTakenOver) {
  JUDGE_REQUIRE_POSTGRES();
  const std::string uri = new_postgres_database();
  postgres_sql(uri, "CREATE TABLE submissions (order_id integer)");
  for (const auto access : {Leaderboard::Access::read_write, Leaderboard::Access::read_only}) {
    const std::string message = error_from([&] { Leaderboard board(uri, access); });
    EXPECT_NE(message.find("not a judge leaderboard"), std::string::npos) << message;
  }
  EXPECT_EQ(count(uri, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"), 1);
}

// Judges on many nodes at once, each its own process and connection, on a database without tables yet. Every run
// is recorded by two of them (a shard resumed on another node), under its run key: each run lands exactly once, both
// recorders get its id, and every rank reported for an insert is the one its user had right after it.
TEST(PostgresLeaderboard, ManyWriterProcessesRecordEveryRunOnceWithTheRankOfTheirMoment) {
  JUDGE_REQUIRE_POSTGRES();
  const std::string uri = new_postgres_database();
  TempDir dir;
  constexpr int kProcesses = 8;
  constexpr int kRunsEach = 25;
  // Distinct scores in a scrambled order: users overtake one another all the time, and no tie needs breaking.
  auto score_of = [](int p, int m) { return 1.0 + ((p * kRunsEach + m) * 37) % (kProcesses * kRunsEach); };
  auto run_of = [&](int p, int m) {
    auto s = submission("judge" + std::to_string(p), score_of(p, m));
    s.run_key = "shard-" + std::to_string(p) + "/run-" + std::to_string(m);
    return s;
  };

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
      std::ofstream out(dir / ("judge" + std::to_string(p) + ".txt"));
      try {
        Leaderboard board(uri);
        for (int m = 0; m < kRunsEach; ++m) {
          // Its own run, then the next process's same run, as if that shard were resumed here.
          for (const auto& s : {run_of(p, m), run_of((p + 1) % kProcesses, m)}) {
            const Recorded r = board.record(s);
            out << r.id << ' ' << s.run_key << ' ' << s.user << ' ' << s.score_ms << ' ' << r.rank << ' '
                << r.ranked << ' ' << r.duplicate << '\n';
          }
        }
      } catch (const std::exception& e) {
        fprintf(stderr, "judge process %d: %s\n", p, e.what());
        _exit(1);
      }
      out.close();
      _exit(out ? 0 : 1);
    }
    children.push_back(pid);
  }
  const auto started = std::chrono::steady_clock::now();
  close(start[0]);
  close(start[1]);
  for (pid_t pid : children) EXPECT_TRUE(exited_cleanly(pid)) << "a judge process failed; see its stderr";
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const int records = 2 * kProcesses * kRunsEach;
  std::printf("%d writer processes, %d records (%d runs, each recorded twice) in %.2f s: %.0f records/s\n",
              kProcesses, records, kProcesses * kRunsEach, seconds, records / seconds);
  RecordProperty("writers", kProcesses);
  RecordProperty("records", records);
  RecordProperty("milliseconds", static_cast<int>(seconds * 1000));

  EXPECT_EQ(count(uri, "SELECT count(*) FROM submissions"), kProcesses * kRunsEach);
  EXPECT_EQ(count(uri, "SELECT count(DISTINCT run_key) FROM submissions"), kProcesses * kRunsEach);
  EXPECT_EQ(count(uri, "SELECT count(*) FROM case_results"), 2 * kProcesses * kRunsEach);
  EXPECT_EQ(count(uri, "SELECT count(*) FROM submissions s WHERE (SELECT count(*) FROM case_results c "
                       "WHERE c.submission_id = s.id) <> 2"),
            0);

  struct Report {
    std::int64_t id;
    std::string run_key, user;
    double score;
    int rank, ranked;
    bool duplicate;
  };
  std::vector<Report> inserted;
  std::map<std::string, std::set<std::int64_t>> ids_of_key;
  std::map<std::string, int> inserts_of_key;
  for (int p = 0; p < kProcesses; ++p) {
    std::ifstream in(dir / ("judge" + std::to_string(p) + ".txt"));
    Report r;
    int lines = 0;
    while (in >> r.id >> r.run_key >> r.user >> r.score >> r.rank >> r.ranked >> r.duplicate) {
      ++lines;
      ids_of_key[r.run_key].insert(r.id);
      if (!r.duplicate) {
        ++inserts_of_key[r.run_key];
        inserted.push_back(r);
      } else {
        EXPECT_GE(r.rank, 1) << r.run_key;
        EXPECT_LE(r.rank, r.ranked) << r.run_key;
      }
    }
    EXPECT_EQ(lines, 2 * kRunsEach) << "judge " << p;
  }
  ASSERT_EQ(ids_of_key.size(), std::size_t{kProcesses * kRunsEach});
  for (const auto& [key, ids] : ids_of_key) EXPECT_EQ(ids.size(), 1u) << key << ": both recorders get the same id";
  for (const auto& [key, n] : inserts_of_key) EXPECT_EQ(n, 1) << key << " inserted " << n << " times";
  ASSERT_EQ(inserted.size(), std::size_t{kProcesses * kRunsEach});

  // Ids grow in commit order within a ranking (writers of one ranking take turns), so replaying the inserts in id
  // order gives the ranking each one saw.
  std::sort(inserted.begin(), inserted.end(), [](const Report& a, const Report& b) { return a.id < b.id; });
  std::map<std::string, double> best;
  int mismatched = 0;
  for (const auto& r : inserted) {
    auto it = best.find(r.user);
    if (it == best.end() || r.score < it->second) best[r.user] = r.score;
    int expected = 1;
    for (const auto& [user, score] : best)
      if (score < best[r.user]) ++expected;
    if ((r.rank != expected || r.ranked != static_cast<int>(best.size())) && ++mismatched <= 5)
      ADD_FAILURE() << "submission #" << r.id << " of " << r.user << " reported rank " << r.rank << " of "
                    << r.ranked << ", but right after its insert its user was rank " << expected << " of "
                    << best.size();
  }
  EXPECT_EQ(mismatched, 0);
  Leaderboard board(uri, Leaderboard::Access::read_only);
  const auto ranking = board.ranking("vector_add", kH100);
  ASSERT_EQ(ranking.size(), std::size_t{kProcesses});
  for (const auto& e : ranking) EXPECT_EQ(e.attempts, kRunsEach) << e.user;
}

// A writer killed (SIGKILL) while its transaction is open, after its submission row and first case went in: the
// server rolls the transaction back, so no partial row is ever seen, and its lock goes with it.
TEST(PostgresLeaderboard, WriterKilledMidTransactionLeavesNoPartialRow) {
  JUDGE_REQUIRE_POSTGRES();
  const std::string uri = new_postgres_database();
  Leaderboard board(uri);
  board.record(submission("alice", 2.0));
  // The second case's insert stalls, holding the writer inside its transaction until it is killed.
  postgres_sql(uri,
               "CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
               "IF NEW.name = 'large' AND NEW.submission_id > 1 THEN PERFORM pg_sleep(60); END IF; "
               "RETURN NEW; END $$; "
               "CREATE TRIGGER stall BEFORE INSERT ON case_results FOR EACH ROW EXECUTE FUNCTION stall()");

  const pid_t writer = fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    try {
      Leaderboard(uri).record(submission("victim", 1.0));
    } catch (...) {
    }
    _exit(0);
  }
  // Wait until the writer's backend is inside the stalled insert.
  std::string backend;
  for (int i = 0; i < 200 && backend.empty(); ++i) {
    backend = postgres_sql(uri, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND "
                                "wait_event = 'PgSleep'");
    if (backend.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_FALSE(backend.empty()) << "the writer never reached the stalled insert";
  EXPECT_EQ(count(uri, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = " + backend), 1)
      << "the writer holds its ranking's lock";
  ASSERT_EQ(kill(writer, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(writer, &status, 0), writer);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

  // The server notices the client is gone (client_connection_check_interval) and ends the backend.
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    gone = count(uri, "SELECT count(*) FROM pg_stat_activity WHERE pid = " + backend) == 0;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(gone) << "the killed writer's backend is still there";
  EXPECT_EQ(count(uri, "SELECT count(*) FROM submissions"), 1);
  EXPECT_EQ(count(uri, "SELECT count(*) FROM submissions WHERE \"user\" = 'victim'"), 0);
  EXPECT_EQ(count(uri, "SELECT count(*) FROM case_results"), 2);

  // Nothing is left locked: the next writer records at once.
  postgres_sql(uri, "DROP TRIGGER stall ON case_results");
  board.set_busy_timeout(std::chrono::milliseconds(2000));
  const Recorded next = board.record(submission("bob", 1.5));
  EXPECT_EQ(next.rank, 1);
  EXPECT_EQ(next.ranked, 2);
  EXPECT_EQ(count(uri, "SELECT count(*) FROM case_results"), 4);
}

// The same runs in an SQLite file and in a PostgreSQL database: `judge leaderboard` (the overview, one challenge,
// and both as --json) and `judge report` print the same, but for the database's name and the report's time.
TEST(PostgresLeaderboard, CliPrintsTheSameAsForAnSqliteFileWithTheSameRuns) {
  JUDGE_REQUIRE_POSTGRES();
  TempDir dir;
  const std::string sqlite = (dir / "lb.sqlite").string();
  const std::string postgres = new_postgres_database();
  {
    Leaderboard a(sqlite);
    Leaderboard b(postgres);
    int n = 0;
    for (const auto& [user, score, gpu, challenge] : std::vector<std::tuple<std::string, double, std::string, std::string>>{
             {"alice", 3.0, kH100, "vector_add"},     {"bob", 2.0, kH100, "vector_add"},
             {"alice", 1.5, kH100, "vector_add"},     {"carol", 1.5, kH100, "vector_add"},
             {"Zoë", 0.75, kA100, "vector_add"},      {"dave", 2.5, kA100, "vector_add"},
             {"erin", 4.0, "l4", "vector_add"},       {"Frank", 3.5, "Tesla T4", "vector_add"},
             {"alice", 0.125, kH100, "matrix_multiplication"}, {"_under", 0.5, kH100, "matrix_multiplication"}}) {
      auto s = submission(user, score, gpu, challenge);
      s.created_at = fmt::format("2026-03-0{}T10:00:00.000Z", 1 + n % 3);  // ties broken by time, then by id
      s.cases.push_back({"stress: n = 2^31", 9.5, 9.0, 0.1, 3, 1.0, 2.0, 0, true, "timeout", "past 1 ≤ N ≤ 10^8"});
      ++n;
      EXPECT_EQ(a.record(s).id, b.record(s).id);
    }
  }
  const std::map<std::string, std::string> env{{"HOME", (dir / "home").string()},
                                               {"XDG_DATA_HOME", (dir / "data").string()},
                                               {"XDG_CACHE_HOME", (dir / "cache").string()},
                                               {"JUDGE_CACHE_DIR", (dir / "cache").string()},
                                               {"JUDGE_CHALLENGES", ::judge::testing::challenges_dir().string()},
                                               {"NO_COLOR", "1"}};
  auto normalised = [](std::string text, const std::string& location) {
    for (const std::string& form : {location, std::regex_replace(location, std::regex("&"), "&amp;")}) {
      for (std::size_t at; (at = text.find(form)) != std::string::npos;) text.replace(at, form.size(), "<db>");
    }
    return std::regex_replace(text, std::regex("Generated [^<]* UTC"), "Generated <time> UTC");
  };
  auto judge = [&](std::vector<std::string> args, const std::string& location) {
    args.insert(args.begin(), ::judge::testing::cli_path().string());
    args.insert(args.end(), {"--db", location});
    const auto r = ::judge::testing::run_command(args, env, 60);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return normalised(r.output, location);
  };
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"leaderboard"}, {"leaderboard", "--json"}, {"leaderboard", "vector_add"},
        {"leaderboard", "vector_add", "--json"}, {"leaderboard", "matrix_multiplication", "--gpu", kH100}}) {
    const std::string from_sqlite = judge(args, sqlite);
    EXPECT_EQ(judge(args, postgres), from_sqlite);
    EXPECT_NE(from_sqlite.find("alice"), std::string::npos) << from_sqlite;
  }
  const std::string calibration = (dir / "calibration.json").string();
  judge({"report", "-o", (dir / "sqlite.html").string(), "--calibration", calibration}, sqlite);
  judge({"report", "-o", (dir / "postgres.html").string(), "--calibration", calibration}, postgres);
  const std::string from_sqlite = normalised(read_file(dir / "sqlite.html"), sqlite);
  const std::string from_postgres = normalised(read_file(dir / "postgres.html"), postgres);
  EXPECT_GT(from_sqlite.size(), 10000u);
  EXPECT_NE(from_sqlite.find("Zoë"), std::string::npos);
  EXPECT_EQ(from_postgres, from_sqlite);
}

}  // namespace
}  // namespace judge
