#include "judge/core/sandbox/bwrap.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace judge {

namespace fs = std::filesystem;

namespace {

bool executable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0; }

// Depth of a path, so that a mount lands before the mounts beneath it (/tmp before a scratch directory in it, /dev
// before /dev/nvidia0).
std::size_t depth(const fs::path& p) { return static_cast<std::size_t>(std::distance(p.begin(), p.end())); }

bool beneath(const fs::path& p, const fs::path& dir) {
  auto d = dir.begin(), q = p.begin();
  for (; d != dir.end(); ++d, ++q)
    if (q == p.end() || *q != *d) return false;
  return true;
}

struct Mount {
  fs::path at;
  std::vector<std::string> args;
};

std::vector<Mount> mounts_of(const SandboxPolicy& policy) {
  std::vector<Mount> mounts = {{"/dev", {"--dev", "/dev"}}, {"/tmp", {"--perms", "01777", "--tmpfs", "/tmp"}}};
  // Read-only directories are mounted where they really are (/usr/local/cuda/lib is /usr/local/cuda-13.0/lib), and
  // one inside another already mounted is visible through it: shallowest first, so that the test below sees its
  // parents.
  // A symlink is made as a symlink, and what it points to is mounted too (/lib64 -> usr/lib64 when only /usr/lib
  // was asked for), as Landlock, which follows it, would allow.
  std::vector<PathRule> rules;
  for (const PathRule& rule : policy.rules) {
    std::error_code ec;
    fs::path real = fs::canonical(rule.path, ec);
    if (rule.access != PathAccess::read || ec) {
      rules.push_back(rule);
    } else if (fs::is_symlink(rule.path, ec)) {
      rules.push_back(rule);
      rules.push_back({real, PathAccess::read});
    } else {
      rules.push_back({real, PathAccess::read});
    }
  }
  std::stable_sort(rules.begin(), rules.end(),
                   [](const PathRule& a, const PathRule& b) { return depth(a.path) < depth(b.path); });
  std::vector<fs::path> read_only;
  for (const PathRule& rule : rules) {
    std::error_code ec;
    fs::file_status st = fs::symlink_status(rule.path, ec);
    if (ec || !fs::exists(st)) continue;
    const std::string p = rule.path.string();
    switch (rule.access) {
      case PathAccess::proc:
        mounts.push_back({rule.path, {"--proc", p}});
        break;
      case PathAccess::write:
        mounts.push_back({rule.path, {"--bind", p, p}});
        break;
      case PathAccess::device:
        // --dev already made /dev/null, zero, random and urandom; only the GPU's nodes come from the host.
        if (p.rfind("/dev/nvidia", 0) == 0) mounts.push_back({rule.path, {"--dev-bind", p, p}});
        break;
      case PathAccess::read: {
        // Already visible through a directory mounted whole (the toolkit under /usr, a symlink inside it).
        if (std::any_of(read_only.begin(), read_only.end(), [&](const fs::path& d) { return beneath(rule.path, d); }))
          break;
        if (fs::is_symlink(st)) {
          // /lib -> usr/lib on a merged /usr: the link itself, its target being mounted in its own right. It points
          // straight at the final target: a chain (/usr/local/cuda -> /etc/alternatives/cuda -> /usr/local/cuda-13.0)
          // would otherwise pass through links the sandbox does not have.
          fs::path target = fs::canonical(rule.path, ec);
          if (ec) break;
          mounts.push_back({rule.path, {"--symlink", target.string(), p}});
        } else {
          mounts.push_back({rule.path, {"--ro-bind", p, p}});
          read_only.push_back(rule.path);
        }
        break;
      }
    }
  }
  std::stable_sort(mounts.begin(), mounts.end(),
                   [](const Mount& a, const Mount& b) { return depth(a.at) < depth(b.at); });
  return mounts;
}

// The first directory above `p` that `who` may not search, by its mode bits; empty when there is none.
fs::path unreachable_by(const fs::path& p, const Credentials& who) {
  fs::path dir;
  for (const auto& part : p.parent_path()) {
    dir /= part;
    struct stat st;
    if (::stat(dir.c_str(), &st) != 0) return {};  // missing paths are left out of the sandbox anyway
    mode_t bit = st.st_uid == who.uid ? S_IXUSR : st.st_gid == who.gid ? S_IXGRP : S_IXOTH;
    if (!(st.st_mode & bit)) return dir;
  }
  return {};
}

}  // namespace

std::string find_bwrap() {
  if (const char* e = std::getenv("JUDGE_BWRAP"); e && *e) return executable(e) ? e : "";
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty() && executable(fs::path(dir) / "bwrap")) return (fs::path(dir) / "bwrap").string();
  }
  return executable("/usr/bin/bwrap") ? "/usr/bin/bwrap" : "";
}

