// parse_challenge on broken input: whatever the text, it returns a Challenge or throws SpecError, and nothing else
// (no other exception, no crash, no hang). A spec it accepts must be usable: its derived values evaluate for every
// case. Deterministic: a fixed seed, so a failure replays.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/core/challenge/spec.hpp"

namespace {

using json = nlohmann::json;

const char* const kFile = "fuzz/spec.json";

const char* const kValid = R"spec({
  "id": "fuzz",
  "title": "Fuzz",
  "difficulty": "easy",
  "summary": "every kind of field, for mutating",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["M", "ceil_div(N, 2)"],
     "init": {"dist": "uniform", "low": -1, "high": 1, "specials": ["nan", "-0", 3], "special_fraction": 0.01}},
    {"name": "B", "role": "input", "dtype": "int32", "shape": ["N"], "init": {"dist": "values", "values": [1, -2, 3]}},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["M", "N"], "check": "topk"},
    {"name": "D", "role": "inout", "dtype": "float32", "shape": ["max(M, N)"], "init": {"dist": "normal", "stddev": 2}},
    {"name": "E", "role": "input", "dtype": "uint8", "shape": ["N"], "init": {"dist": "uniform", "low": 0, "high": "min(N, 255)"}},
    {"name": "F", "role": "input", "dtype": "float16", "shape": ["M"],
     "init": {"dist": "custom", "name": "sparse", "low": -2, "high": 2, "args": {"nnz": "M/2"}}},
    {"name": "G", "role": "output", "dtype": "int64", "shape": ["1"]},
    {"name": "H", "role": "input", "dtype": "int32", "shape": ["M + 1"],
     "init": {"dist": "custom", "name": "csr_row_ptr", "draw": "S", "args": {"rows": "M", "cols": "N", "nnz": "M"}}},
    {"name": "I", "role": "output", "dtype": "float32", "shape": ["1"],
     "check": {"name": "statistical", "args": {"sigma": "s * s + 1", "samples": "N + 1", "z": 6}}},
    {"name": "M", "role": "scalar", "dtype": "int32"},
    {"name": "N", "role": "scalar", "dtype": "int32"},
    {"name": "s", "role": "scalar", "dtype": "float32"},
    {"name": "t", "role": "scalar", "dtype": "int64"}
  ],
  "constraints": ["M <= N || N == 0", "t >= 0 && t % 2 == 0"],
  "tolerance": {"atol": 1e-5, "rtol": 1e-4},
  "flops": "2*M*N",
  "bytes": "4*(M*N + N)",
  "timeout_s": 2.5,
  "tests": [
    {"name": "small", "scalars": {"M": 1, "N": 3, "s": 0.5, "t": 2}, "note": "edges",
     "inputs": {"A": {"dist": "constant", "value": "inf"}, "D": {"dist": "custom", "name": "sorted"}},
     "tolerance": {"exact": true}},
    {"name": "empty", "scalars": {"M": 0, "N": 0, "s": -1, "t": 0}, "tolerance": {"rel_norm": 0.01}}
  ],
  "benchmarks": [{"name": "big", "scalars": {"M": 4096, "N": 4096, "s": 1, "t": 4000000000}, "tolerance": {"rtol": 1e-3}}]
})spec";

// Keys and strings that mean something to the parser, so random edits often reach deep checks.
const std::vector<std::string> kKeys = {
    "id", "title", "difficulty", "summary", "params", "tolerance", "flops", "bytes", "timeout_s", "tests",
    "benchmarks", "name", "role", "dtype", "shape", "init", "dist", "low", "high", "mean", "stddev", "value",
    "values", "specials", "special_fraction", "exact", "atol", "rtol", "note", "scalars", "inputs", "A", "B", "C",
    "D", "M", "N", "s", "", "a b", "\xc3\xa9", "constraints", "check", "args", "nnz", "rel_norm", "E", "F", "G", "t",
    "draw", "H", "I", "sigma", "samples", "z"};
