// Challenge specs: a valid spec's derived values, and one test per validation rule of docs/spec-format.md, each
// checking that the error names the file and the exact JSON path of the field at fault.
#include "judge/core/challenge/spec.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace {

using judge::Challenge;
using judge::Distribution;
using judge::DType;
using judge::Role;
using judge::SpecError;
using json = nlohmann::json;

const char* const kFile = "challenges/demo/spec.json";

// Exercises every role and both dtypes; tests[1] overrides inputs and tolerance.
const char* const kBase = R"({
  "id": "demo",
  "title": "Demo",
  "difficulty": "medium",
  "summary": "C = alpha * A x B, and a histogram H",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["M", "N"],
     "init": {"dist": "uniform", "low": -2, "high": 2}},
    {"name": "B", "role": "input", "dtype": "float32", "shape": ["N", "K"]},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["M", "K"]},
    {"name": "H", "role": "inout", "dtype": "int32", "shape": ["16"], "init": {"dist": "constant", "value": 0}},
    {"name": "M", "role": "scalar", "dtype": "int32"},
    {"name": "N", "role": "scalar", "dtype": "int32"},
    {"name": "K", "role": "scalar", "dtype": "int32"},
    {"name": "alpha", "role": "scalar", "dtype": "float32"}
  ],
  "tolerance": {"atol": 1e-4, "rtol": 1e-3},
  "flops": "2*M*N*K",
  "timeout_s": 5,
  "tests": [
    {"name": "1x1x1", "scalars": {"M": 1, "N": 1, "K": 1, "alpha": 1.0}, "note": "smallest case"},
    {"name": "odd_33x17x65", "scalars": {"M": 33, "N": 17, "K": 65, "alpha": 0.5},
     "inputs": {"A": {"dist": "normal", "mean": 1, "stddev": 2},
                "H": {"dist": "values", "values": [1, 2, 3]}},
     "tolerance": {"exact": true}}
  ],
  "benchmarks": [
    {"name": "1024", "scalars": {"M": 1024, "N": 1024, "K": 1024, "alpha": 2}}
  ]
})";

json base() { return json::parse(kBase); }

Challenge parse(const json& j) { return judge::parse_challenge(j.dump(), kFile); }

// The SpecError that parsing `text` throws; fails the test if there is none.
std::optional<SpecError> error_of(const std::string& text) {
  try {
    judge::parse_challenge(text, kFile);
  } catch (const SpecError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a SpecError";
  return std::nullopt;
}

void expect_error(const std::string& text, const std::string& path, const std::string& fragment) {
  auto e = error_of(text);
  if (!e) return;
  std::string message = e->what();
  EXPECT_EQ(e->json_path(), path) << message;
  EXPECT_NE(message.find(std::string(kFile) + ": " + path + ": "), std::string::npos) << message;
  EXPECT_NE(message.find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << message;
}

// ---------------------------------------------------------------------------------------------------------------
// A valid spec

TEST(Spec, ValidSpecFields) {
  Challenge c = parse(base());
  EXPECT_EQ(c.id, "demo");
  EXPECT_EQ(c.title, "Demo");
  EXPECT_EQ(c.difficulty, "medium");
  EXPECT_EQ(c.spec_path, kFile);
  EXPECT_EQ(c.dir, "challenges/demo");
  EXPECT_EQ(c.statement_path(), "challenges/demo/statement.md");
  EXPECT_EQ(c.timeout_s, 5.0);
  ASSERT_EQ(c.params.size(), 8u);
  EXPECT_EQ(c.params[3].role, Role::inout);
  EXPECT_EQ(c.params[3].dtype, DType::int32);
  EXPECT_FALSE(c.params[4].is_buffer());
  EXPECT_TRUE(c.params[4].shape.empty());
  EXPECT_EQ(c.params[0].shape[1].text(), "N");
  EXPECT_FALSE(c.tolerance.exact);
  EXPECT_EQ(c.tolerance.atol, 1e-4);
  EXPECT_EQ(c.tolerance.rtol, 1e-3);
  ASSERT_EQ(c.tests.size(), 2u);
  ASSERT_EQ(c.benchmarks.size(), 1u);
  EXPECT_EQ(c.tests[0].note, "smallest case");
  EXPECT_EQ(c.tests[1].scalars.at("alpha"), 0.5);
  EXPECT_FALSE(c.bytes.has_value());
  EXPECT_EQ(c.find_param("K"), &c.params[6]);
  EXPECT_EQ(c.find_param("Z"), nullptr);
}

TEST(Spec, Signature) {
  EXPECT_EQ(parse(base()).signature(),
            "extern \"C\" void solve(const float* A, const float* B, float* C, int* H, int M, int N, int K, "
            "float alpha)");
}

TEST(Spec, SizesAndCosts) {
  Challenge c = parse(base());
  const judge::Env& s = c.tests[1].scalars;  // M=33, N=17, K=65
  EXPECT_EQ(c.element_count(c.params[0], s), 33 * 17);
  EXPECT_EQ(c.element_count(c.params[2], s), 33 * 65);
  EXPECT_EQ(c.element_count(c.params[3], s), 16);
  EXPECT_EQ(c.flops_for(s), 2.0 * 33 * 17 * 65);
  // Default bytes: inputs read once, outputs written once, in-outs both.
  EXPECT_EQ(c.bytes_for(s), 4.0 * (33 * 17 + 17 * 65 + 33 * 65) + 2 * 4.0 * 16);

  json j = base();
  j["bytes"] = "4*(M*N + N*K + M*K)";
  Challenge explicit_bytes = parse(j);
  ASSERT_TRUE(explicit_bytes.bytes.has_value());
  EXPECT_EQ(explicit_bytes.bytes_for(s), 4.0 * (33 * 17 + 17 * 65 + 33 * 65));
}

TEST(Spec, DistributionAndToleranceOverrides) {
  Challenge c = parse(base());
  const auto& a = c.params[0];
  const auto& b = c.params[1];
  const auto& h = c.params[3];
  // tests[0]: the parameters' own distributions.
  EXPECT_EQ(c.distribution_for(a, c.tests[0]).kind, Distribution::Kind::uniform);
  EXPECT_EQ(c.distribution_for(a, c.tests[0]).low, -2.0);
  EXPECT_EQ(c.distribution_for(h, c.tests[0]).kind, Distribution::Kind::constant);
  EXPECT_EQ(c.distribution_for(b, c.tests[0]).low, -1.0);  // default uniform [-1, 1)
  EXPECT_EQ(c.distribution_for(b, c.tests[0]).high, 1.0);
  EXPECT_EQ(&c.tolerance_for(c.tests[0]), &c.tolerance);
  // tests[1]: overridden.
  EXPECT_EQ(c.distribution_for(a, c.tests[1]).kind, Distribution::Kind::normal);
  EXPECT_EQ(c.distribution_for(a, c.tests[1]).mean, 1.0);
  EXPECT_EQ(c.distribution_for(a, c.tests[1]).stddev, 2.0);
  EXPECT_EQ(c.distribution_for(h, c.tests[1]).values, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(c.distribution_for(b, c.tests[1]).kind, Distribution::Kind::uniform);
  EXPECT_TRUE(c.tolerance_for(c.tests[1]).exact);
}

TEST(Spec, DefaultsAndOptionalFields) {
  json j = base();
  j.erase("timeout_s");
  j["tests"][0].erase("note");
  Challenge c = parse(j);
  EXPECT_EQ(c.timeout_s, 10.0);
  EXPECT_EQ(c.tests[0].note, "");
  EXPECT_FALSE(c.tests[0].tolerance.has_value());
}

TEST(Spec, SpecialValuesAndIntegers) {
  json j = base();
  j["params"][0]["init"] = json::parse(
      R"({"dist": "values", "values": ["nan", "inf", "-inf", "-0", 1.5], "specials": ["nan", 7], "special_fraction": 0.25})");
  j["params"][3]["init"] = json::parse(R"({"dist": "uniform", "low": 3, "high": 3, "specials": ["-0", 2147483647],
                                          "special_fraction": 1})");
  j["tests"][0]["scalars"]["M"] = 2.0;  // an integral float is an integer
  Challenge c = parse(j);
  const auto& v = c.params[0].init.values;
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], INFINITY);
  EXPECT_EQ(v[2], -INFINITY);
  EXPECT_EQ(v[3], 0.0);
  EXPECT_TRUE(std::signbit(v[3]));
  EXPECT_EQ(v[4], 1.5);
  EXPECT_EQ(c.params[0].init.special_fraction, 0.25);
  EXPECT_EQ(c.params[3].init.specials, (std::vector<double>{0, 2147483647}));
  EXPECT_FALSE(std::signbit(c.params[3].init.specials[0]));
  EXPECT_EQ(c.tests[0].scalars.at("M"), 2.0);
}