const BwrapTrial& bwrap_trial() {
  static BwrapTrial trial;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string bwrap = find_bwrap();
    if (bwrap.empty()) {
      trial.why = "bubblewrap is not installed (apt-get install bubblewrap, or set JUDGE_BWRAP to its path)";
      return;
    }
    auto attempt = [&](bool disable_userns) {
      SpawnOptions o;
      o.argv = {bwrap, "--die-with-parent", "--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/",
                "--proc", "/proc", "--dev", "/dev"};
      if (disable_userns) o.argv.push_back("--disable-userns");
      o.argv.insert(o.argv.end(), {"--", "/bin/true"});
      o.cwd = "/";
      o.setup.credentials = solver_credentials();
      return run_captured(o, std::chrono::seconds(20));
    };
    try {
      Captured c = attempt(true);
      if (!c.status.ok() && c.output.find("disable-userns") != std::string::npos) {
        c = attempt(false);
      } else {
        trial.disable_userns = true;
      }
      trial.works = c.status.ok() && !c.timed_out;
      std::string as = solver_credentials() ? " as uid 65534" : "";
      if (trial.works) {
        trial.why = fmt::format("{}{}: user, pid, mount and network namespaces", bwrap, as);
      } else {
        std::string out = c.output.substr(0, c.output.find('\n'));
        trial.why = fmt::format("{} cannot start a sandbox{} ({}{}{}): are unprivileged user namespaces disabled "
                                "(sysctl kernel.unprivileged_userns_clone, user.max_user_namespaces, AppArmor)?",
                                bwrap, as, c.timed_out ? "timed out" : c.status.describe(), out.empty() ? "" : ": ",
                                out);
      }
    } catch (const Error& e) {
      trial.why = e.what();
    }
  });
  return trial;
}

std::vector<std::string> bwrap_mounts(const SandboxPolicy& policy) {
  std::vector<std::string> args;
  for (const Mount& m : mounts_of(policy)) args.insert(args.end(), m.args.begin(), m.args.end());
  return args;
}

std::vector<std::string> bwrap_arguments(const BwrapSandbox& sandbox) {
  std::vector<std::string> a = {sandbox.bwrap, "--die-with-parent", "--unshare-user", "--unshare-pid",
                                "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                                "--new-session", "--hostname", "judge-sandbox"};
  if (sandbox.as_pid_1) a.push_back("--as-pid-1");
  if (bwrap_trial().disable_userns) a.push_back("--disable-userns");
  std::vector<std::string> mounts = bwrap_mounts(sandbox.policy);
  a.insert(a.end(), mounts.begin(), mounts.end());
  std::map<std::string, std::string> env = {{"PATH", "/usr/bin:/bin"},
                                            {"HOME", sandbox.scratch.string()},
                                            {"TMPDIR", "/tmp"},
                                            {"LANG", "C"}};
  for (const auto& [k, v] : sandbox.env) env[k] = v;
  a.push_back("--clearenv");
  for (const auto& [k, v] : env) a.insert(a.end(), {"--setenv", k, v});
  a.insert(a.end(), {"--chdir", sandbox.scratch.string()});
  if (sandbox.info_fd >= 0) a.insert(a.end(), {"--info-fd", std::to_string(sandbox.info_fd)});
  a.push_back("--");
  return a;
}

void wrap_in_bwrap(SpawnOptions& options, const BwrapSandbox& sandbox) {
  if (sandbox.bwrap.empty() || !executable(sandbox.bwrap))
    JUDGE_THROW(Error, "cannot sandbox {} with bubblewrap: '{}' is not an executable (install bubblewrap or set "
                "JUDGE_BWRAP)", options.argv.empty() ? "the solver" : options.argv[0], sandbox.bwrap);
  if (options.argv.empty() ||
      std::none_of(sandbox.policy.rules.begin(), sandbox.policy.rules.end(),
                   [&](const PathRule& r) { return beneath(options.argv[0], r.path); }))
    JUDGE_THROW(Error, "cannot run {} in the sandbox: it is not among the paths its policy mounts (add it to "
                "SolverPaths::readable)", options.argv.empty() ? "a command" : options.argv[0]);
  std::optional<Credentials> who = solver_credentials();
  if (who) {
    std::vector<fs::path> paths = {sandbox.bwrap, options.argv[0]};
    for (const PathRule& r : sandbox.policy.rules) paths.push_back(r.path);
    for (const auto& p : paths)
      if (fs::path blocked = unreachable_by(p, *who); !blocked.empty())
        JUDGE_THROW(Error, "cannot sandbox the solver: its user (uid {}) cannot reach {} because {} is not searchable "
                    "by it: allow it (chmod o+x {}) or move the judge's files elsewhere",
                    who->uid, p.string(), blocked.string(), blocked.string());
  }
  std::vector<std::string> argv = bwrap_arguments(sandbox);
  argv.insert(argv.end(), options.argv.begin(), options.argv.end());
  options.argv = std::move(argv);
  options.env_is_complete = true;
  options.setup.credentials = who;
  options.setup.no_new_privs = true;
}

int bwrap_command_pid(const std::string& info, bool as_pid_1) {
  nlohmann::json j = nlohmann::json::parse(info, nullptr, false);
  if (!j.is_object() || !j.contains("child-pid") || !j["child-pid"].is_number_integer()) return 0;
  int pid = j["child-pid"].get<int>();
  if (as_pid_1) return pid;
  std::ifstream children(fmt::format("/proc/{}/task/{}/children", pid, pid));
  int child = 0;
  return children >> child ? child : 0;
}

std::optional<int> nvidia_minor(const std::string& pci_bus_id) {
  auto parse = [](const std::string& id, unsigned (&v)[4]) {
    return std::sscanf(id.c_str(), "%x:%x:%x.%x", &v[0], &v[1], &v[2], &v[3]) == 4;
  };
  unsigned want[4];
  if (!parse(pci_bus_id, want)) return std::nullopt;
  std::error_code ec;
  for (const auto& gpu : fs::directory_iterator("/proc/driver/nvidia/gpus", ec)) {
    unsigned have[4];
    if (!parse(gpu.path().filename().string(), have) || !std::equal(want, want + 4, have)) continue;
    std::ifstream in(gpu.path() / "information");
    for (std::string line; std::getline(in, line);)
      if (line.rfind("Device Minor:", 0) == 0) return std::atoi(line.c_str() + 13);
  }
  return std::nullopt;
}

}  // namespace judge
