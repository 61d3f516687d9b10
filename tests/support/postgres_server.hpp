#pragma once
// A throwaway PostgreSQL server for the leaderboard tests: initdb (--no-sync) and pg_ctl in a temporary directory,
// reachable only through a Unix socket there (listen_addresses = ''; the port number only names the socket). Started
// once per test process, on first use, and stopped when the process ends, however it ends: a guardian process
// waits for the test process to go, then stops the server and removes the directory. As root (CI), the server runs
// as the `postgres` user, else as a system user created for it, since initdb refuses root.
//
// Tests that need it never pass without it: where the server's binaries are missing, require_postgres() fails the
// test, saying to install `postgresql` (scripts/test.sh does). Where the judge was built without libpq, there is
// nothing to test, and the test is skipped saying so, except in CI (CI=true), where that too is a failure.
#include <string>

namespace judge::testing {

// The URI of a new, empty database on this process's server (postgresql://judge@/<name>?host=<socket dir>&port=N),
// starting the server on first use. Throws std::runtime_error saying what is missing or what failed.
std::string new_postgres_database();

// Runs one SQL script (several statements allowed) as the server's superuser on the database of uri; returns the
// first column of the first row of the last statement's result ("" if none). Throws std::runtime_error on failure.
std::string postgres_sql(const std::string& uri, const std::string& sql);

// Why PostgreSQL tests cannot run here ("" when they can), and whether that is a failure (true) or a skip.
struct PostgresAvailability {
  std::string missing;
  bool fatal = true;
};
PostgresAvailability postgres_availability();

}  // namespace judge::testing

// Fails (server binaries missing, or CI without libpq) or skips (no libpq, outside CI) a test that needs the
// throwaway server, saying why.
#define JUDGE_REQUIRE_POSTGRES()                                                           \
  do {                                                                                     \
    const auto judge_pg_ = ::judge::testing::postgres_availability();                      \
    if (!judge_pg_.missing.empty()) {                                                      \
      if (judge_pg_.fatal) FAIL() << judge_pg_.missing;                                    \
      GTEST_SKIP() << judge_pg_.missing;                                                   \
    }                                                                                      \
  } while (0)
