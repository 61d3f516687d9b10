// The document and generic field access (SpecReader, spec_reader.hpp).
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

Challenge SpecReader::read(const json& root) {
  Challenge c;
  const std::string root_path(kRoot);
  object(root, root_path);
  check_keys(root, root_path,
             {"id", "title", "difficulty", "summary", "aliases", "params", "constraints", "tolerance", "flops",
              "bytes", "timeout_s", "tests", "benchmarks", "source"});
  c.id = string(required(root, root_path, "id"), "id");
  if (!all_chars_in(c.id, "_", false))
    fail("id", fmt::format("expected lowercase letters, digits and '_' only ([a-z0-9_]+), got '{}'",
                           truncated(c.id)));
  if (const json* list = optional(root, "aliases")) {
    array(*list, "aliases", "other names (e.g. [\"Fast_Fourier_transform\"])", kMaxParams);
    for (std::size_t i = 0; i < list->size(); ++i) {
      std::string alias = non_empty_string((*list)[i], index("aliases", i));
      if (!is_identifier(alias))
        fail(index("aliases", i), fmt::format("expected letters, digits and '_' (a name such as LeetGPU's id), got "
                                              "'{}'", truncated(alias)));
      if (alias == c.id) fail(index("aliases", i), "an alias equal to the id; remove it");
      c.aliases.push_back(alias);
    }
  }
  c.title = non_empty_string(required(root, root_path, "title"), "title");
  c.difficulty = one_of(required(root, root_path, "difficulty"), "difficulty", {"easy", "medium", "hard"});
  c.summary = non_empty_string(required(root, root_path, "summary"), "summary");
  if (c.summary.find('\n') != std::string::npos) fail("summary", "expected one line, got a line break");
  if (const json* source = optional(root, "source")) c.source = one_of(*source, "source", {"leetgpu", "ours"});

  read_params(required(root, root_path, "params"), c);
  if (const json* list = optional(root, "constraints")) {
    array(*list, "constraints", "constraint expressions (e.g. [\"k <= N\"])", kMaxParams);
    for (std::size_t i = 0; i < list->size(); ++i) {
      if (!(*list)[i].is_string())
        fail(index("constraints", i), "expected an expression string such as \"k <= N\", got " + describe((*list)[i]));
      c.constraints.push_back(expression((*list)[i], index("constraints", i), c));
    }
  }
  c.tolerance = tolerance(required(root, root_path, "tolerance"), "tolerance");
  c.flops = expression(required(root, root_path, "flops"), "flops", c);
  if (const json* b = optional(root, "bytes")) c.bytes = expression(*b, "bytes", c);
  if (const json* t = optional(root, "timeout_s")) {
    c.timeout_s = number(*t, "timeout_s");
    if (!(c.timeout_s > 0 && c.timeout_s <= kMaxTimeout))
      fail("timeout_s", fmt::format("expected seconds in (0, {}], got {}", kMaxTimeout, describe(*t)));
  }
  c.tests = cases(required(root, root_path, "tests"), "tests", c);
  c.benchmarks = cases(required(root, root_path, "benchmarks"), "benchmarks", c);
  check_graded_cases(c);
  return c;
}

void SpecReader::fail(const std::string& path, const std::string& problem) const {
  throw SpecError(file_, path, problem);
}

void SpecReader::object(const json& v, const std::string& path) const {
  if (!v.is_object()) fail(path, "expected an object, got " + describe(v));
}

void SpecReader::check_keys(const json& obj, const std::string& path,
                            std::initializer_list<std::string_view> allowed) const {
  for (const auto& item : obj.items()) {
    const std::string& key = item.key();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string hint;
    if (key.size() <= 64) {
      for (auto known : allowed)
        if (edit_distance(key, known) <= 2) {
          hint = fmt::format(" (did you mean '{}'?)", known);
          break;
        }
    }
    fail(child(path, key), fmt::format("unknown field '{}'{}; expected one of {}", truncated(key), hint,
                                        join(allowed)));
  }
}

