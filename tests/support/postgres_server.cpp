#include "support/postgres_server.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if JUDGE_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

namespace judge::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kPort = 5432;  // only names the socket, in a directory of our own

std::string getenv_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

bool executable(const fs::path& p) { return access(p.c_str(), X_OK) == 0; }

// The directory holding initdb and pg_ctl: $JUDGE_POSTGRES_BIN, else Debian's /usr/lib/postgresql/<newest>/bin,
// else wherever PATH finds initdb.
std::optional<fs::path> server_bin_dir() {
  auto usable = [](const fs::path& dir) { return executable(dir / "initdb") && executable(dir / "pg_ctl"); };
  if (const char* v = std::getenv("JUDGE_POSTGRES_BIN"); v && *v) {
    if (usable(v)) return fs::path(v);
    return std::nullopt;
  }
  std::optional<fs::path> best;
  int best_major = -1;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string name = entry.path().filename().string();
    const int major = std::atoi(name.c_str());
    if (major > best_major && usable(entry.path() / "bin")) {
      best = entry.path() / "bin";
      best_major = major;
    }
  }
  if (best) return best;
  std::stringstream path(getenv_or("PATH", "/usr/bin:/bin"));
  for (std::string dir; std::getline(path, dir, ':');)
    if (!dir.empty() && usable(dir)) return fs::path(dir);
  return std::nullopt;
}

struct ServerUser {
  uid_t uid;
  gid_t gid;
  std::string name;
};

// initdb refuses root: as root the server runs as `postgres` (the postgresql package's user), else as a system user
// made for it.
ServerUser server_user() {
  if (geteuid() != 0) return {getuid(), getgid(), ""};
  for (const char* name : {"postgres", "judge-postgres"}) {
    if (const passwd* pw = getpwnam(name)) return {pw->pw_uid, pw->pw_gid, name};
  }
  const int rc = std::system("useradd --system --no-create-home --shell /usr/sbin/nologin judge-postgres");
  if (const passwd* pw = getpwnam("judge-postgres")) return {pw->pw_uid, pw->pw_gid, "judge-postgres"};
  throw std::runtime_error("running as root, and there is no unprivileged user to run PostgreSQL's server as (no "
                           "`postgres` user, and `useradd --system judge-postgres` failed with status " +
                           std::to_string(rc) + ")");
}

// Runs argv as user, its output appended to log; returns its exit status (-1 if it did not exit).
int run_as(const ServerUser& user, const std::vector<std::string>& argv, const fs::path& log) {
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (geteuid() == 0 && user.uid != 0) {
      if (setgroups(0, nullptr) != 0 || setgid(user.gid) != 0 || setuid(user.uid) != 0) _exit(126);
    }
    // Opened as the user, so that the server can go on writing to it.
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
    }
    setenv("LC_ALL", "C", 1);
    for (const char* v : {"PGDATA", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGOPTIONS"}) unsetenv(v);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string tail_of(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  return text.size() > 3000 ? "..." + text.substr(text.size() - 3000) : text;
}

int server_major(const fs::path& bin) {
  const std::string command = (bin / "pg_ctl").string() + " --version";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  char line[256] = {};
  if (!pipe || !std::fgets(line, sizeof line, pipe.get())) return 0;
  std::smatch m;
  const std::string text(line);
  return std::regex_search(text, m, std::regex(R"((\d+)(\.\d+)?)")) ? std::stoi(m[1]) : 0;
}

class Server {
 public:
  explicit Server(const fs::path& bin) : bin_(bin), user_(server_user()) {
    char pattern[] = "/tmp/judge-pg-XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("cannot create a temporary directory for PostgreSQL");
    dir_ = pattern;
    if (geteuid() == 0 && chown(dir_.c_str(), user_.uid, user_.gid) != 0)
      throw std::runtime_error("cannot give " + dir_.string() + " to the user " + user_.name);
    start_guardian();
    const fs::path data = dir_ / "data";
    const fs::path log = dir_ / "server.log";
    if (run_as(user_, {(bin_ / "initdb").string(), "-D", data.string(), "-U", "judge", "-A", "trust", "-E", "UTF8",
                       "--locale=C", "--no-sync"},
               log) != 0)
      throw std::runtime_error("initdb failed:\n" + tail_of(log));
    std::ofstream conf(data / "postgresql.conf", std::ios::app);
    conf << "listen_addresses = ''\n"
         << "unix_socket_directories = '" << dir_.string() << "'\n"
         << "port = " << kPort << "\n"
         << "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
         << "max_connections = 64\nshared_buffers = 16MB\n";
    // A backend notices a client that went away (a killed writer) while it still works for it.
    if (server_major(bin_) >= 14) conf << "client_connection_check_interval = 100ms\n";
    conf.close();
    if (run_as(user_, {(bin_ / "pg_ctl").string(), "start", "-w", "-t", "60", "-D", data.string(), "-l",
                       log.string()},
               dir_ / "pg_ctl.log") != 0)
      throw std::runtime_error("pg_ctl start failed:\n" + tail_of(dir_ / "pg_ctl.log") + "\n" + tail_of(log));
  }

  ~Server() {
    // The guardian sees the pipe close and stops the server; waiting for it means the server is gone on return.
    close(guardian_pipe_);
    int status = 0;
    waitpid(guardian_, &status, 0);
  }

  std::string uri(const std::string& database) const {
    return "postgresql://judge@/" + database + "?host=" + dir_.string() + "&port=" + std::to_string(kPort);
  }

 private:
  // A process of its own that outlives this one if it dies (a crash, a failed assertion's abort, ctest's kill):
  // when the pipe's last writer is gone, it stops the server and removes the directory.
  void start_guardian() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    guardian_ = fork();
    if (guardian_ < 0) throw std::runtime_error("fork failed");
    if (guardian_ == 0) {
      setsid();
      for (int fd = 3; fd < 1024; ++fd)
        if (fd != fds[0]) close(fd);
      char byte;
      while (read(fds[0], &byte, 1) != 0) {
      }
      if (fs::exists(dir_ / "data" / "postmaster.pid"))
        run_as(user_, {(bin_ / "pg_ctl").string(), "stop", "-m", "immediate", "-w", "-D", (dir_ / "data").string()},
               "/dev/null");
      std::error_code ec;
      fs::remove_all(dir_, ec);
      _exit(0);
    }
    close(fds[0]);
    guardian_pipe_ = fds[1];
  }

  fs::path bin_;
  ServerUser user_;
  fs::path dir_;
  pid_t guardian_ = -1;
  int guardian_pipe_ = -1;
};

