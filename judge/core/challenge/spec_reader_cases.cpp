// Tests and benchmarks: sizes, constraints, stress cases, cost (SpecReader, spec_reader.hpp).
#include "judge/core/challenge/spec_reader.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <set>

#include <fmt/format.h>

namespace judge::spec_json {

std::vector<Case> SpecReader::cases(const json& v, const std::string& path, const Challenge& c) {
  array(v, path, "cases", kMaxCases);
  std::vector<Case> out;
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(read_case(v[i], index(path, i), c));
  return out;
}

void SpecReader::check_graded_cases(const Challenge& c) const {
  for (const auto* list : {&c.tests, &c.benchmarks}) {
    const char* name = list == &c.tests ? "tests" : "benchmarks";
    if (std::all_of(list->begin(), list->end(), [](const Case& k) { return k.stress; }))
      fail(name, "every case is a stress case; at least one must be graded (within the statement's promises), or "
                 "the verdict would rest on nothing");
  }
  const Case* performance = nullptr;
  for (const Case& k : c.benchmarks) {
    if (!k.leetgpu_performance) continue;
    std::string path = index("benchmarks", static_cast<std::size_t>(&k - c.benchmarks.data()));
    if (performance)
      fail(child(path, "leetgpu_performance"),
           fmt::format("a second benchmark marked as LeetGPU's performance case (the first is '{}')",
                       performance->name));
    if (k.stress)
      fail(child(path, "leetgpu_performance"),
           "LeetGPU's performance case is graded: it cannot be a stress case (widen the constraint it breaks, "
           "since LeetGPU's own case goes past it)");
    performance = &k;
  }
}

Case SpecReader::read_case(const json& v, const std::string& path, const Challenge& c) {
  object(v, path);
  const bool benchmark = path.rfind("benchmarks", 0) == 0;
  if (benchmark)
    check_keys(v, path, {"name", "note", "scalars", "inputs", "tolerance", "stress", "beyond", "leetgpu_performance"});
  else
    check_keys(v, path, {"name", "note", "scalars", "inputs", "tolerance", "stress", "beyond"});
  Case k;
  std::string name_path = child(path, "name");
  k.name = string(required(v, path, "name"), name_path);
  if (!all_chars_in(k.name, "_.-", true))
    fail(name_path, fmt::format("expected letters, digits, '_', '.' or '-' only ([A-Za-z0-9_.-]+), got '{}'",
                                truncated(k.name)));
  auto [seen, fresh] = case_names_.emplace(k.name, name_path);
  if (!fresh) fail(name_path, fmt::format("duplicate case name '{}' (also {})", k.name, seen->second));
  if (const json* note = optional(v, "note")) k.note = string(*note, child(path, "note"));
  k.stress = optional_bool(v, path, "stress");
  k.leetgpu_performance = optional_bool(v, path, "leetgpu_performance");
  std::string beyond;
  if (const json* b = optional(v, "beyond")) {
    if (!k.stress)
      fail(child(path, "beyond"), "only a stress case (\"stress\": true) goes beyond the statement's promises");
    beyond = non_empty_string(*b, child(path, "beyond"));
  }

  std::string scalars_path = child(path, "scalars");
  const json& scalars = required(v, path, "scalars");
  object(scalars, scalars_path);
  auto names = scalar_names(c);
  std::string expected = names.empty() ? "none (no parameter is a scalar)" : join(names);
  for (const auto& item : scalars.items()) {
    const Param* p = c.find_param(item.key());
    if (p == nullptr || p->role != Role::scalar)
      fail(child(scalars_path, item.key()),
           fmt::format("'{}' is not a scalar parameter; expected exactly {}", truncated(item.key()), expected));
  }
  for (const auto& p : c.params) {
    if (p.role != Role::scalar) continue;
    std::string value_path = child(scalars_path, p.name);
    const json* value = optional(scalars, p.name);
    if (value == nullptr) fail(value_path, fmt::format("missing value for scalar parameter '{}'", p.name));
    k.scalars[p.name] = is_integer(p.dtype)
                            ? integer_value(*value, value_path, fmt::format("{} scalar", to_string(p.dtype)), p.dtype)
                            : float32_value(*value, value_path, "float32 scalar");
  }

  if (const json* inputs = optional(v, "inputs")) {
    std::string inputs_path = child(path, "inputs");
    object(*inputs, inputs_path);
    for (const auto& item : inputs->items()) {
      std::string input_path = child(inputs_path, item.key());
      const Param* p = c.find_param(item.key());
      if (p == nullptr) fail(input_path, fmt::format("no parameter named '{}'", truncated(item.key())));
      if (p->role != Role::input && p->role != Role::inout)
        fail(input_path, fmt::format("'{}' is {} {}; only input and inout parameters have a distribution", p->name,
                                     p->role == Role::output ? "an" : "a", to_string(p->role)));
      k.inputs[p->name] = distribution(item.value(), input_path, *p, c);
    }
  }
  if (const json* tol = optional(v, "tolerance")) k.tolerance = tolerance(*tol, child(path, "tolerance"));

  check_sizes(c, k, scalars_path);
  check_constraints(c, k, path, beyond);
  for (const auto& p : c.params)
    for (const auto& [name, e] : p.check_args) try {
        (void)e.eval(k.scalars);
      } catch (const ExprError& err) {
        fail(scalars_path, fmt::format("argument '{}' of the checker of '{}' (params[{}].check.args.{}): {}", name,
                                       p.name, &p - c.params.data(), name, err.what()));
      }
  for (const auto& p : c.params) {
    if (p.role != Role::input && p.role != Role::inout) continue;
    const Distribution& d = c.distribution_for(p, k);
    if (d.expressions.empty() && d.args.empty()) continue;
    if (k.inputs.count(p.name) > 0)
      check_distribution(d, p, k.scalars, child(child(path, "inputs"), p.name));
    else
      check_distribution(d, p, k.scalars, scalars_path,
                         fmt::format("params[{}].init at these scalars: ", &p - c.params.data()));
  }
  return k;
}

void SpecReader::check_sizes(const Challenge& c, const Case& k, const std::string& scalars_path) const {
  std::int64_t device_bytes = 0;
  for (std::size_t i = 0; i < c.params.size(); ++i) {
    const Param& p = c.params[i];
    if (!p.is_buffer()) continue;
    for (std::size_t d = 0; d < p.shape.size(); ++d) {
      try {
        p.shape[d].eval_size(k.scalars);
      } catch (const ExprError& e) {
        fail(scalars_path, fmt::format("the shape of '{}' (params[{}].shape[{}]) is not a valid size here: {}", p.name,
                                       i, d, e.what()));
      }
    }
    std::int64_t count = 0;
    try {
      count = c.element_count(p, k.scalars);
    } catch (const ExprError&) {
      count = std::numeric_limits<std::int64_t>::max();
    }
    if (count >= kMaxElements)
      fail(scalars_path, fmt::format("'{}' would have {} elements; a buffer must have fewer than 2^31 (int32 "
                                     "indexing)",
                                     p.name, count == std::numeric_limits<std::int64_t>::max()
                                                 ? std::string("more than 2^63")
                                                 : std::to_string(count)));
    // The reference writes its own copy of every output, so those count twice.
    std::int64_t bytes = count * static_cast<std::int64_t>(size_of(p.dtype));
    device_bytes += p.role == Role::input ? bytes : 2 * bytes;
  }
  if (device_bytes > kMaxDeviceBytes)
    fail(scalars_path, fmt::format("this case needs {:.2f} GiB of device memory (buffers plus the reference's copies "
                                   "of outputs and in-outs); the limit is 8 GiB, so that the judge runs on "
                                   "ordinary cards",
                                   static_cast<double>(device_bytes) / (1 << 30)));
  cost(c.flops, "flops", k, scalars_path);
  if (c.bytes) cost(*c.bytes, "bytes", k, scalars_path);
}

void SpecReader::check_constraints(const Challenge& c, Case& k, const std::string& path,
                                   const std::string& beyond) const {
  const std::string scalars_path = child(path, "scalars");
  std::vector<std::string> broken;
  for (const Expr& e : c.constraints) {
    double holds = 0;
    try {
      holds = e.eval(k.scalars);
    } catch (const ExprError& err) {
      fail(scalars_path, fmt::format("constraint '{}' cannot be evaluated here: {}", truncated(e.text()), err.what()));
    }
    if (holds != 0) continue;
    std::string values;
    for (const auto& name : e.identifiers())
      values += fmt::format("{}{} = {}", values.empty() ? "" : ", ", name, k.scalars.at(name));
    if (!k.stress)
      fail(scalars_path, fmt::format("constraint '{}' does not hold ({}); a graded case stays within the statement's "
                                     "promises: mark it \"stress\": true if it is meant to go past them",
                                     truncated(e.text()), values));
    broken.push_back(fmt::format("{} is past the statement's {}", values, truncated(e.text())));
  }
  if (!beyond.empty()) broken.push_back(beyond);
  if (k.stress && broken.empty())
    fail(child(path, "stress"), "a stress case within every constraint; drop \"stress\", or say in \"beyond\" which "
                                "promise about values it goes past");
  for (const auto& b : broken) k.beyond += (k.beyond.empty() ? "" : "; ") + b;
}

void SpecReader::cost(const Expr& e, const char* field, const Case& k, const std::string& scalars_path) const {
  double value = 0;
  try {
    value = e.eval(k.scalars);
  } catch (const ExprError& err) {
    fail(scalars_path, fmt::format("'{}' cannot be evaluated here: {}", field, err.what()));
  }
  if (value < 0)
    fail(scalars_path, fmt::format("'{}' ({}) evaluates to {} here; expected a number >= 0", field,
                                   truncated(e.text()), value));
}

}  // namespace judge::spec_json
