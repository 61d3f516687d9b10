#pragma once
// A challenge: challenges/<id>/spec.json (plus statement.md and starter.cu beside it). See README "Challenge spec".
// load_challenge() validates everything and every SpecError names the file and the JSON path of the bad field.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/base/error.hpp"
#include "judge/core/challenge/dtype.hpp"
#include "judge/core/challenge/expr.hpp"
#include "judge/core/challenge/tolerance.hpp"

namespace judge {

class SpecError : public Error {
 public:
  // Message: "<file>: <json_path>: <problem>"
  SpecError(const std::filesystem::path& file, const std::string& json_path, const std::string& problem);
  const std::string& json_path() const { return json_path_; }

 private:
  std::string json_path_;
};

enum class Role { input, output, inout, scalar };
std::string_view to_string(Role r);

// How the values of an input buffer are drawn. Every value is a pure function of (seed, element index), so inputs
// can be regenerated anywhere (GPU, CPU tests, input-unchanged checks) without being stored.
struct Distribution {
  enum class Kind { uniform, normal, constant, values, custom };
  Kind kind = Kind::uniform;
  double low = -1.0, high = 1.0;     // uniform: [low, high); for int32, integers in [low, high]
  double mean = 0.0, stddev = 1.0;   // normal
  double value = 0.0;                // constant
  std::vector<double> values;        // values: element i is values[i % size] (explicit small inputs)
  std::string custom;                // custom: name of a registered generator (structured inputs)
  // Special values mixed in: each element is replaced, with probability special_fraction, by one of
  // specials (which may hold NaN, +/-Inf, -0.0: written in JSON as "nan", "inf", "-inf", "-0").
  std::vector<double> specials;
  double special_fraction = 0.0;
  // Fields written as expressions of the scalar parameters ("high": "C-1"), by field name (low, high, mean,
  // stddev, value): their numbers above are only known per case, from resolved().
  std::map<std::string, Expr> expressions;
  // custom: the generator's arguments, each an expression of the scalars ({"nnz": "nnz", "cols": "C"}).
  std::map<std::string, Expr> args;
  // custom: parameters of a case whose distributions name the same draw share one random key, so that generators
  // of coupled buffers agree (a CSR matrix's row_ptr and col_idx: both derive the same row lengths). Empty: the
  // parameter has its own key.
  std::string draw;

  // This distribution with every expression evaluated for a case's scalars. Throws ExprError.
  Distribution resolved(const Env& scalars) const;
  // The custom generator's arguments for a case's scalars. Throws ExprError.
  std::map<std::string, double> resolved_args(const Env& scalars) const;
};
std::string_view to_string(Distribution::Kind k);

struct Param {
  std::string name;
  Role role = Role::input;
  DType dtype = DType::float32;
  std::vector<Expr> shape;  // empty for scalars; element count is the product
  Distribution init;        // inputs and in-outs
  std::string check;        // outputs and in-outs: a registered checker's name; empty = element-wise
  std::map<std::string, Expr> check_args;  // the checker's arguments, expressions of the scalars
  // Outputs only: the output holds `init` on entry instead of the poison pattern. For LeetGPU compatibility only:
  // LeetGPU hands some outputs over zeroed (histogramming, monte_carlo_integration), and its users rely on it.
  bool preset = false;
  bool is_buffer() const { return role != Role::scalar; }
};

struct Case {
  std::string name;
  std::string note;                               // why this case exists (which bug it catches)
  Env scalars;                                    // a value for every scalar parameter
  std::map<std::string, Distribution> inputs;     // per-case override of an input's distribution
  std::optional<Tolerance> tolerance;             // per-case override
  // A stress case goes past what the statement promises (a size beyond its limits, values outside its ranges): run,
  // checked and timed like the rest but reported apart, and it never decides the verdict or the score (unless
  // `judge submit --strict`). `beyond` says which promise it exceeds, as the judge prints it: "N = 268435456 is
  // past the statement's N <= 100000000", or the spec's own words for a promise about values.
  bool stress = false;
  std::string beyond;
  // Benchmarks only: LeetGPU's own performance case (its sizes), which every LeetGPU challenge includes.
  bool leetgpu_performance = false;
};

struct Challenge {
  std::filesystem::path dir;        // challenges/<id>
  std::filesystem::path spec_path;  // challenges/<id>/spec.json
  std::string id;                   // equals the folder name
  std::string title;
  std::string difficulty;           // easy | medium | hard
  std::string summary;              // one line
  // Other names `judge` accepts for this challenge: LeetGPU's id where ours differs (its capitals lower-cased, or
  // LeetGPU's spelling kept as the id and the usual one added: casual_attention / causal_attention).
  std::vector<std::string> aliases;
  std::vector<Param> params;        // in solve()'s parameter order
  // The statement's promises (LeetGPU's limits) and structural rules, over the scalars: "k <= N", "N <= 100000000".
  // Every graded case satisfies all of them; a stress case breaks at least one (or says in `beyond` what it exceeds).
  std::vector<Expr> constraints;
  // "leetgpu" (default): one of LeetGPU's challenges, held to its signatures and promises; "ours": the judge's own.
  std::string source = "leetgpu";
  Tolerance tolerance;
  Expr flops;                       // per call
  std::optional<Expr> bytes;        // per call; default: every buffer read (inputs), written (outputs) or both
  double timeout_s = 10.0;          // per case, for one solve() call
  std::vector<Case> tests;          // functional cases: small, run by `judge run`
  std::vector<Case> benchmarks;     // timed cases: run by `judge submit`
  bool has_stress_cases() const;

  const Param* find_param(const std::string& name) const;
  // extern "C" void solve(const float* A, const float* B, float* C, int N)
  std::string signature() const;
  // Elements of buffer parameter p for the case's scalars.
  std::int64_t element_count(const Param& p, const Env& scalars) const;
  double flops_for(const Env& scalars) const;
  double bytes_for(const Env& scalars) const;
  // The case's distribution for input p (the override if any, else the parameter's).
  const Distribution& distribution_for(const Param& p, const Case& c) const;
  const Tolerance& tolerance_for(const Case& c) const;
  std::filesystem::path statement_path() const { return dir / "statement.md"; }
  std::filesystem::path starter_path() const { return dir / "starter.cu"; }
};

// Loads and validates challenges/<id>/spec.json from dir. Throws SpecError.
Challenge load_challenge(const std::filesystem::path& dir);
// Parses spec text as if read from `file` (for tests and fuzzing). Throws SpecError, never anything else.
Challenge parse_challenge(const std::string& json_text, const std::filesystem::path& file);

}  // namespace judge