TEST(Spec, NumbersAsExpressionsAndZeroSizedBuffers) {
  json j = base();
  j["params"][3]["shape"] = json::array({16, "M-1"});
  j["flops"] = 0;
  Challenge c = parse(j);  // tests[0] has M = 1: H is empty, which is allowed
  EXPECT_EQ(c.element_count(c.params[3], c.tests[0].scalars), 0);
  EXPECT_EQ(c.flops_for(c.tests[0].scalars), 0.0);
}

TEST(Spec, DeviceMemoryAtTheLimitIsAccepted) {
  json j = base();
  // A, B, C: 2^28 floats = 1 GiB each; with the reference's copy of C that is 4 GiB plus H's 128 bytes.
  j["benchmarks"][0]["scalars"] = json::parse(R"({"M": 16384, "N": 16384, "K": 16384, "alpha": 1})");
  EXPECT_NO_THROW(parse(j));
}

// Version 2 of the format: every new field parsed, and expression fields resolved per case.
TEST(Spec, Version2Fields) {
  json j = base();
  j["constraints"] = {"M >= 1 && N >= 1", "K % 1 == 0"};
  j["params"][0]["dtype"] = "float16";
  j["params"][1]["init"] = {{"dist", "custom"}, {"name", "sparse"}, {"low", -10}, {"high", 10},
                            {"args", {{"nnz", "N*K/2"}}}};
  j["params"][2]["check"] = "topk";
  j["params"][3]["dtype"] = "uint8";
  j["params"][3]["init"] = {{"dist", "uniform"}, {"low", 0}, {"high", "min(255, M + 1)"}};
  j["params"][7]["dtype"] = "int64";
  j["params"][7]["name"] = "big";
  j["tests"][0]["scalars"] = {{"M", 1}, {"N", 1}, {"K", 1}, {"big", 4000000000.0}};
  j["tests"][1]["scalars"] = {{"M", 33}, {"N", 17}, {"K", 65}, {"big", -5}};
  j["tests"][1].erase("inputs");
  j["benchmarks"][0]["scalars"] = {{"M", 1024}, {"N", 1024}, {"K", 1024}, {"big", 1}};
  j["tolerance"] = {{"rel_norm", 1e-3}};
  Challenge c = parse(j);
  ASSERT_EQ(c.constraints.size(), 2u);
  EXPECT_EQ(c.params[0].dtype, DType::float16);
  EXPECT_EQ(c.params[2].check, "topk");
  EXPECT_EQ(c.params[3].dtype, DType::uint8);
  EXPECT_EQ(c.params[7].dtype, DType::int64);
  EXPECT_DOUBLE_EQ(c.tests[0].scalars.at("big"), 4000000000.0);
  EXPECT_DOUBLE_EQ(c.tolerance.rel_norm, 1e-3);
  EXPECT_TRUE(c.tolerance.norm());
  EXPECT_EQ(c.signature(),
            "extern \"C\" void solve(const half* A, const float* B, float* C, unsigned char* H, int M, int N, int K, "
            "long long big)");
  const Distribution& h = c.params[3].init;
  EXPECT_EQ(h.expressions.count("high"), 1u);
  EXPECT_DOUBLE_EQ(h.resolved(c.tests[1].scalars).high, 34);
  EXPECT_DOUBLE_EQ(h.resolved(c.benchmarks[0].scalars).high, 255);
  const Distribution& b = c.params[1].init;
  EXPECT_EQ(b.kind, Distribution::Kind::custom);
  EXPECT_EQ(b.custom, "sparse");
  EXPECT_DOUBLE_EQ(b.low, -10);
  EXPECT_DOUBLE_EQ(b.resolved_args(c.tests[1].scalars).at("nnz"), 17 * 65 / 2.0);
  // bytes: a float16 input moves 2 bytes an element, a uint8 in-out 1 byte each way.
  EXPECT_DOUBLE_EQ(c.bytes_for(c.tests[1].scalars), 2.0 * 33 * 17 + 4.0 * 17 * 65 + 4.0 * 33 * 65 + 2.0 * 16);
}