// The process's server, or why there is none.
struct ServerOrReason {
  std::unique_ptr<Server> server;
  PostgresAvailability availability;
};

ServerOrReason& shared() {
  static ServerOrReason instance = [] {
    ServerOrReason r;
#if !JUDGE_HAVE_LIBPQ
    r.availability = {"this judge was built without libpq, so it has no PostgreSQL leaderboard to test: install "
                      "libpq-dev (scripts/deps.sh does) and rebuild",
                      getenv_or("CI", "") == "true"};
    return r;
#endif
    const auto bin = server_bin_dir();
    if (!bin) {
      r.availability = {"PostgreSQL's server (initdb, pg_ctl) is not installed, and the PostgreSQL leaderboard tests "
                        "need a throwaway one: apt-get install postgresql (scripts/test.sh installs it), or set "
                        "JUDGE_POSTGRES_BIN to the directory holding initdb and pg_ctl",
                        true};
      return r;
    }
    try {
      r.server = std::make_unique<Server>(*bin);
    } catch (const std::exception& e) {
      r.availability = {std::string("the throwaway PostgreSQL server did not start: ") + e.what(), true};
    }
    return r;
  }();
  return instance;
}

}  // namespace

PostgresAvailability postgres_availability() { return shared().availability; }

std::string new_postgres_database() {
  const ServerOrReason& s = shared();
  if (!s.server) throw std::runtime_error(s.availability.missing);
  static std::atomic<int> next{0};
  const std::string name = "leaderboard_" + std::to_string(getpid()) + "_" + std::to_string(next++);
  // Ordered as most servers order text (a natural-language collation, not the byte order of the cluster's C locale),
  // so that a query leaning on the database's default collation orders differently from SQLite and is caught.
  // Without ICU in the server, the cluster's default.
  try {
    postgres_sql(s.server->uri("postgres"), "CREATE DATABASE " + name +
                                                " TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'");
  } catch (const std::runtime_error&) {
    postgres_sql(s.server->uri("postgres"), "CREATE DATABASE " + name);
  }
  return s.server->uri(name);
}

std::string postgres_sql(const std::string& uri, const std::string& sql) {
#if JUDGE_HAVE_LIBPQ
  std::unique_ptr<PGconn, void (*)(PGconn*)> connection(PQconnectdb(uri.c_str()), PQfinish);
  if (PQstatus(connection.get()) != CONNECTION_OK)
    throw std::runtime_error("cannot connect to " + uri + ": " + PQerrorMessage(connection.get()));
  PQsetNoticeProcessor(connection.get(), [](void*, const char*) {}, nullptr);
  std::unique_ptr<PGresult, void (*)(PGresult*)> result(PQexec(connection.get(), sql.c_str()), PQclear);
  const ExecStatusType status = PQresultStatus(result.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
    throw std::runtime_error(sql + ": " + PQerrorMessage(connection.get()));
  if (PQntuples(result.get()) > 0 && PQnfields(result.get()) > 0) return PQgetvalue(result.get(), 0, 0);
  return "";
#else
  (void)uri;
  (void)sql;
  throw std::runtime_error("built without libpq");
#endif
}

}  // namespace judge::testing