const std::vector<std::string> kStrings = {
    "", "nan", "inf", "-inf", "-0", "M", "N", "M*N", "2*M*", "N/(M-M)", "sqrt(-1)", "ceil_div(N, 0)", "2^2^2^2^2",
    "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1", "-M", "float32", "int32", "float16", "bfloat16", "int8", "uint8", "uint32", "int64", "M <= N", "M < N < M",
    "t == 1", "!M", "M && ", "|| N", "topk", "sorted_permutation", "sparse", "M - N", "statistical",
    "csr_row_ptr", "S",
    "float64", "input", "output", "inout", "scalar", "uniform", "normal", "constant", "values", "custom", "easy",
    "__x", "float", "a b", "1x1", "\xc3\xa9", std::string(5000, 'N')};

class Fuzzer {
 public:
  explicit Fuzzer(std::uint32_t seed) : rng_(seed) {}

  std::size_t below(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

  json random_number() {
    static const std::vector<json> edges = {
        0, 1, -1, 2, 3, 16, 1024, 65536, 2147483647, 2147483648LL, -2147483649LL,
        std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::uint64_t>::max(), 0.5, -0.0, 1e-320,
        1e308, -1e308, 3.4e38, 3.5e38, 1e39, 2.5, 1.0, 4096.0};
    if (chance(0.7)) return pick(edges);
    return std::uniform_real_distribution<double>(-1e6, 1e6)(rng_);
  }

  json random_value(int depth) {
    switch (below(depth > 3 ? 5 : 7)) {
      case 0: return nullptr;
      case 1: return chance(0.5);
      case 2:
      case 3: return random_number();
      case 4: return pick(kStrings);
      case 5: {
        json a = json::array();
        for (std::size_t i = below(4); i > 0; --i) a.push_back(random_value(depth + 1));
        return a;
      }
      default: {
        json o = json::object();
        for (std::size_t i = below(4); i > 0; --i) o[pick(kKeys)] = random_value(depth + 1);
        return o;
      }
    }
  }

  // One structural edit at a random node of the document.
  void mutate(json& doc) {
    std::vector<json*> nodes;
    collect(doc, nodes);
    json& node = *nodes[below(nodes.size())];
    switch (below(7)) {
      case 0:  // delete a key or an element
        if (node.is_object() && !node.empty()) {
          auto it = node.begin();
          std::advance(it, static_cast<std::ptrdiff_t>(below(node.size())));
          node.erase(it);
        } else if (node.is_array() && !node.empty()) {
          node.erase(below(node.size()));
        }
        break;
      case 1:  // change its type or value
        node = random_value(0);
        break;
      case 2:  // insert a key, known or not
        if (node.is_object()) node[pick(kKeys)] = random_value(0);
        break;
      case 3:  // grow a list
        if (node.is_array()) node.push_back(node.empty() || chance(0.5) ? random_value(0) : node[below(node.size())]);
        break;
      case 4: {  // bury it deep
        json deep = node;
        for (std::size_t i = 0; i < 20 + below(100); ++i) deep = json::array({deep});
        node = deep;
        break;
      }
      case 5:  // a number at the edges
        node = random_number();
        break;
      default:  // a string that means something somewhere
        node = pick(kStrings);
        break;
    }
  }

  // Edits of the text itself: truncation, flipped and inserted bytes, repeated keys, deep nesting.
  std::string mutate_text(std::string text) {
    switch (below(5)) {
      case 0: return text.substr(0, below(text.size() + 1));
      case 1:
        for (std::size_t i = 1 + below(4); i > 0; --i) text[below(text.size())] = static_cast<char>(below(256));
        return text;
      case 2: return text.insert(below(text.size() + 1), std::string(1 + below(8), "{}[],:\"\\0x"[below(10)]));
      case 3: return text.insert(1, "\"" + pick(kKeys) + "\": " + random_value(0).dump() + ", ");
      default: {
        std::size_t depth = 1 + below(200);
        return text.insert(below(text.size() + 1), std::string(depth, '[') + "1" + std::string(depth, ']'));
      }
    }
  }

 private:
  static void collect(json& j, std::vector<json*>& out) {
    out.push_back(&j);
    if (j.is_structured())
      for (auto& child : j) collect(child, out);
  }

  std::mt19937 rng_;
};

// Parses and checks the property; returns true when the text was accepted.
bool check(const std::string& text) {
  try {
    judge::Challenge c = judge::parse_challenge(text, kFile);
    // Accepted: every derived value must be computable for every case.
    EXPECT_FALSE(c.signature().empty());
    for (const auto* cases : {&c.tests, &c.benchmarks}) {
      for (const auto& k : *cases) {
        for (const auto& p : c.params) {
          if (!p.is_buffer()) continue;
          std::int64_t n = c.element_count(p, k.scalars);
          EXPECT_GE(n, 0);
          EXPECT_LT(n, std::int64_t{1} << 31);
          if (p.role == judge::Role::output) continue;
          // Expression fields and generator arguments resolve at every case's scalars.
          const judge::Distribution& d = c.distribution_for(p, k);
          EXPECT_NO_THROW(d.resolved(k.scalars));
          EXPECT_NO_THROW(d.resolved_args(k.scalars));
        }
        for (const auto& e : c.constraints) EXPECT_NE(e.eval(k.scalars), 0.0) << e.text();
        EXPECT_TRUE(std::isfinite(c.flops_for(k.scalars)));
        EXPECT_TRUE(std::isfinite(c.bytes_for(k.scalars)));
        c.tolerance_for(k);
      }
    }
    return true;
  } catch (const judge::SpecError& e) {
    std::string message = e.what();
    EXPECT_EQ(message.rfind(std::string(kFile) + ": ", 0), 0u) << message;
    EXPECT_EQ(message.find("internal error"), std::string::npos) << message;
    EXPECT_FALSE(e.json_path().empty()) << message;
    return false;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw something other than SpecError: " << e.what() << "\ninput: " << text.substr(0, 500);
  } catch (...) {
    ADD_FAILURE() << "threw a non-exception\ninput: " << text.substr(0, 500);
  }
  return false;
}

TEST(SpecFuzz, BaseSpecIsValid) { EXPECT_TRUE(check(kValid)); }

TEST(SpecFuzz, StructuralMutationsOfAValidSpec) {
  Fuzzer f(20240601);
  const json valid = json::parse(kValid);
  int accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    json doc = valid;
    for (std::size_t edits = 1 + f.below(3); edits > 0; --edits) f.mutate(doc);
    accepted += check(doc.dump()) ? 1 : 0;
    if (HasFailure()) break;
  }
  // Some edits keep the spec valid (a changed note, a different number): both outcomes are exercised.
  EXPECT_GT(accepted, 0);
}

TEST(SpecFuzz, TextMutationsOfAValidSpec) {
  Fuzzer f(7);
  const std::string pretty = json::parse(kValid).dump(2);
  for (int i = 0; i < 2000 && !HasFailure(); ++i) check(f.mutate_text(i % 2 ? pretty : std::string(kValid)));
}

TEST(SpecFuzz, RandomDocuments) {
  Fuzzer f(99);
  for (int i = 0; i < 1000 && !HasFailure(); ++i) {
    json doc = f.random_value(0);
    check(doc.dump());
    check(f.mutate_text(doc.dump()));
  }
}

TEST(SpecFuzz, PathologicalTexts) {
  for (const std::string& text :
       {std::string(), std::string("null"), std::string("\xff\xfe"), std::string(1 << 20, '['),
        std::string(1 << 20, '{'), "{" + std::string(1 << 16, ' ') + "}", std::string("{\"id\":\"a\0b\"}", 12),
        std::string("{\"id\": \"\\ud800\"}"), std::string("{\"id\": 1e99999}"), std::string("{\"id\": -}"),
        std::string("{\"timeout_s\": 123456789012345678901234567890}"), std::string(17 << 20, ' ')})
    check(text);
}

}  // namespace
