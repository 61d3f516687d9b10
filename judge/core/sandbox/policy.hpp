#pragma once
// The sandbox policy, as data, in one place: which paths the untrusted solver (the worker running a submission) and
// nvcc (compiling one) may reach, and how. Landlock (landlock.hpp) and bubblewrap (bwrap.hpp) both enforce these
// same rules, so what a submission can touch is read here and nowhere else.
//
// The solver may read the system (/usr, /lib*, /bin, /sbin, /etc), the CUDA toolkit, /proc and /sys; read and write
// its GPU's device nodes and /dev/null, /dev/zero, /dev/urandom; and write only its private scratch directory. It
// reaches no home directory, no /tmp, no /work, nothing of the judge's cache, leaderboard or calibration.
// nvcc may read the toolkit and the system's compilers and headers and the loader's cache, and write only its
// private build directory: not the rest of /etc (so not /etc/passwd), not /proc, not $HOME, not the cache's other
// builds. (Traced on Debian 12 with nvcc 13.0 and gcc 12: nothing else is opened; /etc/localtime is asked for and
// its refusal only makes nvcc's clock UTC.)
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/sandbox/process.hpp"

namespace judge {

enum class PathAccess {
  read,    // read files, list directories, execute
  write,   // read, plus create, write, truncate, rename and remove beneath
  device,  // a device node: read, write, ioctl
  // The process filesystem without other processes' entries: Landlock allows every entry of /proc that is not a
  // process (cpuinfo, meminfo, driver/nvidia, sys, ...) and the confined process's own /proc/<pid>; bubblewrap mounts
  // a fresh /proc of the sandbox's own pid namespace.
  proc,
};

struct PathRule {
  std::filesystem::path path;
  PathAccess access = PathAccess::read;
};

struct SandboxPolicy {
  std::string name;  // "solver", "compile": for messages
  std::vector<PathRule> rules;
};

// Where the CUDA toolkit lives: the toolkit root found from nvcc (its bin/..) and from the nvcc the judge was built
// with, and the library directory it was configured with (JUDGE_CUDA_LIBRARY_DIR), each as given and resolved through
// symlinks, existing ones only. A bin/.. that is no toolkit (a wrapper script's /usr/local) is left out.
std::vector<std::filesystem::path> toolkit_dirs(const std::string& nvcc);
// A CUDA toolkit's root: it holds bin/nvcc and include/cuda_runtime.h.
bool is_toolkit_root(const std::filesystem::path& root);

struct SolverPaths {
  std::filesystem::path scratch;                 // the only writable directory; empty: none
  std::vector<std::filesystem::path> readable;   // the worker's executable, the user's library: files or directories
  std::optional<int> gpu_minor;                  // /dev/nvidia<minor> of the assigned GPU; none: every GPU's node
  std::string nvcc;                              // to find the toolkit; empty: find_nvcc() if it can, else only
                                                 // JUDGE_CUDA_LIBRARY_DIR
};
SandboxPolicy solver_policy(const SolverPaths& paths);

// nvcc's: the toolkit, compilers, headers, the build directory `private_dir` read-write.
SandboxPolicy compile_policy(const std::string& nvcc, const std::filesystem::path& private_dir);

// The device nodes a CUDA process needs: /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia-uvm-tools and the GPU's own
// /dev/nvidia<minor> (every /dev/nvidia<N> without a minor). Only those that exist.
std::vector<std::filesystem::path> nvidia_device_nodes(std::optional<int> gpu_minor);

// Who the solver runs as: nobody:nogroup (65534:65534) when the judge is root, so that the solver owns nothing on the
// host; none when the judge is not root (it cannot change uid, and the solver keeps the judge's). Its scratch
// directory must then belong to that user (give_to).
inline constexpr Credentials kNobody{65534, 65534};
std::optional<Credentials> solver_credentials();
// chown -R of `dir` to `who`. Throws Error naming the path.
void give_to(const std::filesystem::path& dir, const Credentials& who);

}  // namespace judge
