#include "judge/core/challenge/spec.hpp"

#include <algorithm>
#include <iterator>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <set>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

namespace judge {

SpecError::SpecError(const std::filesystem::path& file, const std::string& json_path, const std::string& problem)
    : Error(fmt::format("{}: {}: {}", file.string(), json_path, problem)), json_path_(json_path) {}

std::string_view to_string(Role r) {
  switch (r) {
    case Role::input: return "input";
    case Role::output: return "output";
    case Role::inout: return "inout";
    case Role::scalar: return "scalar";
  }
  return "?";
}

std::string_view to_string(Distribution::Kind k) {
  switch (k) {
    case Distribution::Kind::uniform: return "uniform";
    case Distribution::Kind::normal: return "normal";
    case Distribution::Kind::constant: return "constant";
    case Distribution::Kind::values: return "values";
    case Distribution::Kind::custom: return "custom";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------------------------
// Challenge accessors

bool Challenge::has_stress_cases() const {
  for (const auto* list : {&tests, &benchmarks})
    for (const auto& k : *list)
      if (k.stress) return true;
  return false;
}

const Param* Challenge::find_param(const std::string& name) const {
  for (const auto& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

std::string Challenge::signature() const {
  std::string s = "extern \"C\" void solve(";
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    if (i > 0) s += ", ";
    if (p.role == Role::input) s += "const ";
    s += c_type(p.dtype);
    s += p.is_buffer() ? "* " : " ";
    s += p.name;
  }
  return s + ")";
}

std::int64_t Challenge::element_count(const Param& p, const Env& scalars) const {
  std::vector<std::int64_t> dims;
  for (const auto& e : p.shape) dims.push_back(e.eval_size(scalars));
  if (std::find(dims.begin(), dims.end(), 0) != dims.end()) return 0;
  std::int64_t n = 1;
  for (std::int64_t d : dims) {
    if (n > std::numeric_limits<std::int64_t>::max() / d)
      throw ExprError(fmt::format("the element count of parameter '{}' overflows a 64-bit integer", p.name));
    n *= d;
  }
  return n;
}

double Challenge::flops_for(const Env& scalars) const { return flops.eval(scalars); }

double Challenge::bytes_for(const Env& scalars) const {
  if (bytes) return bytes->eval(scalars);
  double total = 0.0;
  for (const auto& p : params) {
    if (!p.is_buffer()) continue;
    double moved = static_cast<double>(element_count(p, scalars)) * static_cast<double>(size_of(p.dtype));
    total += p.role == Role::inout ? 2 * moved : moved;
  }
  return total;
}

const Distribution& Challenge::distribution_for(const Param& p, const Case& c) const {
  auto it = c.inputs.find(p.name);
  return it != c.inputs.end() ? it->second : p.init;
}

const Tolerance& Challenge::tolerance_for(const Case& c) const { return c.tolerance ? *c.tolerance : tolerance; }

Distribution Distribution::resolved(const Env& scalars) const {
  Distribution d = *this;
  for (const auto& [field, e] : expressions) {
    double v = e.eval(scalars);
    if (field == "low") d.low = v;
    else if (field == "high") d.high = v;
    else if (field == "mean") d.mean = v;
    else if (field == "stddev") d.stddev = v;
    else if (field == "value") d.value = v;
  }
  d.expressions.clear();
  return d;
}

std::map<std::string, double> Distribution::resolved_args(const Env& scalars) const {
  std::map<std::string, double> out;
  for (const auto& [name, e] : args) out[name] = e.eval(scalars);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing and validation

namespace {

using json = nlohmann::json;

// Limits that keep a hostile or broken file from costing more than a moment. Real specs are far below them: a spec
// nests 6 levels deep, has a handful of parameters of rank <= 4 and tens of cases.
constexpr std::size_t kMaxFileBytes = 16u << 20;
constexpr std::size_t kMaxJsonDepth = 64;
constexpr std::size_t kMaxParams = 64;
constexpr std::size_t kMaxRank = 8;
constexpr std::size_t kMaxCases = 1000;
constexpr double kMaxTimeout = 3600.0;
constexpr std::int64_t kMaxElements = std::int64_t{1} << 31;     // int32 indexing
constexpr std::int64_t kMaxDeviceBytes = std::int64_t{8} << 30;  // fits ordinary cards
constexpr std::string_view kRoot = "(root)";
constexpr double kTwoPow53 = 9007199254740992.0;
constexpr double kHalfMax = 65504.0;

constexpr std::string_view kKeywords[] = {
    "alignas",   "alignof",      "and",          "and_eq",    "asm",         "auto",          "bitand",
    "bitor",     "bool",         "break",        "case",      "catch",       "char",          "char8_t",
    "char16_t",  "char32_t",     "class",        "compl",     "concept",     "const",         "consteval",
    "constexpr", "constinit",    "const_cast",   "continue",  "co_await",    "co_return",     "co_yield",
    "decltype",  "default",      "delete",       "do",        "double",      "dynamic_cast",  "else",
    "enum",      "explicit",     "export",       "extern",    "false",       "float",         "for",
    "friend",    "goto",         "if",           "inline",    "int",         "long",          "mutable",
    "namespace", "new",          "noexcept",     "not",       "not_eq",      "nullptr",       "operator",
    "or",        "or_eq",        "private",      "protected", "public",      "register",      "reinterpret_cast",
    "requires",  "restrict",     "return",       "short",     "signed",      "sizeof",        "static",
    "static_assert", "static_cast", "struct",    "switch",    "template",    "this",          "thread_local",
    "throw",     "true",         "try",          "typedef",   "typeid",      "typename",      "union",
    "unsigned",  "using",        "virtual",      "void",      "volatile",    "wchar_t",       "while",
    "xor",       "xor_eq"};

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  auto start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!start(s[0])) return false;
  return std::all_of(s.begin() + 1, s.end(), [&](char c) { return start(c) || (c >= '0' && c <= '9'); });
}

bool all_chars_in(std::string_view s, std::string_view extra, bool upper) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
    return (c >= 'a' && c <= 'z') || (upper && c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           extra.find(c) != std::string_view::npos;
  });
}

std::string truncated(std::string_view s, std::size_t limit = 60) {
  if (s.size() <= limit) return std::string(s);
  return std::string(s.substr(0, limit)) + "...";
}

// JSON paths as users read them: params[2].shape[0], tests[1].scalars.N, tests[0].inputs["odd key"].
std::string child(std::string_view path, const std::string& key) {
  std::string k = is_identifier(key)
                      ? key
                      : "[" + json(truncated(key)).dump(-1, ' ', false, json::error_handler_t::replace) + "]";
  if (path == kRoot) return k;
  return std::string(path) + (k[0] == '[' ? "" : ".") + k;
}

std::string index(std::string_view path, std::size_t i) {
  return (path == kRoot ? std::string() : std::string(path)) + "[" + std::to_string(i) + "]";
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string join(std::initializer_list<std::string_view> items) {
  std::vector<std::string> v(items.begin(), items.end());
  return join(v);
}

// A value as a message shows it: scalars themselves, containers by kind (they may be huge).
std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case json::value_t::number_integer: return std::to_string(v.get<std::int64_t>());
    case json::value_t::number_unsigned: return std::to_string(v.get<std::uint64_t>());
    case json::value_t::number_float: return fmt::format("{}", v.get<double>());
    case json::value_t::string: return "'" + truncated(v.get_ref<const std::string&>()) + "'";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "a binary value";
  }
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// First pass over the text: JSON syntax (with the line and column of an error), nesting depth and repeated keys,
// which nlohmann's DOM would silently collapse to the last one. It builds nothing, so it is safe on any input.
class StructureCheck : public nlohmann::json_sax<json> {
 public:
  struct Failure {
    std::string path;
    std::string problem;
    std::optional<std::size_t> byte;  // set for syntax errors
  };
  std::optional<Failure> failure;

  bool null() override { return element(); }
  bool boolean(bool) override { return element(); }
  bool number_integer(number_integer_t) override { return element(); }
  bool number_unsigned(number_unsigned_t) override { return element(); }
  bool number_float(number_float_t, const string_t&) override { return element(); }
  bool string(string_t&) override { return element(); }
  bool binary(binary_t&) override { return element(); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& f = stack_.back();
    f.key = k;
    if (f.keys.insert(k).second) return true;
    failure = Failure{path(), "key '" + truncated(k) + "' appears twice in the same object; keep one", {}};
    return false;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    // ex.what() is "[json.exception.parse_error.101] parse error at line 1, column 5: <what went wrong>" (or
    // "[json.exception.out_of_range.406] number overflow ..."): keep the description; the position is recomputed
    // from the byte offset.
    std::string what = ex.what();
    if (what.compare(0, 1, "[") == 0 && what.find("] ") != std::string::npos) what = what.substr(what.find("] ") + 2);
    if (what.compare(0, 11, "parse error") == 0 && what.find(": ") != std::string::npos)
      what = what.substr(what.find(": ") + 2);
    failure = Failure{std::string(kRoot), what, position};
    return false;
  }

 private:
  struct Frame {
    bool object = false;
    std::set<std::string> keys;
    std::string key;
    std::size_t count = 0;
  };

  bool element() {
    if (!stack_.empty() && !stack_.back().object) ++stack_.back().count;
    return true;
  }

  bool open(bool object) {
    element();
    if (stack_.size() >= kMaxJsonDepth) {
      // Named by the top-level field it is in: the full path would be a line of 64 "[0]"s.
      failure = Failure{path(1), fmt::format("nested deeper than {} levels; a spec needs about 6", kMaxJsonDepth), {}};
      return false;
    }
    stack_.push_back(Frame{object, {}, {}, 0});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  // The path of the value being read: the current key or index of every open container (of the outermost `levels`).
  std::string path(std::size_t levels = kMaxJsonDepth) const {
    std::string p(kRoot);
    for (std::size_t i = 0; i < stack_.size() && i < levels; ++i) {
      const Frame& f = stack_[i];
      p = f.object ? child(p, f.key) : index(p, f.count == 0 ? 0 : f.count - 1);
    }
    return p;
  }

  std::vector<Frame> stack_;
};

std::string line_and_column(const std::string& text, std::size_t position) {
  // nlohmann counts bytes read, end of input included: the offending byte is the last one read.
  std::size_t offset = std::min(position == 0 ? 0 : position - 1, text.size());
  std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  std::size_t line_start = text.rfind('\n', offset == 0 ? std::string::npos : offset - 1);
  if (offset == 0) line_start = std::string::npos;
  std::size_t column = line_start == std::string::npos ? offset + 1 : offset - line_start;
  return fmt::format("line {}, column {}", line, column);
}

// What an input holds when its spec gives no init: uniform in [-1, 1) (integers: -1, 0 or 1; unsigned: 0 or 1).
Distribution default_distribution(DType t) {
  Distribution d;
  if (t == DType::uint8 || t == DType::uint32) d.low = 0;
  return d;
}

// Reads and validates the parsed document into a Challenge. Each check fails with the path of the field at fault.
class SpecReader {
 public:
  explicit SpecReader(std::filesystem::path file) : file_(std::move(file)) {}

  Challenge read(const json& root) {
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

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw SpecError(file_, path, problem);
  }

  // --- generic field access --------------------------------------------------------------------------------------

  void object(const json& v, const std::string& path) const {
    if (!v.is_object()) fail(path, "expected an object, got " + describe(v));
  }

  void check_keys(const json& obj, const std::string& path, std::initializer_list<std::string_view> allowed) const {
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

  static const json* optional(const json& obj, const std::string& key) {
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }

  const json& required(const json& obj, const std::string& path, const std::string& key) const {
    const json* v = optional(obj, key);
    if (v == nullptr) fail(child(path, key), fmt::format("missing required field '{}'", key));
    return *v;
  }

  std::string string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "expected a string, got " + describe(v));
    return v.get<std::string>();
  }

  std::string non_empty_string(const json& v, const std::string& path) const {
    std::string s = string(v, path);
    if (s.empty()) fail(path, "expected a non-empty string");
    return s;
  }

  // An optional true/false field; absent is false.
  bool optional_bool(const json& obj, const std::string& path, const std::string& key) const {
    const json* v = optional(obj, key);
    if (v == nullptr) return false;
    if (!v->is_boolean()) fail(child(path, key), "expected true or false, got " + describe(*v));
    return v->get<bool>();
  }

  std::string one_of(const json& v, const std::string& path, std::initializer_list<std::string_view> choices) const {
    std::string s = string(v, path);
    if (std::find(choices.begin(), choices.end(), s) == choices.end())
      fail(path, fmt::format("expected one of {}; got '{}'", join(choices), truncated(s)));
    return s;
  }

  double number(const json& v, const std::string& path) const {
    if (!v.is_number()) fail(path, "expected a number, got " + describe(v));
    double d = v.get<double>();
    if (!std::isfinite(d)) fail(path, "number out of range, got " + describe(v));
    return d;
  }

  double non_negative(const json& v, const std::string& path) const {
    double d = number(v, path);
    if (!(d >= 0)) fail(path, "expected a number >= 0, got " + describe(v));
    return d;
  }

  const json& array(const json& v, const std::string& path, const std::string& what, std::size_t limit) const {
    if (!v.is_array()) fail(path, fmt::format("expected a list of {}, got {}", what, describe(v)));
    if (v.empty()) fail(path, fmt::format("expected a non-empty list of {}", what));
    if (v.size() > limit) fail(path, fmt::format("{} {} given; the limit is {}", v.size(), what, limit));
    return v;
  }

  // An integer value of an integer dtype: integral (2.0 counts) and in the dtype's range (int64: |v| < 2^53, so the
  // double that carries it is exact).
  double integer_value(const json& v, const std::string& path, const std::string& what, DType t) const {
    double d = number(v, path);
    if (d != std::floor(d)) fail(path, fmt::format("expected an integer for {}, got {}", what, describe(v)));
    double lo = std::max(min_value(t), -kTwoPow53), hi = std::min(max_value(t), kTwoPow53);
    if (d < lo || d > hi)
      fail(path, fmt::format("expected an integer for {} in [{:.0f}, {:.0f}], got {}", what, lo, hi, describe(v)));
    return d == 0 ? 0.0 : d;  // no -0 in integer data
  }

  double int32_value(const json& v, const std::string& path, const std::string& what) const {
    return integer_value(v, path, what, DType::int32);
  }

  double float32_value(const json& v, const std::string& path, const std::string& what) const {
    double d = number(v, path);
    if (std::fabs(d) > FLT_MAX) fail(path, fmt::format("{} is out of float32 range, got {}", what, describe(v)));
    return d;
  }

  // A value of a parameter's dtype. Where allowed, floating values may be written "nan", "inf", "-inf", "-0".
  double element_value(const json& v, const std::string& path, const Param& p, bool special_strings) const {
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

  // --- parameters -------------------------------------------------------------------------------------------------

  void read_params(const json& v, Challenge& c) {
    array(v, "params", "parameters", kMaxParams);
    // Declarations first (names, roles, dtypes), then shapes and inits, which may name any scalar parameter.
    for (std::size_t i = 0; i < v.size(); ++i) c.params.push_back(declaration(v[i], index("params", i), c.params));
    for (std::size_t i = 0; i < v.size(); ++i) {
      std::string path = index("params", i);
      Param& p = c.params[i];
      if (const json* shape = optional(v[i], "shape")) {
        if (!p.is_buffer()) fail(child(path, "shape"), "a scalar has no shape; remove this field");
        std::string shape_path = child(path, "shape");
        array(*shape, shape_path, "dimension expressions (e.g. [\"M\", \"N\"])", kMaxRank);
        for (std::size_t d = 0; d < shape->size(); ++d)
          p.shape.push_back(expression((*shape)[d], index(shape_path, d), c));
      } else if (p.is_buffer()) {
        fail(child(path, "shape"), fmt::format("missing required field 'shape': a {} buffer needs its dimensions",
                                               to_string(p.role)));
      }
      if (const json* init = optional(v[i], "init")) {
        if (p.role == Role::scalar) fail(child(path, "init"), "a scalar has no init: each case's scalars give its value");
        p.init = distribution(*init, child(path, "init"), p, c);
        p.preset = p.role == Role::output;
      }
      const json* check = optional(v[i], "check");
      if (check != nullptr && check->is_object())
        if (const json* args = optional(*check, "args")) {
          std::string args_path = child(child(path, "check"), "args");
          object(*args, args_path);
          for (const auto& item : args->items()) {
            if (!is_identifier(item.key())) fail(child(args_path, item.key()), "expected an argument name (a C identifier)");
            p.check_args[item.key()] = expression(item.value(), child(args_path, item.key()), c);
          }
        }
    }
    if (std::none_of(c.params.begin(), c.params.end(),
                     [](const Param& p) { return p.role == Role::output || p.role == Role::inout; }))
      fail("params", "no output or inout parameter; solve() must write its result to at least one");
  }

  Param declaration(const json& v, const std::string& path, const std::vector<Param>& earlier) const {
    object(v, path);
    check_keys(v, path, {"name", "role", "dtype", "shape", "init", "check"});
    Param p;
    std::string name_path = child(path, "name");
    p.name = string(required(v, path, "name"), name_path);
    if (!is_identifier(p.name))
      fail(name_path, fmt::format("expected a C identifier (a letter or '_', then letters, digits or '_'), got '{}'",
                                  truncated(p.name)));
    if (std::find(std::begin(kKeywords), std::end(kKeywords), p.name) != std::end(kKeywords))
      fail(name_path, fmt::format("'{}' is a C/C++ keyword; choose another name", p.name));
    if (p.name.compare(0, 2, "__") == 0 || (p.name[0] == '_' && p.name.size() > 1 && p.name[1] >= 'A' &&
                                            p.name[1] <= 'Z'))
      fail(name_path, fmt::format("'{}' is reserved in C/C++ (names starting with '__' or '_' and a capital letter); "
                                  "choose another name",
                                  truncated(p.name)));
    for (std::size_t j = 0; j < earlier.size(); ++j)
      if (earlier[j].name == p.name)
        fail(name_path, fmt::format("duplicate parameter name '{}' (also params[{}].name)", p.name, j));

    std::string role = one_of(required(v, path, "role"), child(path, "role"), {"input", "output", "inout", "scalar"});
    p.role = role == "input" ? Role::input : role == "output" ? Role::output : role == "inout" ? Role::inout
                                                                                                  : Role::scalar;
    std::string dtype_path = child(path, "dtype");
    std::string dtype = string(required(v, path, "dtype"), dtype_path);
    auto parsed = parse_dtype(dtype);
    if (!parsed || *parsed == DType::float64)
      fail(dtype_path, fmt::format("expected one of {}; got '{}'", buffer_dtype_names(), truncated(dtype)));
    p.dtype = *parsed;
    if (p.role == Role::scalar && !is_scalar_dtype(p.dtype))
      fail(dtype_path, fmt::format("a scalar must be int32, int64 or float32; got '{}'", dtype));
    p.init = default_distribution(p.dtype);
    if (const json* check = optional(v, "check")) {
      std::string check_path = child(path, "check");
      if (p.role != Role::output && p.role != Role::inout)
        fail(check_path, fmt::format("only outputs and in-outs are checked; '{}' is {} {}", p.name,
                                     p.role == Role::input ? "an" : "a", to_string(p.role)));
      // "check": "name", or {"name": "name", "args": {...}}; the args are read with the inits (they may name any
      // scalar parameter).
      const json* name = check;
      if (check->is_object()) {
        check_keys(*check, check_path, {"name", "args"});
        name = &required(*check, check_path, "name");
        check_path = child(check_path, "name");
      }
      p.check = string(*name, check_path);
      if (!is_identifier(p.check))
        fail(check_path, fmt::format("expected the name of a checker (e.g. \"sorted_permutation\"), got '{}'",
                                     truncated(p.check)));
    }
    return p;
  }

  static std::vector<std::string> scalar_names(const Challenge& c) {
    std::vector<std::string> names;
    for (const auto& p : c.params)
      if (p.role == Role::scalar) names.push_back(p.name);
    return names;
  }

  // An expression over the scalar parameters: a string, or a plain number.
  Expr expression(const json& v, const std::string& path, const Challenge& c) const {
    std::string text;
    if (v.is_string())
      text = v.get<std::string>();
    else if (v.is_number())
      text = describe(v);
    else
      fail(path, "expected an expression string (e.g. \"2*M*N\"), got " + describe(v));
    Expr e;
    try {
      e = Expr::parse(text);
    } catch (const ExprError& err) {
      fail(path, err.what());
    }
    auto scalars = scalar_names(c);
    std::string allowed = scalars.empty() ? "there are none" : join(scalars);
    for (const auto& name : e.identifiers()) {
      if (std::find(scalars.begin(), scalars.end(), name) != scalars.end()) continue;
      if (c.find_param(name) != nullptr)
        fail(path, fmt::format("'{}' in expression '{}' is a buffer; expressions may use only scalar parameters ({})",
                               name, truncated(text), allowed));
      fail(path, fmt::format("unknown name '{}' in expression '{}'; expressions may use only scalar parameters ({})",
                             truncated(name), truncated(text), allowed));
    }
    return e;
  }

  // --- distributions and tolerances -------------------------------------------------------------------------------

  // A number field of a distribution: a number, or an expression of the scalars evaluated per case (stored in
  // d.expressions under `key`; the number stays at its default until resolved()).
  void number_or_expression(const json& v, const std::string& path, const char* key, double& out, Distribution& d,
                            const Param& p, const Challenge& c, bool element) const {
    bool special = v.is_string() && (v == "nan" || v == "inf" || v == "-inf" || v == "-0");
    if (v.is_string() && !special) {
      d.expressions[key] = expression(v, path, c);
      return;
    }
    out = element ? element_value(v, path, p, std::string_view(key) == "value") : float32_value(v, path, key);
  }

  Distribution distribution(const json& v, const std::string& path, const Param& p, const Challenge& c) const {
    object(v, path);
    check_keys(v, path, {"dist", "low", "high", "mean", "stddev", "value", "values", "name", "args", "draw",
                         "specials", "special_fraction"});
    Distribution d = default_distribution(p.dtype);
    std::string kind = one_of(required(v, path, "dist"), child(path, "dist"),
                              {"uniform", "normal", "constant", "values", "custom"});
    std::vector<std::string> fields;
    if (kind == "uniform") {
      d.kind = Distribution::Kind::uniform;
      fields = {"low", "high"};
    } else if (kind == "normal") {
      d.kind = Distribution::Kind::normal;
      fields = {"mean", "stddev"};
    } else if (kind == "constant") {
      d.kind = Distribution::Kind::constant;
      fields = {"value"};
    } else if (kind == "values") {
      d.kind = Distribution::Kind::values;
      fields = {"values"};
    } else {
      d.kind = Distribution::Kind::custom;
      fields = {"name", "low", "high", "args", "draw"};
    }
    fields.insert(fields.end(), {"dist", "specials", "special_fraction"});
    for (const auto& item : v.items())
      if (std::find(fields.begin(), fields.end(), item.key()) == fields.end())
        fail(child(path, item.key()), fmt::format("'{}' does not apply to dist '{}'; expected one of {}", item.key(),
                                                  kind, join(fields)));

    auto field = [&](const char* key) { return child(path, key); };
    switch (d.kind) {
      case Distribution::Kind::uniform:
      case Distribution::Kind::custom:
        if (const json* low = optional(v, "low")) number_or_expression(*low, field("low"), "low", d.low, d, p, c, true);
        if (const json* high = optional(v, "high"))
          number_or_expression(*high, field("high"), "high", d.high, d, p, c, true);
        if (d.kind == Distribution::Kind::custom) {
          d.custom = non_empty_string(required(v, path, "name"), field("name"));
          if (!is_identifier(d.custom))
            fail(field("name"), fmt::format("expected a generator name such as \"sorted\", got '{}'",
                                            truncated(d.custom)));
          if (const json* args = optional(v, "args")) {
            object(*args, field("args"));
            for (const auto& item : args->items()) {
              if (!is_identifier(item.key()))
                fail(child(field("args"), item.key()), "expected an argument name (a C identifier)");
              d.args[item.key()] = expression(item.value(), child(field("args"), item.key()), c);
            }
          }
          if (const json* draw = optional(v, "draw")) {
            d.draw = non_empty_string(*draw, field("draw"));
            if (!is_identifier(d.draw))
              fail(field("draw"), fmt::format("expected a draw name such as \"A\" (a C identifier), got '{}'",
                                              truncated(d.draw)));
          }
        }
        break;
      case Distribution::Kind::normal:
        if (const json* mean = optional(v, "mean"))
          number_or_expression(*mean, field("mean"), "mean", d.mean, d, p, c, false);
        if (const json* sd = optional(v, "stddev"))
          number_or_expression(*sd, field("stddev"), "stddev", d.stddev, d, p, c, false);
        break;
      case Distribution::Kind::constant:
        number_or_expression(required(v, path, "value"), field("value"), "value", d.value, d, p, c, true);
        break;
      case Distribution::Kind::values: {
        const json& values = array(required(v, path, "values"), field("values"), "values", kMaxFileBytes);
        for (std::size_t i = 0; i < values.size(); ++i)
          d.values.push_back(element_value(values[i], index(field("values"), i), p, true));
        break;
      }
    }

    if (const json* f = optional(v, "special_fraction")) {
      d.special_fraction = number(*f, field("special_fraction"));
      if (!(d.special_fraction >= 0 && d.special_fraction <= 1))
        fail(field("special_fraction"), "expected a number in [0, 1], got " + describe(*f));
    }
    if (const json* s = optional(v, "specials")) {
      if (!s->is_array()) fail(field("specials"), "expected a list of values, got " + describe(*s));
      for (std::size_t i = 0; i < s->size(); ++i)
        d.specials.push_back(element_value((*s)[i], index(field("specials"), i), p, true));
    }
    if (d.special_fraction > 0 && d.specials.empty())
      fail(field("specials"), optional(v, "specials") ? "expected a non-empty list when special_fraction > 0"
                                                      : "missing: special_fraction > 0 needs a list of specials");
    // Fixed numbers are checked now, at their own fields; expressions once per case (check_distribution).
    if (d.expressions.empty() && d.args.empty()) check_distribution(d, p, {}, path);
    return d;
  }

  // The resolved numbers of a distribution make sense for the parameter's dtype: a non-empty range inside the
  // dtype, a positive standard deviation. `scalars` resolves expression fields (a case's values).
  // `label` is set when the distribution is written elsewhere than `path` (a parameter's init resolved at a case's
  // scalars): errors then point at the case and name the field in the message.
  void check_distribution(const Distribution& given, const Param& p, const Env& scalars, const std::string& path,
                          const std::string& label = {}) const {
    Distribution d;
    try {
      d = given.resolved(scalars);
      (void)given.resolved_args(scalars);
    } catch (const ExprError& e) {
      fail(path, label + e.what());
    }
    auto field = [&](const char* key) { return label.empty() ? child(path, key) : path; };
    auto fail = [&](const std::string& at, const std::string& problem) { this->fail(at, label + problem); };
    auto within = [&](double x, const char* key) {
      if (is_floating(p.dtype)) {
        double limit = p.dtype == DType::float16 ? kHalfMax : FLT_MAX;
        if (std::fabs(x) > limit)
          fail(field(key), fmt::format("{} = {} is out of {} range", key, x, to_string(p.dtype)));
        return;
      }
      if (x < min_value(p.dtype) || x > max_value(p.dtype))
        fail(field(key), fmt::format("{} = {} is out of {} range [{:.0f}, {:.0f}]", key, x, to_string(p.dtype),
                                     std::max(min_value(p.dtype), -kTwoPow53), std::min(max_value(p.dtype), kTwoPow53)));
    };
    switch (d.kind) {
      case Distribution::Kind::uniform:
      case Distribution::Kind::custom: {
        within(d.low, "low");
        within(d.high, "high");
        bool ok = is_floating(p.dtype) ? d.low < d.high : d.low <= d.high;
        if (!ok)
          fail(field("high"), fmt::format("expected high {} low, got low {} and high {}",
                                          is_floating(p.dtype) ? ">" : ">=", d.low, d.high));
        break;
      }
      case Distribution::Kind::normal:
        if (!(d.stddev > 0)) fail(field("stddev"), fmt::format("expected a standard deviation > 0, got {}", d.stddev));
        break;
      case Distribution::Kind::constant:
        if (!std::isnan(d.value) && !std::isinf(d.value)) within(d.value, "value");
        break;
      case Distribution::Kind::values:
        break;
    }
  }

  Tolerance tolerance(const json& v, const std::string& path) const {
    object(v, path);
    check_keys(v, path, {"exact", "atol", "rtol", "rel_norm"});
    Tolerance t;
    if (const json* norm = optional(v, "rel_norm")) {
      for (const char* other : {"exact", "atol", "rtol"})
        if (optional(v, other))
          fail(child(path, other), "not allowed with \"rel_norm\": give either rel_norm, exact, or atol/rtol");
      t.rel_norm = number(*norm, child(path, "rel_norm"));
      if (!(t.rel_norm > 0 && t.rel_norm < 1))
        fail(child(path, "rel_norm"), "expected a relative norm bound in (0, 1), e.g. 1e-3, got " + describe(*norm));
      return t;
    }
    if (const json* exact = optional(v, "exact")) {
      if (!exact->is_boolean()) fail(child(path, "exact"), "expected true or false, got " + describe(*exact));
      t.exact = exact->get<bool>();
    }
    const json* atol = optional(v, "atol");
    const json* rtol = optional(v, "rtol");
    if (t.exact) {
      if (atol || rtol)
        fail(child(path, atol ? "atol" : "rtol"), "not allowed with \"exact\": true; give either exact or atol/rtol");
      return t;
    }
    if (!atol && !rtol)
      fail(path, "expected {\"atol\": a, \"rtol\": r} (one of them may be left out, meaning 0), {\"exact\": true} or "
                 "{\"rel_norm\": r}");
    if (atol) t.atol = non_negative(*atol, child(path, "atol"));
    if (rtol) t.rtol = non_negative(*rtol, child(path, "rtol"));
    return t;
  }

  // --- cases ------------------------------------------------------------------------------------------------------

  std::vector<Case> cases(const json& v, const std::string& path, const Challenge& c) {
    array(v, path, "cases", kMaxCases);
    std::vector<Case> out;
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(read_case(v[i], index(path, i), c));
    return out;
  }

  // Verdicts and scores rest on graded cases: each list needs one, and LeetGPU's performance case is one of them.
  void check_graded_cases(const Challenge& c) const {
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

  Case read_case(const json& v, const std::string& path, const Challenge& c) {
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

  // Shapes, cost expressions and device memory for one case's scalars. Reported at the case's scalars: those are
  // what make an otherwise valid expression go wrong.
  void check_sizes(const Challenge& c, const Case& k, const std::string& scalars_path) const {
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

  // A graded case keeps every constraint; a stress case breaks at least one, or names in `beyond` the promise about
  // values it exceeds. Its `beyond` then says which, in the words the judge prints.
  void check_constraints(const Challenge& c, Case& k, const std::string& path, const std::string& beyond) const {
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

  void cost(const Expr& e, const char* field, const Case& k, const std::string& scalars_path) const {
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

  std::filesystem::path file_;
  std::map<std::string, std::string> case_names_;  // name -> path of its first use, across tests and benchmarks
};

}  // namespace

Challenge parse_challenge(const std::string& json_text, const std::filesystem::path& file) {
  const std::string root(kRoot);
  if (json_text.size() > kMaxFileBytes)
    throw SpecError(file, root, fmt::format("the file is {} bytes; a spec must be under {} MiB", json_text.size(),
                                            kMaxFileBytes >> 20));
  // Whatever the text, only SpecError leaves: anything else escaping here would be a bug in this file, reported
  // as one rather than as a crash of the judge.
  try {
    StructureCheck check;
    bool ok = json::sax_parse(json_text, &check);
    if (!ok || check.failure) {
      if (!check.failure) throw SpecError(file, root, "invalid JSON");
      const auto& f = *check.failure;
      if (f.byte)
        throw SpecError(file, f.path,
                        fmt::format("invalid JSON at {}: {}", line_and_column(json_text, *f.byte), f.problem));
      throw SpecError(file, f.path, f.problem);
    }
    json document = json::parse(json_text);
    Challenge c = SpecReader(file).read(document);
    c.spec_path = file;
    c.dir = file.parent_path();
    return c;
  } catch (const SpecError&) {
    throw;
  } catch (const std::exception& e) {
    throw SpecError(file, root, std::string("internal error while reading the spec (please report it): ") + e.what());
  } catch (...) {
    throw SpecError(file, root, "internal error while reading the spec (please report it)");
  }
}

Challenge load_challenge(const std::filesystem::path& dir) {
  const std::filesystem::path spec = dir / "spec.json";
  const std::string root(kRoot);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(spec, ec)) {
    if (std::filesystem::exists(spec, ec)) throw SpecError(spec, root, "exists but is not a regular file");
    throw SpecError(spec, root,
                    "no such file; every challenge folder needs a spec.json describing solve()'s parameters, cases "
                    "and tolerance (see docs/spec-format.md)");
  }
  std::ifstream in(spec, std::ios::binary);
  if (!in) throw SpecError(spec, root, "cannot open the file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw SpecError(spec, root, "cannot read the file");

  Challenge c = parse_challenge(text.str(), spec);
  c.dir = dir;
  c.spec_path = spec;
  // "challenges/x/", "." and "challenges/x" all name folder x.
  std::filesystem::path folder = std::filesystem::absolute(dir, ec).lexically_normal();
  if (!folder.has_filename()) folder = folder.parent_path();
  if (c.id != folder.filename().string())
    throw SpecError(spec, "id",
                    fmt::format("'{}' does not match the folder name '{}'; the id must equal the folder name", c.id,
                                folder.filename().string()));
  return c;
}

}  // namespace judge
