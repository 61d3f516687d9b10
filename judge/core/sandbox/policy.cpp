#include "judge/core/sandbox/policy.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

#include <unistd.h>

#include "judge/core/base/error.hpp"
#include "judge/core/base/nvcc.hpp"

namespace judge {

namespace fs = std::filesystem;

namespace {

// The system: programs, libraries and the loader's configuration. /etc is whole for the solver (the CUDA driver and
// glibc read several files there); nvcc gets only single files of it (compile_policy).
constexpr std::string_view kSystemDirs[] = {"/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc"};

// What the compilers run: nvcc's helpers call gcc and cc1plus from PATH and /usr/lib/gcc, and read the C and C++
// headers and, at link time, the system's libraries. /usr/local/include is on gcc's search path but stays out: a file
// found there must not appear in a build.
constexpr std::string_view kCompileDirs[] = {"/usr/include", "/usr/lib", "/usr/libexec", "/usr/bin",
                                             "/bin",         "/lib",     "/lib64",        "/lib32"};
// The single files they open outside those: the dynamic loader's cache, and the list of libraries to preload (read
// by the loader whenever it exists). Nothing else of /etc: `#include "/etc/passwd"` must fail.
constexpr std::string_view kCompileFiles[] = {"/etc/ld.so.cache", "/etc/ld.so.preload"};

// Character devices every process may use harmlessly.
constexpr std::string_view kHarmlessDevices[] = {"/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"};

bool present(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

void add_existing(std::vector<fs::path>& dirs, const fs::path& p) {
  if (p.empty() || !present(p)) return;
  if (std::find(dirs.begin(), dirs.end(), p) == dirs.end()) dirs.push_back(p);
  std::error_code ec;
  fs::path resolved = fs::canonical(p, ec);
  if (!ec && std::find(dirs.begin(), dirs.end(), resolved) == dirs.end()) dirs.push_back(resolved);
}

std::string nvcc_or_empty() {
  try {
    return find_nvcc();
  } catch (const Error&) {
    return {};  // the solver needs the toolkit's libraries, which the configured library directory names anyway
  }
}

}  // namespace

std::vector<fs::path> toolkit_dirs(const std::string& nvcc) {
  std::vector<fs::path> dirs;
  // nvcc is <root>/bin/nvcc, also when reached through a symlink such as /usr/local/cuda. A root is taken only when it
  // holds the toolkit's headers: nvcc can be a wrapper script elsewhere (/usr/local/bin/nvcc exec'ing the real one),
  // and its <root> (/usr/local) would open everything installed beside it, /usr/local/include included. The toolkit
  // the judge was built with stands in then.
  auto add_root_of = [&](const fs::path& compiler) {
    const fs::path root = compiler.parent_path().parent_path();
    if (is_toolkit_root(root)) add_existing(dirs, root);
    std::error_code ec;
    fs::path real = fs::canonical(compiler, ec);
    if (!ec && is_toolkit_root(real.parent_path().parent_path())) add_existing(dirs, real.parent_path().parent_path());
  };
  if (!nvcc.empty()) add_root_of(nvcc);
  add_root_of(JUDGE_NVCC);
  add_existing(dirs, JUDGE_CUDA_LIBRARY_DIR);
  return dirs;
}

bool is_toolkit_root(const fs::path& root) {
  return !root.empty() && present(root / "bin" / "nvcc") && present(root / "include" / "cuda_runtime.h");
}

std::vector<fs::path> nvidia_device_nodes(std::optional<int> gpu_minor) {
  std::vector<fs::path> nodes;
  for (const char* shared : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"})
    if (present(shared)) nodes.emplace_back(shared);
  if (gpu_minor) {
    fs::path own = "/dev/nvidia" + std::to_string(*gpu_minor);
    if (present(own)) nodes.push_back(own);
    return nodes;
  }
  std::error_code ec;
  std::vector<fs::path> gpus;
  for (const auto& entry : fs::directory_iterator("/dev", ec)) {
    std::string name = entry.path().filename().string();
    if (name.size() > 6 && name.compare(0, 6, "nvidia") == 0 &&
        std::all_of(name.begin() + 6, name.end(), [](char c) { return c >= '0' && c <= '9'; }))
      gpus.push_back(entry.path());
  }
  std::sort(gpus.begin(), gpus.end());
  nodes.insert(nodes.end(), gpus.begin(), gpus.end());
  return nodes;
}

SandboxPolicy solver_policy(const SolverPaths& paths) {
  SandboxPolicy p{"solver", {}};
  for (std::string_view dir : kSystemDirs) p.rules.push_back({fs::path(dir), PathAccess::read});
  for (const auto& dir : toolkit_dirs(paths.nvcc.empty() ? nvcc_or_empty() : paths.nvcc))
    p.rules.push_back({dir, PathAccess::read});
  p.rules.push_back({"/proc", PathAccess::proc});
  p.rules.push_back({"/sys", PathAccess::read});
  for (std::string_view dev : kHarmlessDevices) p.rules.push_back({fs::path(dev), PathAccess::device});
  for (const auto& node : nvidia_device_nodes(paths.gpu_minor)) p.rules.push_back({node, PathAccess::device});
  for (const auto& extra : paths.readable) p.rules.push_back({extra, PathAccess::read});
  if (!paths.scratch.empty()) p.rules.push_back({paths.scratch, PathAccess::write});
  return p;
}

SandboxPolicy compile_policy(const std::string& nvcc, const fs::path& private_dir) {
  SandboxPolicy p{"compile", {}};
  for (const auto& dir : toolkit_dirs(nvcc)) p.rules.push_back({dir, PathAccess::read});
  // The compiler itself, wherever it is: a wrapper script outside the toolkit is read (and run) on its own.
  if (present(nvcc)) p.rules.push_back({fs::path(nvcc), PathAccess::read});
  for (std::string_view dir : kCompileDirs) p.rules.push_back({fs::path(dir), PathAccess::read});
  for (std::string_view file : kCompileFiles) p.rules.push_back({fs::path(file), PathAccess::read});
  p.rules.push_back({"/dev/null", PathAccess::device});
  p.rules.push_back({private_dir, PathAccess::write});
  return p;
}

std::optional<Credentials> solver_credentials() {
  if (::geteuid() != 0) return std::nullopt;
  return kNobody;
}

void give_to(const fs::path& dir, const Credentials& who) {
  auto chown_one = [&](const fs::path& p) {
    if (::lchown(p.c_str(), who.uid, who.gid) != 0)
      JUDGE_THROW(Error, "cannot give {} to uid {} gid {} for the sandbox: {} (the judge must run as root to do so)",
                  p.string(), who.uid, who.gid, std::strerror(errno));
  };
  chown_one(dir);
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    chown_one(it->path());
  if (ec) JUDGE_THROW(Error, "cannot list {} to give it to the sandbox's user: {}", dir.string(), ec.message());
}

}  // namespace judge
