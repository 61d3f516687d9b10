// Shared by the hostile corpus entries that look for the judge's files: where this run's judge keeps its
// leaderboard, cache, calibration and job files, found the ways a submission could (its own and its ancestors'
// command lines and environments, default paths, a walk of likely folders). A header beside the entries, as a
// submission may have: the judge compiles the headers beside a submitted file with it.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

// ---- looking around: small POSIX helpers (no exceptions, no std::filesystem: every failure is just "not found")
std::string slurp(const std::string& path, size_t limit = 1 << 20) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string out;
  char buf[65536];
  ssize_t n;
  while (out.size() < limit && (n = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out.size() > limit ? out.substr(0, limit) : out;
}

bool is_dir(const std::string& p) {
  struct stat st;
  return lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const std::string& p) {
  struct stat st;
  return lstat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d))
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) out.push_back(e->d_name);
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

std::string dirname_of(const std::string& p) {
  auto at = p.find_last_of('/');
  return at == std::string::npos ? "." : at == 0 ? "/" : p.substr(0, at);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < s.size()) {
    size_t end = s.find(sep, at);
    if (end == std::string::npos) end = s.size();
    if (end > at) out.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

using Env = std::map<std::string, std::string>;

Env parse_environ(const std::string& text) {
  Env env;
  for (const auto& kv : split(text, '\0')) {
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

int parent_of(int pid) {
  std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat", 4096);
  auto close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return 0;
  char state;
  int ppid = 0;
  if (std::sscanf(stat.c_str() + close_paren + 1, " %c %d", &state, &ppid) != 2) return 0;
  return ppid;
}

std::string comm_of(int pid) {
  std::string c = slurp("/proc/" + std::to_string(pid) + "/comm", 256);
  while (!c.empty() && (c.back() == '\n' || c.back() == '\0')) c.pop_back();
  return c;
}

// This judge run's processes above us (judge, judge-worker, ...; sandbox wrappers are passed over). The walk stops
// at the first other process: a test driver or a shell, whose environment is the host's, not this run's. (A real
// attacker would not stop there; this one does so that a broken sandbox fails the test, not the machine's owner.)
std::vector<int> judge_ancestors() {
  std::vector<int> out;
  int pid = getppid();
  for (int depth = 0; depth < 8 && pid > 1; ++depth) {
    std::string c = comm_of(pid);
    if (c.rfind("judge", 0) == 0)
      out.push_back(pid);
    else if (!(c == "bwrap" || c == "setpriv" || c == "unshare" || c == "nsenter"))
      break;
    pid = parent_of(pid);
  }
  return out;
}

// Our own environment and those of the judge's processes above us.
std::vector<Env> judge_environments() {
  std::vector<Env> out;
  Env own;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) own[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  out.push_back(own);
  for (int pid : judge_ancestors()) {
    Env env = parse_environ(slurp("/proc/" + std::to_string(pid) + "/environ"));
    if (!env.empty()) out.push_back(env);
  }
  return out;
}

// Where this run's records could be: what the judge's environment names (or implies by the XDG defaults), and the
// judge's folders in the system's temporary directories (tests keep everything in /tmp/judge-*).
struct Places {
  std::vector<std::string> caches, databases, calibrations, temps;
};

void walk(const std::string& dir, int depth, Places& p) {
  if (depth < 0) return;
  for (const auto& name : list_dir(dir)) {
    std::string path = dir + "/" + name;
    if (is_dir(path)) {
      if (name == "cache" || is_dir(path + "/builds") || is_dir(path + "/gpu-locks")) add_unique(p.caches, path);
      walk(path, depth - 1, p);
    } else if (is_file(path)) {
      if (name.size() > 7 && name.compare(name.size() - 7, 7, ".sqlite") == 0) add_unique(p.databases, path);
      if (name.rfind("calibration", 0) == 0 && name.find(".json") != std::string::npos)
        add_unique(p.calibrations, path);
    }
  }
}

Places find_places() {
  Places p;
  for (const Env& env : judge_environments()) {
    auto get = [&](const char* key) {
      auto it = env.find(key);
      return it == env.end() ? std::string() : it->second;
    };
    const std::string home = get("HOME"), xdg_cache = get("XDG_CACHE_HOME"), xdg_data = get("XDG_DATA_HOME");
    add_unique(p.caches, get("JUDGE_CACHE_DIR"));
    if (!xdg_cache.empty()) add_unique(p.caches, xdg_cache + "/judge");
    if (!home.empty()) add_unique(p.caches, home + "/.cache/judge");
    const std::string db = get("JUDGE_DB");
    if (!db.empty()) {
      add_unique(p.databases, db);
      add_unique(p.calibrations, dirname_of(db) + "/calibration.json");
    }
    if (!xdg_data.empty()) {
      add_unique(p.databases, xdg_data + "/judge/leaderboard.sqlite");
      add_unique(p.calibrations, xdg_data + "/judge/calibration.json");
    }
    if (!home.empty()) {
      add_unique(p.databases, home + "/.local/share/judge/leaderboard.sqlite");
      add_unique(p.calibrations, home + "/.local/share/judge/calibration.json");
    }
    add_unique(p.calibrations, get("JUDGE_CALIBRATION"));
    add_unique(p.temps, get("TMPDIR"));
  }
  for (const char* t : {"/tmp", "/var/tmp", "/dev/shm"}) add_unique(p.temps, t);
  for (const auto& base : p.temps)
    for (const auto& name : list_dir(base))
      if (name.rfind("judge", 0) == 0 && is_dir(base + "/" + name)) walk(base + "/" + name, 3, p);
  return p;
}

void say(const std::string& line) {
  std::fprintf(stdout, "%s\n", line.c_str());
  std::fflush(stdout);
}
// ---- end of the helpers

}  // namespace
