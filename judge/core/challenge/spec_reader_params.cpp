// Parameters, expressions, distributions and tolerances (SpecReader, spec_reader.hpp).
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

void SpecReader::read_params(const json& v, Challenge& c) {
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
          if (!is_identifier(item.key()))
            fail(child(args_path, item.key()), "expected an argument name (a C identifier)");
          p.check_args[item.key()] = expression(item.value(), child(args_path, item.key()), c);
        }
      }
  }
  if (std::none_of(c.params.begin(), c.params.end(),
                   [](const Param& p) { return p.role == Role::output || p.role == Role::inout; }))
    fail("params", "no output or inout parameter; solve() must write its result to at least one");
}

Param SpecReader::declaration(const json& v, const std::string& path, const std::vector<Param>& earlier) const {
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

std::vector<std::string> SpecReader::scalar_names(const Challenge& c) {
  std::vector<std::string> names;
  for (const auto& p : c.params)
    if (p.role == Role::scalar) names.push_back(p.name);
  return names;
}

Expr SpecReader::expression(const json& v, const std::string& path, const Challenge& c) const {
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

void SpecReader::number_or_expression(const json& v, const std::string& path, const char* key, double& out,
                                      Distribution& d, const Param& p, const Challenge& c, bool element) const {
  bool special = v.is_string() && (v == "nan" || v == "inf" || v == "-inf" || v == "-0");
  if (v.is_string() && !special) {
    d.expressions[key] = expression(v, path, c);
    return;
  }
  out = element ? element_value(v, path, p, std::string_view(key) == "value") : float32_value(v, path, key);
}

Distribution SpecReader::distribution(const json& v, const std::string& path, const Param& p,
                                      const Challenge& c) const {
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

void SpecReader::check_distribution(const Distribution& given, const Param& p, const Env& scalars,
                                    const std::string& path, const std::string& label) const {
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

Tolerance SpecReader::tolerance(const json& v, const std::string& path) const {
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

}  // namespace judge::spec_json
