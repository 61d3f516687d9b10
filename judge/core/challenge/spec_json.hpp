#pragma once
// The spec reader's shared pieces, for spec.cpp and spec_reader*.cpp only (not the challenge stage's interface):
// the limits on a spec file, JSON paths as messages show them, and small text helpers.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/core/challenge/spec.hpp"

namespace judge::spec_json {

using json = nlohmann::json;

// Limits that keep a hostile or broken file from costing more than a moment. Real specs are far below them: a spec
// nests 6 levels deep, has a handful of parameters of rank <= 4 and tens of cases.
inline constexpr std::size_t kMaxFileBytes = 16u << 20;
inline constexpr std::size_t kMaxJsonDepth = 64;
inline constexpr std::size_t kMaxParams = 64;
inline constexpr std::size_t kMaxRank = 8;
inline constexpr std::size_t kMaxCases = 1000;
inline constexpr double kMaxTimeout = 3600.0;
inline constexpr std::int64_t kMaxElements = std::int64_t{1} << 31;     // int32 indexing
inline constexpr std::int64_t kMaxDeviceBytes = std::int64_t{8} << 30;  // fits ordinary cards
inline constexpr std::string_view kRoot = "(root)";
inline constexpr double kTwoPow53 = 9007199254740992.0;
inline constexpr double kHalfMax = 65504.0;

inline constexpr std::string_view kKeywords[] = {
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

// A C identifier: what a parameter or scalar name must be.
bool is_identifier(std::string_view s);
// Non-empty, and only lowercase letters, digits (and uppercase letters when `upper`) and the characters of `extra`.
bool all_chars_in(std::string_view s, std::string_view extra, bool upper);
// At most `limit` characters of `s`, "..." marking a cut.
std::string truncated(std::string_view s, std::size_t limit = 60);
// JSON paths as users read them: params[2].shape[0], tests[1].scalars.N, tests[0].inputs["odd key"].
std::string child(std::string_view path, const std::string& key);
std::string index(std::string_view path, std::size_t i);
// "a, b, c".
std::string join(const std::vector<std::string>& items);
std::string join(std::initializer_list<std::string_view> items);
// A value as a message shows it: scalars themselves, containers by kind (they may be huge).
std::string describe(const json& v);
// Levenshtein distance, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);
// "line 3, column 7" of a byte offset as nlohmann reports it (the count of bytes read).
std::string line_and_column(const std::string& text, std::size_t position);
// What an input holds when its spec gives no init: uniform in [-1, 1) (integers: -1, 0 or 1; unsigned: 0 or 1).
Distribution default_distribution(DType t);

}  // namespace judge::spec_json