// Coupled buffers share a draw; a checker may take arguments, expressions of the scalars.
TEST(Spec, DrawAndCheckerArguments) {
  json j = base();
  j["params"][1]["init"] = {{"dist", "custom"}, {"name", "csr_col_idx"}, {"draw", "A_csr"},
                            {"args", {{"rows", "M"}, {"cols", "K"}, {"nnz", "N"}}}};
  j["params"][2]["check"] = {{"name", "statistical"}, {"args", {{"sigma", "alpha * 2"}, {"samples", "M*N"}}}};
  Challenge c = parse(j);
  EXPECT_EQ(c.params[1].init.draw, "A_csr");
  EXPECT_EQ(c.params[0].init.draw, "");
  EXPECT_EQ(c.params[2].check, "statistical");
  ASSERT_EQ(c.params[2].check_args.size(), 2u);
  EXPECT_DOUBLE_EQ(c.params[2].check_args.at("samples").eval(c.tests[1].scalars), 33.0 * 17);
  EXPECT_DOUBLE_EQ(c.params[2].check_args.at("sigma").eval(c.tests[1].scalars), 1.0);
}

// LeetGPU zeroes some outputs before the call; a spec says so with an init on the output.
TEST(Spec, OutputWithInitIsPreset) {
  json j = base();
  j["params"][2]["init"] = {{"dist", "constant"}, {"value", 0}};
  Challenge c = parse(j);
  EXPECT_TRUE(c.params[2].preset);
  EXPECT_FALSE(c.params[0].preset);
  EXPECT_EQ(c.params[2].init.kind, Distribution::Kind::constant);
}

TEST(Spec, UnsignedBuffersDefaultToNonNegativeValues) {
  json j = base();
  j["params"][3]["dtype"] = "uint32";
  j["params"][3].erase("init");
  Challenge c = parse(j);
  EXPECT_DOUBLE_EQ(c.params[3].init.low, 0);
  EXPECT_DOUBLE_EQ(c.params[3].init.high, 1);
}

TEST(Spec, ToString) {
  EXPECT_EQ(judge::to_string(Role::input), "input");
  EXPECT_EQ(judge::to_string(Role::output), "output");
  EXPECT_EQ(judge::to_string(Role::inout), "inout");
  EXPECT_EQ(judge::to_string(Role::scalar), "scalar");
  EXPECT_EQ(judge::to_string(Distribution::Kind::uniform), "uniform");
  EXPECT_EQ(judge::to_string(Distribution::Kind::normal), "normal");
  EXPECT_EQ(judge::to_string(Distribution::Kind::constant), "constant");
  EXPECT_EQ(judge::to_string(Distribution::Kind::values), "values");
  EXPECT_EQ(judge::to_string(Distribution::Kind::custom), "custom");
}

TEST(DType, NamesSizesAndCTypes) {
  struct Row {
    DType t;
    const char* name;
    const char* c;
    std::size_t size;
    bool floating;
  };
  // C spellings are LeetGPU's (half, unsigned char), so signatures read as its starters do.
  for (const Row& r : {Row{DType::float32, "float32", "float", 4, true}, Row{DType::float16, "float16", "half", 2, true},
                       Row{DType::bfloat16, "bfloat16", "__nv_bfloat16", 2, true},
                       Row{DType::int32, "int32", "int", 4, false}, Row{DType::int8, "int8", "int8_t", 1, false},
                       Row{DType::uint8, "uint8", "unsigned char", 1, false},
                       Row{DType::uint32, "uint32", "unsigned int", 4, false},
                       Row{DType::int64, "int64", "long long", 8, false},
                       Row{DType::float64, "float64", "double", 8, true}}) {
    EXPECT_EQ(judge::to_string(r.t), r.name);
    EXPECT_EQ(judge::c_type(r.t), r.c);
    EXPECT_EQ(judge::size_of(r.t), r.size);
    EXPECT_EQ(judge::is_floating(r.t), r.floating);
    EXPECT_EQ(judge::parse_dtype(r.name), r.t);
  }
  EXPECT_FALSE(judge::parse_dtype("float").has_value());
  EXPECT_FALSE(judge::parse_dtype("").has_value());
}

// ---------------------------------------------------------------------------------------------------------------
// Errors in the text itself

TEST(SpecSyntax, InvalidJsonGivesLineAndColumn) {
  expect_error("{\n  \"id\": \"demo\",\n  \"title\": tru\n}", "(root)", "invalid JSON at line 3, column 15");
  expect_error("{\n  \"id\": \"demo\",\n}", "(root)", "invalid JSON at line 3, column 1");
  expect_error("", "(root)", "invalid JSON at line 1, column 1");
  expect_error("{\"id\": \"demo\"", "(root)", "invalid JSON at line 1, column 14");
  expect_error("{} x", "(root)", "invalid JSON at line 1, column 4");
  expect_error("{\"id\": NaN}", "(root)", "invalid JSON at line 1, column 8");
  // Numbers beyond double range are refused by the JSON reader itself, so no field ever sees an infinity.
  expect_error("{\"timeout_s\": -1e999}", "(root)", "invalid JSON at line 1, column 20: number overflow parsing '-1e999'");
}

TEST(SpecSyntax, DuplicateKeys) {
  expect_error(R"({"id": "demo", "id": "demo"})", "id", "key 'id' appears twice in the same object");
  expect_error(R"({"params": [{"name": "A"}, {"name": "B", "name": "C"}]})", "params[1].name",
               "key 'name' appears twice");
}

TEST(SpecSyntax, DeepNesting) {
  // Named by the top-level field the nesting starts in.
  expect_error(std::string(100000, '['), "[0]", "nested deeper than 64 levels");
  expect_error(R"({"title": )" + std::string(1000, '[') + std::string(1000, ']') + "}", "title",
               "nested deeper than 64 levels");
}

TEST(SpecSyntax, RootMustBeAnObject) { expect_error("[1, 2]", "(root)", "expected an object, got an array"); }

TEST(SpecSyntax, OddKeysArePrintedQuoted) {
  json j = base();
  j["a b"] = 1;
  expect_error(j.dump(), "[\"a b\"]", "unknown field 'a b'");
  j = base();
  j["tests"][0]["scalars"]["x.y"] = 1;
  expect_error(j.dump(), "tests[0].scalars[\"x.y\"]", "'x.y' is not a scalar parameter");
}

// ---------------------------------------------------------------------------------------------------------------
// One test per validation rule: an edit of the valid base spec, the path the error must name, and a fragment of
// the problem it must state.

struct Edit {
  std::string pointer;        // JSON pointer into the base spec
  std::optional<json> value;  // nullopt: remove the field
};

struct Rule {
  std::string name;
  std::vector<Edit> edits;
  std::string path;
  std::string fragment;
};

std::ostream& operator<<(std::ostream& os, const Rule& r) { return os << r.name; }

json apply(json j, const std::vector<Edit>& edits) {
  for (const auto& e : edits) {
    json::json_pointer ptr(e.pointer);
    if (e.value) {
      j[ptr] = *e.value;
    } else {
      json& parent = j[ptr.parent_pointer()];
      if (parent.is_object())
        parent.erase(ptr.back());
      else
        parent.erase(static_cast<std::size_t>(std::stoul(ptr.back())));
    }
  }
  return j;
}

