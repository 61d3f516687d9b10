#pragma once
// Confinement: putting the protections on the two untrusted things the judge runs. The solver (the process that
// calls the submission's solve()) confines itself once its CUDA context exists; nvcc, compiling a submission, is
// confined by the judge as it starts it. What is allowed is the policy's (policy.hpp); what took effect is reported
// as Protections (protections.hpp), never assumed.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/sandbox/landlock.hpp"
#include "judge/core/sandbox/policy.hpp"
#include "judge/core/sandbox/process.hpp"
#include "judge/core/sandbox/protections.hpp"

namespace judge {

struct SolverConfinement {
  SolverPaths paths;  // its scratch directory, what it reads beyond the system and the toolkit, its GPU
  // A tool (compute-sanitizer, Nsight Compute) runs the solver and talks to its own code injected there: nothing is
  // applied, and the protections say so. Such runs are neither timed nor recorded.
  bool tool = false;

  // From the solver's environment, as the worker starts it: JUDGE_SOLVER_SCRATCH, JUDGE_SOLVER_TOOL=1,
  // JUDGE_SOLVER_GPU_MINOR; readable: the running executable (the toolkit is found from JUDGE_CUDA_LIBRARY_DIR and
  // nvcc, if there is one).
  static SolverConfinement from_environment();
};

// What the solver calls on itself after its CUDA context exists (Landlock applied earlier breaks the driver's start):
// no_new_privs, Landlock with solver_policy(), the seccomp filter. Returns each protection (landlock, seccomp,
// no network) with on/off and why. Never throws because a protection is unavailable; throws Error when one that the
// machine offers fails to apply, since running on with less than was probed would be a lie.
std::vector<Protection> confine_self(const SolverConfinement& confinement);

enum class CompileSandbox { automatic, landlock, bubblewrap, none };

// The protection a compile gets here: Landlock where the kernel has it, else bubblewrap where it works, else none.
// Returns the kind chosen (never automatic) and, in `why`, what it means or why there is none.
CompileSandbox choose_compile_sandbox(std::string& why);

struct CompileConfinement {
  std::string sandbox;                     // "landlock", "bubblewrap" or "none: <why>", as BuildResult records it
  std::optional<LandlockRuleset> ruleset;  // the options refer to it: keep it until nvcc has started
};
// Makes `options` (argv = nvcc and its arguments) run nvcc confined to compile_policy(nvcc, private_dir), with a
// scrubbed environment: PATH = nvcc's directory, /usr/bin and /bin; HOME and TMPDIR = private_dir; LANG=C; and
// expendable (process.hpp: the OOM killer's first choice, no core file).
CompileConfinement confine_compile(SpawnOptions& options, const std::string& nvcc,
                                   const std::filesystem::path& private_dir,
                                   CompileSandbox choice = CompileSandbox::automatic);

}  // namespace judge
