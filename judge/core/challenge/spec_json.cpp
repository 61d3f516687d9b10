#include "judge/core/challenge/spec_json.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace judge::spec_json {

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

std::string truncated(std::string_view s, std::size_t limit) {
  if (s.size() <= limit) return std::string(s);
  return std::string(s.substr(0, limit)) + "...";
}

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


std::string line_and_column(const std::string& text, std::size_t position) {
  // nlohmann counts bytes read, end of input included: the offending byte is the last one read.
  std::size_t offset = std::min(position == 0 ? 0 : position - 1, text.size());
  std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  std::size_t line_start = text.rfind('\n', offset == 0 ? std::string::npos : offset - 1);
  if (offset == 0) line_start = std::string::npos;
  std::size_t column = line_start == std::string::npos ? offset + 1 : offset - line_start;
  return fmt::format("line {}, column {}", line, column);
}

Distribution default_distribution(DType t) {
  Distribution d;
  if (t == DType::uint8 || t == DType::uint32) d.low = 0;
  return d;
}

}  // namespace judge::spec_json
