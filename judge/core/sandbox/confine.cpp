#include "judge/core/sandbox/confine.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <sys/prctl.h>
#include <unistd.h>

#include "judge/core/sandbox/bwrap.hpp"
#include "judge/core/sandbox/policy.hpp"
#include "judge/core/sandbox/seccomp.hpp"

namespace judge {

namespace fs = std::filesystem;

namespace {

constexpr const char* kToolRelaxed =
    "relaxed: a tool (compute-sanitizer, Nsight Compute) injects itself into the solver";

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

SolverConfinement SolverConfinement::from_environment() {
  SolverConfinement c;
  c.paths.scratch = env_or_empty("JUDGE_SOLVER_SCRATCH");
  c.tool = env_or_empty("JUDGE_SOLVER_TOOL") == "1";
  if (std::string minor = env_or_empty("JUDGE_SOLVER_GPU_MINOR"); !minor.empty())
    c.paths.gpu_minor = std::atoi(minor.c_str());
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) c.paths.readable.push_back(self);
  return c;
}

std::vector<Protection> confine_self(const SolverConfinement& confinement) {
  using namespace protection;
  if (confinement.tool)
    return {{landlock, false, kToolRelaxed}, {seccomp, false, kToolRelaxed}, {no_network, false, kToolRelaxed}};

  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    JUDGE_THROW(Error, "the solver cannot set no_new_privs on itself: {}", std::strerror(errno));
  std::vector<Protection> out;

  LandlockSupport ll = landlock_support();
  if (ll.abi == 0) {
    out.push_back({landlock, false, ll.why});
  } else {
    LandlockRuleset ruleset(solver_policy(confinement.paths));
    LandlockRuleset::Coverage coverage = ruleset.restrict_self();
    std::string what = fmt::format(
        "ABI {}: reads the system, the CUDA toolkit, /proc (no other process) and /sys; writes only {}{}{}", ll.abi,
        confinement.paths.scratch.empty() ? "nothing" : confinement.paths.scratch.string(),
        ll.abi >= 4 ? "; no TCP" : "", ll.abi >= 6 ? "; signals and abstract sockets stay inside" : "");
    if (!coverage.complete()) what += "; " + coverage.why;
    out.push_back({landlock, true, what});
  }

  SeccompSupport sc = seccomp_support();
  if (!sc.available) {
    out.push_back({seccomp, false, sc.why});
  } else {
    install_solver_filter();
    out.push_back({seccomp, true,
                   "EPERM for new processes, exec, ptrace, signals to other processes, sessions, mounts, namespaces, "
                   "io_uring, uid changes and sockets other than AF_UNIX"});
  }

  if (sc.available)
    out.push_back({no_network, true, "seccomp refuses every socket but AF_UNIX"});
  else if (ll.abi >= 4)
    out.push_back({no_network, true, "Landlock refuses TCP bind and connect (UDP stays open: seccomp is off)"});
  else
    out.push_back({no_network, false, "neither seccomp nor Landlock ABI 4 is available here"});
  return out;
}

CompileSandbox choose_compile_sandbox(std::string& why) {
  LandlockSupport ll = landlock_support();
  if (ll.abi > 0) {
    why = fmt::format("Landlock {}: nvcc reads only the toolkit, the system's compilers and headers, and writes only "
                      "its build directory",
                      ll.why);
    return CompileSandbox::landlock;
  }
  const BwrapTrial& bw = bwrap_trial();
  if (bw.works) {
    why = "bubblewrap: nvcc sees only the toolkit, the system's compilers and headers, and its build directory (" +
          ll.why + ")";
    return CompileSandbox::bubblewrap;
  }
  why = fmt::format("neither Landlock ({}) nor bubblewrap ({}): nvcc can read whatever the judge can", ll.why, bw.why);
  return CompileSandbox::none;
}

CompileConfinement confine_compile(SpawnOptions& options, const std::string& nvcc, const fs::path& private_dir,
                                   CompileSandbox choice) {
  std::string why = "the caller asked for none";
  if (choice == CompileSandbox::automatic) choice = choose_compile_sandbox(why);

  // Nothing of the judge's environment reaches the compiler: no NVCC_PREPEND_FLAGS, CPATH or LD_PRELOAD of the
  // caller's, no $HOME of the judge's.
  options.env = {{"PATH", fs::path(nvcc).parent_path().string() + ":/usr/bin:/bin"},
                 {"HOME", private_dir.string()},
                 {"TMPDIR", private_dir.string()},
                 {"LANG", "C"}};
  options.env_is_complete = true;
  options.cwd = private_dir.string();
  // A template or constexpr bomb exhausts nvcc's memory, not the judge's.
  options.setup.expendable = true;

  CompileConfinement c;
  SandboxPolicy policy = compile_policy(nvcc, private_dir);
  switch (choice) {
    case CompileSandbox::landlock:
      c.ruleset.emplace(policy);
      options.setup.landlock_ruleset_fd = c.ruleset->fd();
      options.setup.no_new_privs = true;
      c.sandbox = "landlock";
      break;
    case CompileSandbox::bubblewrap: {
      std::string bwrap = find_bwrap();
      if (bwrap.empty())
        JUDGE_THROW(Error, "cannot sandbox nvcc with bubblewrap: it is not installed (apt-get install bubblewrap, or "
                    "set JUDGE_BWRAP)");
      std::vector<std::string> argv = {bwrap, "--die-with-parent", "--unshare-pid", "--unshare-net", "--unshare-ipc",
                                       "--unshare-uts", "--new-session"};
      std::vector<std::string> mounts = bwrap_mounts(policy);
      argv.insert(argv.end(), mounts.begin(), mounts.end());
      argv.insert(argv.end(), {"--chdir", private_dir.string(), "--"});
      argv.insert(argv.end(), options.argv.begin(), options.argv.end());
      options.argv = std::move(argv);
      options.setup.no_new_privs = true;
      c.sandbox = "bubblewrap";
      break;
    }
    case CompileSandbox::none:
    case CompileSandbox::automatic:
      c.sandbox = "none: " + why;
      break;
  }
  return c;
}

}  // namespace judge