json J(const char* text) { return json::parse(text); }

json many(std::size_t n, const json& item) { return json(std::vector<json>(n, item)); }

json many_params(std::size_t n) {
  json params = base()["params"];
  for (std::size_t i = params.size(); i < n; ++i) params.push_back({{"name", "P" + std::to_string(i)}, {"role", "scalar"}, {"dtype", "int32"}});
  return params;
}

json many_cases(std::size_t n) {
  json cases = json::array();
  for (std::size_t i = 0; i < n; ++i)
    cases.push_back({{"name", "c" + std::to_string(i)}, {"scalars", base()["tests"][0]["scalars"]}});
  return cases;
}

const std::optional<json> kRemove;

// clang-format off
const std::vector<Rule> kRules = {
  // The document and its top-level fields
  {"UnknownRootField", {{"/titel", J("1")}}, "titel", "unknown field 'titel' (did you mean 'title'?); expected one of id, title,"},
  {"MissingId", {{"/id", kRemove}}, "id", "missing required field 'id'"},
  {"MissingTitle", {{"/title", kRemove}}, "title", "missing required field 'title'"},
  {"MissingDifficulty", {{"/difficulty", kRemove}}, "difficulty", "missing required field 'difficulty'"},
  {"MissingSummary", {{"/summary", kRemove}}, "summary", "missing required field 'summary'"},
  {"MissingParams", {{"/params", kRemove}}, "params", "missing required field 'params'"},
  {"MissingTolerance", {{"/tolerance", kRemove}}, "tolerance", "missing required field 'tolerance'"},
  {"MissingFlops", {{"/flops", kRemove}}, "flops", "missing required field 'flops'"},
  {"MissingTests", {{"/tests", kRemove}}, "tests", "missing required field 'tests'"},
  {"MissingBenchmarks", {{"/benchmarks", kRemove}}, "benchmarks", "missing required field 'benchmarks'"},
  {"IdNotAString", {{"/id", J("5")}}, "id", "expected a string, got 5"},
  {"IdPattern", {{"/id", J(R"("Demo-1")")}}, "id", "expected lowercase letters, digits and '_' only ([a-z0-9_]+), got 'Demo-1'"},
  {"IdEmpty", {{"/id", J(R"("")")}}, "id", "([a-z0-9_]+), got ''"},
  {"TitleEmpty", {{"/title", J(R"("")")}}, "title", "expected a non-empty string"},
  {"TitleNotAString", {{"/title", J("[]")}}, "title", "expected a string, got an array"},
  {"DifficultyChoice", {{"/difficulty", J(R"("Easy")")}}, "difficulty", "expected one of easy, medium, hard; got 'Easy'"},
  {"SummaryOneLine", {{"/summary", J(R"("two\nlines")")}}, "summary", "expected one line"},
  {"TimeoutZero", {{"/timeout_s", J("0")}}, "timeout_s", "expected seconds in (0, 3600], got 0"},
  {"TimeoutTooLong", {{"/timeout_s", J("3601")}}, "timeout_s", "expected seconds in (0, 3600], got 3601"},
  {"TimeoutNotANumber", {{"/timeout_s", J(R"("10")")}}, "timeout_s", "expected a number, got '10'"},

  // Parameters
  {"ParamsNotAList", {{"/params", J("{}")}}, "params", "expected a list of parameters, got an object"},
  {"ParamsEmpty", {{"/params", J("[]")}}, "params", "expected a non-empty list of parameters"},
  {"ParamsTooMany", {{"/params", many_params(65)}}, "params", "65 parameters given; the limit is 64"},
  {"ParamNotAnObject", {{"/params/1", J(R"("B")")}}, "params[1]", "expected an object, got 'B'"},
  {"ParamUnknownField", {{"/params/1/shpae", J("[]")}}, "params[1].shpae", "unknown field 'shpae' (did you mean 'shape'?)"},
  {"ParamMissingName", {{"/params/0/name", kRemove}}, "params[0].name", "missing required field 'name'"},
  {"ParamNameNotIdentifier", {{"/params/0/name", J(R"("2A")")}}, "params[0].name", "expected a C identifier"},
  {"ParamNameKeyword", {{"/params/0/name", J(R"("float")")}}, "params[0].name", "'float' is a C/C++ keyword"},
  {"ParamNameReserved", {{"/params/0/name", J(R"("__A")")}}, "params[0].name", "'__A' is reserved in C/C++"},
  {"ParamNameReservedCapital", {{"/params/0/name", J(R"("_Bool")")}}, "params[0].name", "'_Bool' is reserved in C/C++"},
  {"ParamNameDuplicate", {{"/params/1/name", J(R"("A")")}}, "params[1].name", "duplicate parameter name 'A' (also params[0].name)"},
  {"ParamMissingRole", {{"/params/2/role", kRemove}}, "params[2].role", "missing required field 'role'"},
  {"ParamRoleChoice", {{"/params/2/role", J(R"("ouput")")}}, "params[2].role", "expected one of input, output, inout, scalar; got 'ouput'"},
  {"ParamMissingDtype", {{"/params/2/dtype", kRemove}}, "params[2].dtype", "missing required field 'dtype'"},
  {"ParamDtypeUnknown", {{"/params/2/dtype", J(R"("float")")}}, "params[2].dtype", "expected one of float32, float16, bfloat16, int8, uint8, int32, uint32, int64; got 'float'"},
  {"ParamDtypeFloat64", {{"/params/2/dtype", J(R"("float64")")}}, "params[2].dtype", "expected one of float32, float16, bfloat16, int8, uint8, int32, uint32, int64; got 'float64'"},
  {"ScalarDtype", {{"/params/4/dtype", J(R"("int8")")}}, "params[4].dtype", "a scalar must be int32, int64 or float32; got 'int8'"},
  {"Int8ValueRange", {{"/params/3/dtype", J(R"("int8")")}, {"/params/3/init", J(R"({"dist": "values", "values": [1, 200]})")}}, "params[3].init.values[1]", "expected an integer for int8 parameter 'H' in [-128, 127], got 200"},
  {"Uint8NegativeLow", {{"/params/3/dtype", J(R"("uint8")")}, {"/params/3/init", J(R"({"dist": "uniform", "low": -1, "high": 4})")}}, "params[3].init.low", "expected an integer for uint8 parameter 'H' in [0, 255], got -1"},
  {"Float16ValueRange", {{"/params/0/dtype", J(R"("float16")")}, {"/params/0/init", J(R"({"dist": "constant", "value": 70000})")}}, "params[0].init.value", "out of float16 range"},
  {"AliasNotAName", {{"/aliases", J(R"(["fast fourier"])")}}, "aliases[0]", "expected letters, digits and '_'"},
  {"AliasIsTheId", {{"/aliases", J(R"(["demo"])")}}, "aliases[0]", "an alias equal to the id"},
  {"CheckOnInput", {{"/params/0/check", J(R"("topk")")}}, "params[0].check", "only outputs and in-outs are checked; 'A' is an input"},
  {"CheckNotAName", {{"/params/2/check", J(R"("top k")")}}, "params[2].check", "expected the name of a checker"},
  {"CheckObjectNotAName", {{"/params/2/check", J(R"({"name": "top k"})")}}, "params[2].check.name", "expected the name of a checker"},
  {"CheckObjectUnknownKey", {{"/params/2/check", J(R"({"name": "topk", "arg": {}})")}}, "params[2].check.arg", "unknown field 'arg' (did you mean 'args'?)"},
  {"CheckArgUnknownName", {{"/params/2/check", J(R"({"name": "statistical", "args": {"sigma": "q"}})")}}, "params[2].check.args.sigma", "unknown name 'q'"},
  {"CheckArgFailsAtCase", {{"/params/2/check", J(R"x({"name": "statistical", "args": {"samples": "N / (M - 1)"}})x")}}, "tests[0].scalars", "argument 'samples' of the checker of 'C'"},
  {"DrawNotAName", {{"/params/0/init", J(R"({"dist": "custom", "name": "sorted", "draw": "a b"})")}}, "params[0].init.draw", "expected a draw name"},
  {"DrawOnUniform", {{"/params/0/init", J(R"({"dist": "uniform", "draw": "A"})")}}, "params[0].init.draw", "'draw' does not apply to dist 'uniform'"},
  {"ConstraintNotAString", {{"/constraints", J("[1]")}}, "constraints[0]", "expected an expression string such as \"k <= N\""},
  {"ConstraintUnknownName", {{"/constraints", J(R"(["k <= N"])")}}, "constraints[0]", "unknown name 'k'"},
  {"ConstraintSyntax", {{"/constraints", J(R"(["M < N < K"])")}}, "constraints[0]", "comparisons cannot be chained"},
  {"ConstraintFails", {{"/constraints", J(R"(["M <= N"])")}}, "tests[1].scalars", "constraint 'M <= N' does not hold (M = 33, N = 17)"},
  {"RangeExpressionEmptyAtCase", {{"/params/3/init", J(R"({"dist": "uniform", "low": 0, "high": "M - 2"})")}}, "tests[0].scalars", "params[3].init at these scalars: expected high >= low, got low 0 and high -1"},
  {"RangeExpressionInOverride", {{"/tests/1/inputs/A", J(R"({"dist": "uniform", "low": "N", "high": "M - 20"})")}}, "tests[1].inputs.A.high", "expected high > low, got low 17 and high 13"},
  {"CustomArgsNotObject", {{"/params/0/init", J(R"({"dist": "custom", "name": "sparse", "args": 3})")}}, "params[0].init.args", "expected an object"},
  {"CustomArgUnknownName", {{"/params/0/init", J(R"({"dist": "custom", "name": "sparse", "args": {"nnz": "Q"}})")}}, "params[0].init.args.nnz", "unknown name 'Q'"},
  {"CustomNameNotIdentifier", {{"/params/0/init", J(R"({"dist": "custom", "name": "a b"})")}}, "params[0].init.name", "expected a generator name"},
  {"RelNormWithAtol", {{"/tolerance", J(R"({"rel_norm": 0.01, "atol": 1})")}}, "tolerance.atol", "not allowed with \"rel_norm\""},
  {"RelNormRange", {{"/tolerance", J(R"({"rel_norm": 2})")}}, "tolerance.rel_norm", "expected a relative norm bound in (0, 1)"},
  {"BufferMissingShape", {{"/params/0/shape", kRemove}}, "params[0].shape", "missing required field 'shape'"},
  {"ShapeNotAList", {{"/params/0/shape", J(R"("N")")}}, "params[0].shape", "expected a list of dimension expressions"},
  {"ShapeEmpty", {{"/params/0/shape", J("[]")}}, "params[0].shape", "expected a non-empty list of dimension expressions"},
  {"ShapeRankTooHigh", {{"/params/0/shape", many(9, "N")}}, "params[0].shape", "9 dimension expressions (e.g. [\"M\", \"N\"]) given; the limit is 8"},
  {"ShapeElementType", {{"/params/0/shape/1", J("true")}}, "params[0].shape[1]", "expected an expression string (e.g. \"2*M*N\"), got true"},
  {"ShapeSyntax", {{"/params/0/shape/0", J(R"("M*")")}}, "params[0].shape[0]", "in expression 'M*': expected a number, name or '(' at column 3"},
  {"ShapeUnknownName", {{"/params/0/shape/0", J(R"("Q")")}}, "params[0].shape[0]", "unknown name 'Q' in expression 'Q'; expressions may use only scalar parameters (M, N, K, alpha)"},
  {"ShapeUsesBuffer", {{"/params/0/shape/0", J(R"("B*2")")}}, "params[0].shape[0]", "'B' in expression 'B*2' is a buffer"},
  {"ScalarWithShape", {{"/params/4/shape", J(R"(["1"])")}}, "params[4].shape", "a scalar has no shape"},
  {"ScalarWithInit", {{"/params/4/init", J(R"({"dist": "constant", "value": 1})")}}, "params[4].init", "a scalar has no init"},
  {"OutputInitChecked", {{"/params/2/init", J(R"({"dist": "constant", "value": "nope"})")}}, "params[2].init.value", "unknown name 'nope'"},
  {"NoOutput", {{"/params/2/role", J(R"("input")")}, {"/params/3/role", J(R"("input")")}}, "params", "no output or inout parameter"},

  // Distributions
  {"InitNotAnObject", {{"/params/0/init", J(R"("uniform")")}}, "params[0].init", "expected an object, got 'uniform'"},
  {"InitUnknownField", {{"/params/0/init/lo", J("0")}}, "params[0].init.lo", "unknown field 'lo' (did you mean 'low'?)"},
  {"InitMissingDist", {{"/params/0/init/dist", kRemove}}, "params[0].init.dist", "missing required field 'dist'"},
  {"InitDistChoice", {{"/params/0/init/dist", J(R"("gauss")")}}, "params[0].init.dist", "expected one of uniform, normal, constant, values, custom; got 'gauss'"},
  {"InitFieldOfOtherDist", {{"/params/0/init/stddev", J("1")}}, "params[0].init.stddev", "'stddev' does not apply to dist 'uniform'; expected one of low, high, dist, specials, special_fraction"},
  {"UniformLowNotANumber", {{"/params/0/init/low", J(R"("a")")}}, "params[0].init.low", "unknown name 'a' in expression 'a'"},
  {"UniformEmptyRange", {{"/params/0/init/low", J("2")}}, "params[0].init.high", "expected high > low, got low 2 and high 2"},
  {"UniformFloat32Range", {{"/params/0/init/low", J("-1e300")}}, "params[0].init.low", "is out of float32 range, got -1e+300"},
  {"UniformInt32Integral", {{"/params/3/init", J(R"({"dist": "uniform", "low": 0.5, "high": 4})")}}, "params[3].init.low", "expected an integer for int32 parameter 'H', got 0.5"},
  {"UniformInt32Range", {{"/params/3/init", J(R"({"dist": "uniform", "low": 5, "high": 4})")}}, "params[3].init.high", "expected high >= low, got low 5 and high 4"},
  {"UniformInt32Bounds", {{"/params/3/init", J(R"({"dist": "uniform", "low": 0, "high": 2147483648})")}}, "params[3].init.high", "expected an integer for int32 parameter 'H' in [-2147483648, 2147483647], got 2147483648"},
  {"NormalStddevPositive", {{"/params/0/init", J(R"({"dist": "normal", "stddev": 0})")}}, "params[0].init.stddev", "expected a standard deviation > 0, got 0"},
  {"ConstantMissingValue", {{"/params/3/init/value", kRemove}}, "params[3].init.value", "missing required field 'value'"},
  {"ValuesEmpty", {{"/params/3/init", J(R"({"dist": "values", "values": []})")}}, "params[3].init.values", "expected a non-empty list of values"},
  {"ValuesNotAList", {{"/params/3/init", J(R"({"dist": "values", "values": 3})")}}, "params[3].init.values", "expected a list of values, got 3"},
  {"ValuesNanInInt32", {{"/params/3/init", J(R"({"dist": "values", "values": [1, "nan"]})")}}, "params[3].init.values[1]", "'nan' cannot be stored in int32 parameter 'H'"},
  {"ValuesBadString", {{"/params/0/init", J(R"({"dist": "values", "values": ["NaN"]})")}}, "params[0].init.values[0]", "expected a number or one of \"nan\", \"inf\", \"-inf\", \"-0\"; got 'NaN'"},
  {"CustomMissingName", {{"/params/0/init", J(R"({"dist": "custom"})")}}, "params[0].init.name", "missing required field 'name'"},
  {"CustomEmptyName", {{"/params/0/init", J(R"({"dist": "custom", "name": ""})")}}, "params[0].init.name", "expected a non-empty string"},
  {"SpecialsNotAList", {{"/params/0/init/specials", J(R"("nan")")}}, "params[0].init.specials", "expected a list of values, got 'nan'"},
  {"SpecialsBadValue", {{"/params/0/init/specials", J(R"(["-nan"])")}}, "params[0].init.specials[0]", "got '-nan'"},
  {"SpecialFractionRange", {{"/params/0/init/special_fraction", J("1.5")}}, "params[0].init.special_fraction", "expected a number in [0, 1], got 1.5"},
  {"SpecialFractionNeedsSpecials", {{"/params/0/init/special_fraction", J("0.1")}}, "params[0].init.specials", "special_fraction > 0 needs a list of specials"},
  {"SpecialFractionNeedsNonEmpty", {{"/params/0/init/special_fraction", J("0.1")}, {"/params/0/init/specials", J("[]")}}, "params[0].init.specials", "expected a non-empty list when special_fraction > 0"},

  // Tolerance
  {"ToleranceNotAnObject", {{"/tolerance", J("0.001")}}, "tolerance", "expected an object, got 0.001"},
  {"ToleranceUnknownField", {{"/tolerance/abstol", J("1")}}, "tolerance.abstol", "unknown field 'abstol' (did you mean 'atol'?)"},
  {"ToleranceEmpty", {{"/tolerance", J("{}")}}, "tolerance", "expected {\"atol\": a, \"rtol\": r}"},
  {"ToleranceAtolNegative", {{"/tolerance/atol", J("-1")}}, "tolerance.atol", "expected a number >= 0, got -1"},
  {"ToleranceRtolNotANumber", {{"/tolerance/rtol", J(R"("1e-3")")}}, "tolerance.rtol", "expected a number, got '1e-3'"},
  {"ToleranceExactWithAtol", {{"/tolerance/exact", J("true")}}, "tolerance.atol", "not allowed with \"exact\": true"},
  {"ToleranceExactNotBool", {{"/tolerance", J(R"({"exact": 1})")}}, "tolerance.exact", "expected true or false, got 1"},

  // Cost expressions
  {"FlopsNotAnExpression", {{"/flops", J("[]")}}, "flops", "expected an expression string"},
  {"FlopsSyntax", {{"/flops", J(R"("2*(M")")}}, "flops", "in expression '2*(M': expected ')' at column 5"},
  {"FlopsUnknownName", {{"/flops", J(R"("2*P")")}}, "flops", "unknown name 'P' in expression '2*P'"},
  {"BytesUsesBuffer", {{"/bytes", J(R"("4*A")")}}, "bytes", "'A' in expression '4*A' is a buffer"},
  {"FlopsNegativeForCase", {{"/flops", J(R"("N-K")")}}, "tests[1].scalars", "'flops' (N-K) evaluates to -48 here; expected a number >= 0"},
  {"BytesDivisionByZeroForCase", {{"/bytes", J("\"M/(N-1)\"")}}, "tests[0].scalars", "'bytes' cannot be evaluated here: division by zero"},

  // Case lists
  {"TestsNotAList", {{"/tests", J("{}")}}, "tests", "expected a list of cases, got an object"},
  {"TestsEmpty", {{"/tests", J("[]")}}, "tests", "expected a non-empty list of cases"},
  {"BenchmarksEmpty", {{"/benchmarks", J("[]")}}, "benchmarks", "expected a non-empty list of cases"},
  {"TestsTooMany", {{"/tests", many_cases(1001)}}, "tests", "1001 cases given; the limit is 1000"},
  {"CaseNotAnObject", {{"/tests/0", J("1")}}, "tests[0]", "expected an object, got 1"},
  {"CaseUnknownField", {{"/tests/0/scalar", J("{}")}}, "tests[0].scalar", "unknown field 'scalar' (did you mean 'scalars'?)"},
  {"CaseMissingName", {{"/tests/0/name", kRemove}}, "tests[0].name", "missing required field 'name'"},
  {"CaseNamePattern", {{"/tests/0/name", J(R"("a b")")}}, "tests[0].name", "([A-Za-z0-9_.-]+), got 'a b'"},
  {"CaseNameDuplicate", {{"/tests/1/name", J(R"("1x1x1")")}}, "tests[1].name", "duplicate case name '1x1x1' (also tests[0].name)"},
  {"CaseNameDuplicateAcrossLists", {{"/benchmarks/0/name", J(R"("odd_33x17x65")")}}, "benchmarks[0].name", "duplicate case name 'odd_33x17x65' (also tests[1].name)"},
  {"CaseNoteNotAString", {{"/tests/0/note", J("1")}}, "tests[0].note", "expected a string, got 1"},
  {"CaseMissingScalars", {{"/tests/0/scalars", kRemove}}, "tests[0].scalars", "missing required field 'scalars'"},
  {"CaseScalarsNotAnObject", {{"/tests/0/scalars", J("[1, 1, 1]")}}, "tests[0].scalars", "expected an object, got an array"},
  {"CaseScalarMissing", {{"/tests/0/scalars/K", kRemove}}, "tests[0].scalars.K", "missing value for scalar parameter 'K'"},
  {"CaseScalarUnknown", {{"/tests/0/scalars/Q", J("1")}}, "tests[0].scalars.Q", "'Q' is not a scalar parameter; expected exactly M, N, K, alpha"},
  {"CaseScalarIsABuffer", {{"/tests/0/scalars/A", J("1")}}, "tests[0].scalars.A", "'A' is not a scalar parameter"},
  {"CaseScalarNotANumber", {{"/tests/0/scalars/N", J(R"("4")")}}, "tests[0].scalars.N", "expected a number, got '4'"},
  {"CaseInt32ScalarIntegral", {{"/tests/0/scalars/N", J("2.5")}}, "tests[0].scalars.N", "expected an integer for int32 scalar, got 2.5"},
  {"CaseInt32ScalarRange", {{"/tests/0/scalars/N", J("3000000000")}}, "tests[0].scalars.N", "expected an integer for int32 scalar in [-2147483648, 2147483647], got 3000000000"},
  {"CaseFloat32ScalarRange", {{"/tests/0/scalars/alpha", J("1e39")}}, "tests[0].scalars.alpha", "float32 scalar is out of float32 range"},
  {"CaseShapeNegative", {{"/params/0/shape/1", J(R"("N-2")")}}, "tests[0].scalars", "the shape of 'A' (params[0].shape[1]) is not a valid size here: expression 'N-2' evaluates to -1"},
  {"CaseShapeNotInteger", {{"/params/0/shape/1", J(R"("N/2")")}}, "tests[0].scalars", "expression 'N/2' evaluates to 0.5; a size must be a non-negative integer"},
  {"CaseShapeDivisionByZero", {{"/params/0/shape/1", J("\"N/(M-1)\"")}}, "tests[0].scalars", "division by zero"},
  {"CaseBufferTooLarge", {{"/benchmarks/0/scalars", J(R"({"M": 65536, "N": 32768, "K": 1, "alpha": 1})")}}, "benchmarks[0].scalars", "'A' would have 2147483648 elements; a buffer must have fewer than 2^31"},
  {"CaseBufferOverflows", {{"/params/0/shape", J(R"(["M", "M", "M", "M"])")}, {"/benchmarks/0/scalars/M", J("2000000000")}}, "benchmarks[0].scalars", "'A' would have more than 2^63 elements"},
  {"CaseDeviceMemory", {{"/benchmarks/0/scalars", J(R"({"M": 30000, "N": 30000, "K": 30000, "alpha": 1})")}}, "benchmarks[0].scalars", "this case needs 13.41 GiB of device memory"},
  {"CaseInputsNotAnObject", {{"/tests/1/inputs", J("[]")}}, "tests[1].inputs", "expected an object, got an array"},
  {"CaseInputsUnknownParam", {{"/tests/1/inputs/Z", J(R"({"dist": "normal"})")}}, "tests[1].inputs.Z", "no parameter named 'Z'"},
  {"CaseInputsOutput", {{"/tests/1/inputs/C", J(R"({"dist": "normal"})")}}, "tests[1].inputs.C", "'C' is an output; only input and inout parameters have a distribution"},
  {"CaseInputsScalar", {{"/tests/1/inputs/M", J(R"({"dist": "normal"})")}}, "tests[1].inputs.M", "'M' is a scalar; only input and inout parameters"},
  {"CaseInputsBadDistribution", {{"/tests/1/inputs/A/stddev", J("-1")}}, "tests[1].inputs.A.stddev", "expected a standard deviation > 0, got -1"},
  {"CaseInputsInt32Values", {{"/tests/1/inputs/H/values/0", J("1.5")}}, "tests[1].inputs.H.values[0]", "expected an integer for int32 parameter 'H', got 1.5"},
  {"CaseToleranceOverride", {{"/tests/1/tolerance", J(R"({"atol": -0.1})")}}, "tests[1].tolerance.atol", "expected a number >= 0, got -0.1"},
  {"BenchmarkToleranceOverride", {{"/benchmarks/0/tolerance", J(R"({"exact": true, "rtol": 0})")}}, "benchmarks[0].tolerance.rtol", "not allowed with \"exact\": true"},

  // Promises: graded cases keep them, stress cases go past them
  {"GradedCaseBreaksAPromise", {{"/constraints", J(R"(["M <= 32"])")}}, "tests[1].scalars", "constraint 'M <= 32' does not hold (M = 33); a graded case stays within the statement's promises: mark it \"stress\": true"},
  {"StressWithinEveryPromise", {{"/tests/1/stress", J("true")}}, "tests[1].stress", "a stress case within every constraint; drop \"stress\", or say in \"beyond\""},
  {"StressNotABool", {{"/tests/1/stress", J(R"("yes")")}}, "tests[1].stress", "expected true or false, got 'yes'"},
  {"BeyondOnAGradedCase", {{"/tests/1/beyond", J(R"x("values in [-1000, 1000)")x")}}, "tests[1].beyond", "only a stress case (\"stress\": true) goes beyond"},
  {"BeyondEmpty", {{"/tests/1/stress", J("true")}, {"/tests/1/beyond", J(R"("")")}}, "tests[1].beyond", "expected a non-empty string"},
  {"EveryTestIsStress", {{"/constraints", J(R"(["M <= 1"])")}, {"/tests/1/stress", J("true")}, {"/tests/0/stress", J("true")}, {"/tests/0/beyond", J(R"("values")")}, {"/benchmarks/0/stress", J("true")}}, "tests", "every case is a stress case; at least one must be graded"},
  {"EveryBenchmarkIsStress", {{"/constraints", J(R"(["M <= 33"])")}, {"/benchmarks/0/stress", J("true")}}, "benchmarks", "every case is a stress case"},
  {"PerformanceCaseOnATest", {{"/tests/0/leetgpu_performance", J("true")}}, "tests[0].leetgpu_performance", "unknown field 'leetgpu_performance'"},
  {"PerformanceCaseNotABool", {{"/benchmarks/0/leetgpu_performance", J("1")}}, "benchmarks[0].leetgpu_performance", "expected true or false, got 1"},
  {"SourceUnknown", {{"/source", J(R"("mine")")}}, "source", "expected one of leetgpu, ours; got 'mine'"},
};
// clang-format on

class SpecRule : public ::testing::TestWithParam<Rule> {};

TEST_P(SpecRule, ErrorNamesFileAndPath) {
  const Rule& rule = GetParam();
  expect_error(apply(base(), rule.edits).dump(), rule.path, rule.fragment);
}

INSTANTIATE_TEST_SUITE_P(Rules, SpecRule, ::testing::ValuesIn(kRules),
                         [](const ::testing::TestParamInfo<Rule>& info) { return info.param.name; });

TEST(SpecRuleTable, NamesAreUnique) {
  std::set<std::string> names;
  for (const auto& r : kRules) EXPECT_TRUE(names.insert(r.name).second) << r.name;
}

// ---------------------------------------------------------------------------------------------------------------
// Loading from a folder

TEST(SpecLoad, LoadsFromFolderNamedAfterId) {
  judge::testing::TempDir tmp;
  judge::testing::write_file(tmp / "demo/spec.json", kBase);
  Challenge c = judge::load_challenge(tmp / "demo");
  EXPECT_EQ(c.id, "demo");
  EXPECT_EQ(c.dir, tmp / "demo");
  EXPECT_EQ(c.spec_path, tmp / "demo/spec.json");
  EXPECT_EQ(c.starter_path(), tmp / "demo/starter.cu");
  EXPECT_NO_THROW(judge::load_challenge(tmp.path() / "demo" / ""));  // a trailing slash names the same folder
}

TEST(SpecLoad, IdMustMatchFolder) {
  judge::testing::TempDir tmp;
  judge::testing::write_file(tmp / "other/spec.json", kBase);
  try {
    judge::load_challenge(tmp / "other");
    FAIL() << "expected a SpecError";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.json_path(), "id");
    EXPECT_NE(std::string(e.what()).find((tmp / "other/spec.json").string() + ": id: 'demo' does not match the "
                                                                               "folder name 'other'"),
              std::string::npos)
        << e.what();
  }
}

