#include "judge/core/build/ptxas_report.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace judge {

namespace {

constexpr std::string_view kInfo = "ptxas info";

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The number right before `label` in `line` ("256 bytes stack frame" -> 256 for "bytes stack frame"); -1 if absent.
std::int64_t number_before(std::string_view line, std::string_view label) {
  auto at = line.find(label);
  if (at == std::string_view::npos) return -1;
  std::string_view head = trim(line.substr(0, at));
  std::size_t start = head.size();
  while (start > 0 && head[start - 1] >= '0' && head[start - 1] <= '9') --start;
  if (start == head.size()) return -1;
  return std::strtoll(std::string(head.substr(start)).c_str(), nullptr, 10);
}

// The text between the first pair of single quotes after `from`.
std::string_view quoted(std::string_view line, std::size_t from = 0) {
  auto open = line.find('\'', from);
  if (open == std::string_view::npos) return {};
  auto close = line.find('\'', open + 1);
  if (close == std::string_view::npos) return {};
  return line.substr(open + 1, close - open - 1);
}

// The message of a "ptxas info    : message" line.
std::string_view message_of(std::string_view line) {
  auto colon = line.find(':');
  return colon == std::string_view::npos ? std::string_view{} : trim(line.substr(colon + 1));
}

bool is_properties_line(std::string_view line) {
  return line.find("bytes stack frame") != std::string_view::npos;
}

template <class F>
void for_each_line(std::string_view text, F&& f) {
  while (!text.empty()) {
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    f(line, nl != std::string_view::npos);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

}  // namespace

std::vector<PtxasKernel> parse_ptxas_report(std::string_view text) {
  std::vector<PtxasKernel> kernels;
  struct Frame {
    std::int64_t stack = 0, spill_stores = 0, spill_loads = 0;
  };
  // "Function properties for X" comes with every function, entry or not; entries take theirs when they end.
  std::map<std::pair<std::string, std::string>, Frame> frames;
  std::string arch, properties_of;
  int current = -1;  // the entry function whose "Used" line comes next
  for_each_line(text, [&](std::string_view raw, bool) {
    std::string_view line = trim(raw);
    if (!properties_of.empty() && is_properties_line(line)) {
      Frame f;
      f.stack = std::max<std::int64_t>(0, number_before(line, "bytes stack frame"));
      f.spill_stores = std::max<std::int64_t>(0, number_before(line, "bytes spill stores"));
      f.spill_loads = std::max<std::int64_t>(0, number_before(line, "bytes spill loads"));
      frames[{properties_of, arch}] = f;
      properties_of.clear();
      return;
    }
    properties_of.clear();
    if (!starts_with(line, kInfo)) return;
    std::string_view msg = message_of(line);
    if (starts_with(msg, "Compiling entry function")) {
      PtxasKernel k;
      k.name = std::string(quoted(msg));
      auto for_at = msg.find(" for ");
      k.arch = for_at == std::string_view::npos ? std::string() : std::string(quoted(msg, for_at));
      arch = k.arch;
      kernels.push_back(std::move(k));
      current = static_cast<int>(kernels.size()) - 1;
    } else if (starts_with(msg, "Function properties for")) {
      properties_of = std::string(trim(msg.substr(std::string_view("Function properties for").size())));
    } else if (starts_with(msg, "Used") && current >= 0) {
      PtxasKernel& k = kernels[current];
      k.registers = static_cast<int>(std::max<std::int64_t>(0, number_before(msg, "registers")));
      k.barriers = static_cast<int>(number_before(msg, "barriers"));
      k.shared_bytes = std::max<std::int64_t>(0, number_before(msg, "bytes smem"));
      current = -1;
    }
  });
  for (PtxasKernel& k : kernels) {
    auto it = frames.find({k.name, k.arch});
    if (it == frames.end()) continue;
    k.stack_frame_bytes = it->second.stack;
    k.spill_store_bytes = it->second.spill_stores;
    k.spill_load_bytes = it->second.spill_loads;
  }
  return kernels;
}

const PtxasKernel* find_ptxas_kernel(const std::vector<PtxasKernel>& kernels, std::string_view name,
                                     std::string_view arch) {
  const PtxasKernel* any = nullptr;
  for (const PtxasKernel& k : kernels) {
    if (k.name != name) continue;
    if (k.arch == arch) return &k;
    if (!any) any = &k;
  }
  return any;
}

NvccOutput split_ptxas_report(std::string_view nvcc_output) {
  NvccOutput out;
  bool after_properties = false;
  for_each_line(nvcc_output, [&](std::string_view line, bool had_newline) {
    std::string_view t = trim(line);
    bool ptxas = starts_with(t, kInfo) || (after_properties && is_properties_line(t));
    after_properties = starts_with(t, kInfo) && message_of(t).find("Function properties for") == 0;
    std::string& to = ptxas ? out.ptxas : out.diagnostics;
    to.append(line);
    if (had_newline) to.push_back('\n');
  });
  return out;
}

}  // namespace judge