const json* SpecReader::optional(const json& obj, const std::string& key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const json& SpecReader::required(const json& obj, const std::string& path, const std::string& key) const {
  const json* v = optional(obj, key);
  if (v == nullptr) fail(child(path, key), fmt::format("missing required field '{}'", key));
  return *v;
}

std::string SpecReader::string(const json& v, const std::string& path) const {
  if (!v.is_string()) fail(path, "expected a string, got " + describe(v));
  return v.get<std::string>();
}

std::string SpecReader::non_empty_string(const json& v, const std::string& path) const {
  std::string s = string(v, path);
  if (s.empty()) fail(path, "expected a non-empty string");
  return s;
}

bool SpecReader::optional_bool(const json& obj, const std::string& path, const std::string& key) const {
  const json* v = optional(obj, key);
  if (v == nullptr) return false;
  if (!v->is_boolean()) fail(child(path, key), "expected true or false, got " + describe(*v));
  return v->get<bool>();
}

std::string SpecReader::one_of(const json& v, const std::string& path,
                               std::initializer_list<std::string_view> choices) const {
  std::string s = string(v, path);
  if (std::find(choices.begin(), choices.end(), s) == choices.end())
    fail(path, fmt::format("expected one of {}; got '{}'", join(choices), truncated(s)));
  return s;
}

double SpecReader::number(const json& v, const std::string& path) const {
  if (!v.is_number()) fail(path, "expected a number, got " + describe(v));
  double d = v.get<double>();
  if (!std::isfinite(d)) fail(path, "number out of range, got " + describe(v));
  return d;
}

double SpecReader::non_negative(const json& v, const std::string& path) const {
  double d = number(v, path);
  if (!(d >= 0)) fail(path, "expected a number >= 0, got " + describe(v));
  return d;
}

const json& SpecReader::array(const json& v, const std::string& path, const std::string& what,
                              std::size_t limit) const {
  if (!v.is_array()) fail(path, fmt::format("expected a list of {}, got {}", what, describe(v)));
  if (v.empty()) fail(path, fmt::format("expected a non-empty list of {}", what));
  if (v.size() > limit) fail(path, fmt::format("{} {} given; the limit is {}", v.size(), what, limit));
  return v;
}

double SpecReader::integer_value(const json& v, const std::string& path, const std::string& what, DType t) const {
  double d = number(v, path);
  if (d != std::floor(d)) fail(path, fmt::format("expected an integer for {}, got {}", what, describe(v)));
  double lo = std::max(min_value(t), -kTwoPow53), hi = std::min(max_value(t), kTwoPow53);
  if (d < lo || d > hi)
    fail(path, fmt::format("expected an integer for {} in [{:.0f}, {:.0f}], got {}", what, lo, hi, describe(v)));
  return d == 0 ? 0.0 : d;  // no -0 in integer data
}

double SpecReader::int32_value(const json& v, const std::string& path, const std::string& what) const {
  return integer_value(v, path, what, DType::int32);
}

double SpecReader::float32_value(const json& v, const std::string& path, const std::string& what) const {
  double d = number(v, path);
  if (std::fabs(d) > FLT_MAX) fail(path, fmt::format("{} is out of float32 range, got {}", what, describe(v)));
  return d;
}

double SpecReader::element_value(const json& v, const std::string& path, const Param& p, bool special_strings) const {
  std::string what = fmt::format("{} parameter '{}'", to_string(p.dtype), p.name);
  if (special_strings && v.is_string()) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    static const std::pair<std::string_view, double> kSpecials[] = {
        {"nan", std::numeric_limits<double>::quiet_NaN()}, {"inf", kInf}, {"-inf", -kInf}, {"-0", -0.0}};
    const std::string& s = v.get_ref<const std::string&>();
    auto it = std::find_if(std::begin(kSpecials), std::end(kSpecials), [&](const auto& e) { return e.first == s; });
    if (it == std::end(kSpecials))
      fail(path, fmt::format("expected a number or one of \"nan\", \"inf\", \"-inf\", \"-0\"; got {}", describe(v)));
    if (is_floating(p.dtype)) return it->second;
    if (s == "-0") return 0.0;
    fail(path, fmt::format("'{}' cannot be stored in {}", s, what));
  }
  if (!is_floating(p.dtype)) return integer_value(v, path, what, p.dtype);
  double d = float32_value(v, path, "value for " + what);
  if (p.dtype == DType::float16 && std::fabs(d) > kHalfMax)
    fail(path, fmt::format("{} is out of float16 range (|x| <= 65504), got {}", what, describe(v)));
  return d;
}

}  // namespace judge::spec_json
