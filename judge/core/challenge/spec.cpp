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

#include "judge/core/challenge/spec_reader.hpp"

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

using namespace spec_json;

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