TEST(SpecLoad, MissingFileSaysWhatToCreate) {
  judge::testing::TempDir tmp;
  std::filesystem::create_directories(tmp / "demo");
  try {
    judge::load_challenge(tmp / "demo");
    FAIL() << "expected a SpecError";
  } catch (const SpecError& e) {
    std::string message = e.what();
    EXPECT_NE(message.find((tmp / "demo/spec.json").string() + ": (root): no such file"), std::string::npos) << message;
    EXPECT_NE(message.find("needs a spec.json"), std::string::npos) << message;
  }
}

TEST(SpecLoad, ErrorsInFileNameThePath) {
  judge::testing::TempDir tmp;
  judge::testing::write_file(tmp / "demo/spec.json", "{\n  \"id\": \"demo\",\n  oops\n}");
  try {
    judge::load_challenge(tmp / "demo");
    FAIL() << "expected a SpecError";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find((tmp / "demo/spec.json").string() + ": (root): invalid JSON at line 3, "
                                                                              "column 3"),
              std::string::npos)
        << e.what();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The challenges in the repository

// Every folder under challenges/ must load (there may be none yet). Hidden folders are not challenges.
TEST(SpecChallenges, EveryChallengeFolderLoads) {
  const std::filesystem::path root = judge::testing::challenges_dir();
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) GTEST_SKIP() << "no challenges directory at " << root;
  std::size_t loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.empty() || name[0] == '.') continue;
    try {
      Challenge c = judge::load_challenge(entry.path());
      EXPECT_EQ(c.id, name);
      ++loaded;
    } catch (const SpecError& e) {
      ADD_FAILURE() << e.what();
    }
  }
  RecordProperty("challenges_loaded", static_cast<int>(loaded));
}

