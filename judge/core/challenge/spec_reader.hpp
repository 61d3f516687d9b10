#pragma once
// SpecReader: reads a parsed spec.json into a Challenge, checking every field and failing with a SpecError that names
// the file and the JSON path at fault. One class, its methods in one file per part of the spec: spec_reader.cpp
// (the document and generic field access), spec_reader_params.cpp (parameters, expressions, distributions,
// tolerances), spec_reader_cases.cpp (tests and benchmarks: sizes, constraints, stress, cost). Internal to the
// challenge stage: the interface is parse_challenge() and load_challenge() in spec.hpp.
#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "judge/core/challenge/spec_json.hpp"

namespace judge::spec_json {

// Reads and validates the parsed document into a Challenge. Each check fails with the path of the field at fault.
class SpecReader {
 public:
  explicit SpecReader(std::filesystem::path file) : file_(std::move(file)) {}

  Challenge read(const json& root);

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const;

  // --- generic field access --------------------------------------------------------------------------------------

  void object(const json& v, const std::string& path) const;
  void check_keys(const json& obj, const std::string& path, std::initializer_list<std::string_view> allowed) const;
  static const json* optional(const json& obj, const std::string& key);
  const json& required(const json& obj, const std::string& path, const std::string& key) const;
  std::string string(const json& v, const std::string& path) const;
  std::string non_empty_string(const json& v, const std::string& path) const;

  // An optional true/false field; absent is false.
  bool optional_bool(const json& obj, const std::string& path, const std::string& key) const;
  std::string one_of(const json& v, const std::string& path, std::initializer_list<std::string_view> choices) const;
  double number(const json& v, const std::string& path) const;
  double non_negative(const json& v, const std::string& path) const;
  const json& array(const json& v, const std::string& path, const std::string& what, std::size_t limit) const;

  // An integer value of an integer dtype: integral (2.0 counts) and in the dtype's range (int64: |v| < 2^53, so the
  // double that carries it is exact).
  double integer_value(const json& v, const std::string& path, const std::string& what, DType t) const;
  double int32_value(const json& v, const std::string& path, const std::string& what) const;
  double float32_value(const json& v, const std::string& path, const std::string& what) const;

  // A value of a parameter's dtype. Where allowed, floating values may be written "nan", "inf", "-inf", "-0".
  double element_value(const json& v, const std::string& path, const Param& p, bool special_strings) const;

  // --- parameters -------------------------------------------------------------------------------------------------

  void read_params(const json& v, Challenge& c);
  Param declaration(const json& v, const std::string& path, const std::vector<Param>& earlier) const;
  static std::vector<std::string> scalar_names(const Challenge& c);

  // An expression over the scalar parameters: a string, or a plain number.
  Expr expression(const json& v, const std::string& path, const Challenge& c) const;

  // --- distributions and tolerances -------------------------------------------------------------------------------

  // A number field of a distribution: a number, or an expression of the scalars evaluated per case (stored in
  // d.expressions under `key`; the number stays at its default until resolved()).
  void number_or_expression(const json& v, const std::string& path, const char* key, double& out, Distribution& d,
                            const Param& p, const Challenge& c, bool element) const;
  Distribution distribution(const json& v, const std::string& path, const Param& p, const Challenge& c) const;

  // The resolved numbers of a distribution make sense for the parameter's dtype: a non-empty range inside the
  // dtype, a positive standard deviation. `scalars` resolves expression fields (a case's values).
  // `label` is set when the distribution is written elsewhere than `path` (a parameter's init resolved at a case's
  // scalars): errors then point at the case and name the field in the message.
  void check_distribution(const Distribution& given, const Param& p, const Env& scalars, const std::string& path,
                          const std::string& label = {}) const;
  Tolerance tolerance(const json& v, const std::string& path) const;

  // --- cases ------------------------------------------------------------------------------------------------------

  std::vector<Case> cases(const json& v, const std::string& path, const Challenge& c);

  // Verdicts and scores rest on graded cases: each list needs one, and LeetGPU's performance case is one of them.
  void check_graded_cases(const Challenge& c) const;
  Case read_case(const json& v, const std::string& path, const Challenge& c);

  // Shapes, cost expressions and device memory for one case's scalars. Reported at the case's scalars: those are
  // what make an otherwise valid expression go wrong.
  void check_sizes(const Challenge& c, const Case& k, const std::string& scalars_path) const;

  // A graded case keeps every constraint; a stress case breaks at least one, or names in `beyond` the promise about
  // values it exceeds. Its `beyond` then says which, in the words the judge prints.
  void check_constraints(const Challenge& c, Case& k, const std::string& path, const std::string& beyond) const;
  void cost(const Expr& e, const char* field, const Case& k, const std::string& scalars_path) const;
  std::filesystem::path file_;
  std::map<std::string, std::string> case_names_;  // name -> path of its first use, across tests and benchmarks
};

}  // namespace judge::spec_json