// A stress case says which promise it goes past, in the words the judge prints; graded cases carry nothing.
TEST(Spec, StressCasesNameThePromiseTheyExceed) {
  json j = base();
  j["constraints"] = {"M <= 1024", "N <= 1024", "M >= 1"};
  j["benchmarks"].push_back({{"name", "big"}, {"stress", true},
                             {"scalars", {{"M", 2048}, {"N", 2048}, {"K", 8}, {"alpha", 1}}}});
  j["tests"][1]["stress"] = true;
  j["tests"][1]["beyond"] = "A's values past the statement's [-2, 2]";
  j["benchmarks"][0]["leetgpu_performance"] = true;
  Challenge c = parse(j);
  EXPECT_FALSE(c.tests[0].stress);
  EXPECT_TRUE(c.tests[0].beyond.empty());
  EXPECT_TRUE(c.tests[1].stress);
  EXPECT_EQ(c.tests[1].beyond, "A's values past the statement's [-2, 2]");
  ASSERT_EQ(c.benchmarks.size(), 2u);
  EXPECT_TRUE(c.benchmarks[0].leetgpu_performance);
  EXPECT_FALSE(c.benchmarks[0].stress);
  EXPECT_TRUE(c.benchmarks[1].stress);
  EXPECT_EQ(c.benchmarks[1].beyond,
            "M = 2048 is past the statement's M <= 1024; N = 2048 is past the statement's N <= 1024");
  EXPECT_TRUE(c.has_stress_cases());
  EXPECT_EQ(c.source, "leetgpu");
  j["source"] = "ours";
  EXPECT_EQ(parse(j).source, "ours");
}

TEST(Spec, LeetGpusPerformanceCaseIsOneGradedBenchmark) {
  json j = base();
  j["constraints"] = {"M <= 1024"};
  json second = {{"name", "second"}, {"leetgpu_performance", true},
                 {"scalars", {{"M", 512}, {"N", 8}, {"K", 8}, {"alpha", 1}}}};
  j["benchmarks"][0]["leetgpu_performance"] = true;
  j["benchmarks"].push_back(second);
  expect_error(j.dump(), "benchmarks[1].leetgpu_performance",
               "a second benchmark marked as LeetGPU's performance case (the first is '1024')");
  j["benchmarks"][1]["scalars"]["M"] = 2048;
  j["benchmarks"][1]["stress"] = true;
  j["benchmarks"][0]["leetgpu_performance"] = false;
  expect_error(j.dump(), "benchmarks[1].leetgpu_performance", "LeetGPU's performance case is graded");
}

}  // namespace
