#include "judge/core/measure/result.hpp"

#include <array>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <utility>

#include "judge/core/base/error.hpp"

namespace judge {

namespace {
struct VerdictName {
  Verdict verdict;
  std::string_view id;
  std::string_view label;
};
constexpr std::array<VerdictName, 13> kVerdicts{{
    {Verdict::accepted, "accepted", "Accepted"},
    {Verdict::wrong_answer, "wrong_answer", "Wrong answer"},
    {Verdict::compile_error, "compile_error", "Compile error"},
    {Verdict::runtime_error, "runtime_error", "Runtime error"},
    {Verdict::timeout, "timeout", "Time limit exceeded"},
    {Verdict::crashed, "crashed", "Crashed"},
    {Verdict::memory_violation, "memory_violation", "Memory violation"},
    {Verdict::input_modified, "input_modified", "Input modified"},
    {Verdict::output_not_written, "output_not_written", "Output not written"},
    {Verdict::suspicious_timing, "suspicious_timing", "Suspicious timing"},
    {Verdict::no_device, "no_device", "No CUDA device"},
    {Verdict::internal_error, "internal_error", "Internal error"},
    {Verdict::not_run, "not_run", "Not run"},
}};
}  // namespace

std::string_view to_string(Verdict v) {
  for (const auto& n : kVerdicts)
    if (n.verdict == v) return n.id;
  return "internal_error";
}

std::string_view label(Verdict v) {
  for (const auto& n : kVerdicts)
    if (n.verdict == v) return n.label;
  return "Internal error";
}

std::optional<Verdict> parse_verdict(std::string_view s) {
  for (const auto& n : kVerdicts)
    if (n.id == s) return n.verdict;
  return std::nullopt;
}

std::string DeviceInfo::arch() const {
  std::string digits;
  for (char c : compute_capability)
    if (c != '.') digits += c;
  return "sm_" + digits;
}

std::string DeviceInfo::build_arch() const {
  const int major = std::atoi(compute_capability.c_str());
  return major >= 9 ? arch() + "a" : arch();
}

std::string DeviceInfo::key() const { return uuid.empty() ? fmt::format("device{}", ordinal) : uuid; }

double CaseResult::gflops() const {
  return timing && timing->median_ms > 0 ? flops / (timing->median_ms * 1e-3) / 1e9 : 0.0;
}
double CaseResult::gbps() const {
  return timing && timing->median_ms > 0 ? bytes / (timing->median_ms * 1e-3) / 1e9 : 0.0;
}
double CaseResult::speedup() const {
  return timing && reference_timing && timing->median_ms > 0 ? reference_timing->median_ms / timing->median_ms : 0.0;
}

void to_json(nlohmann::json& j, Verdict v) { j = std::string(to_string(v)); }
void from_json(const nlohmann::json& j, Verdict& v) {
  auto parsed = parse_verdict(j.get<std::string>());
  if (!parsed) JUDGE_THROW(Error, "unknown verdict '{}'", j.get<std::string>());
  v = *parsed;
}

void to_json(nlohmann::json& j, const DeviceInfo& d) {
  j = {{"ordinal", d.ordinal},
       {"name", d.name},
       {"compute_capability", d.compute_capability},
       {"sm_count", d.sm_count},
       {"l2_bytes", d.l2_bytes},
       {"memory_bytes", d.memory_bytes},
       {"clock_khz", d.clock_khz},
       {"memory_clock_khz", d.memory_clock_khz},
       {"memory_bus_bits", d.memory_bus_bits},
       {"driver_version", d.driver_version},
       {"runtime_version", d.runtime_version},
       {"uuid", d.uuid}};
  if (d.sm.known()) j["sm_limits"] = d.sm;
}
void from_json(const nlohmann::json& j, DeviceInfo& d) {
  d.ordinal = j.value("ordinal", 0);
  d.name = j.at("name").get<std::string>();
  d.compute_capability = j.at("compute_capability").get<std::string>();
  d.sm_count = j.value("sm_count", 0);
  d.l2_bytes = j.value("l2_bytes", std::int64_t{0});
  d.memory_bytes = j.value("memory_bytes", std::int64_t{0});
  d.clock_khz = j.value("clock_khz", 0);
  d.memory_clock_khz = j.value("memory_clock_khz", 0);
  d.memory_bus_bits = j.value("memory_bus_bits", 0);
  d.driver_version = j.value("driver_version", 0);
  d.runtime_version = j.value("runtime_version", 0);
  d.uuid = j.value("uuid", std::string());
  d.sm = j.value("sm_limits", SmLimits{});
}

void to_json(nlohmann::json& j, const SmLimits& s) {
  j = {{"cc_major", s.cc_major},
       {"cc_minor", s.cc_minor},
       {"warp_size", s.warp_size},
       {"max_threads_per_block", s.max_threads_per_block},
       {"max_threads_per_sm", s.max_threads_per_sm},
       {"max_blocks_per_sm", s.max_blocks_per_sm},
       {"regs_per_block", s.regs_per_block},
       {"regs_per_sm", s.regs_per_sm},
       {"smem_per_block", s.smem_per_block},
       {"smem_per_block_optin", s.smem_per_block_optin},
       {"smem_per_sm", s.smem_per_sm},
       {"reserved_smem_per_block", s.reserved_smem_per_block}};
}
void from_json(const nlohmann::json& j, SmLimits& s) {
  s.cc_major = j.value("cc_major", 0);
  s.cc_minor = j.value("cc_minor", 0);
  s.warp_size = j.value("warp_size", 32);
  s.max_threads_per_block = j.value("max_threads_per_block", 0);
  s.max_threads_per_sm = j.value("max_threads_per_sm", 0);
  s.max_blocks_per_sm = j.value("max_blocks_per_sm", 0);
  s.regs_per_block = j.value("regs_per_block", 0);
  s.regs_per_sm = j.value("regs_per_sm", 0);
  s.smem_per_block = j.value("smem_per_block", std::int64_t{0});
  s.smem_per_block_optin = j.value("smem_per_block_optin", std::int64_t{0});
  s.smem_per_sm = j.value("smem_per_sm", std::int64_t{0});
  s.reserved_smem_per_block = j.value("reserved_smem_per_block", std::int64_t{0});
}

void to_json(nlohmann::json& j, const KernelLaunch& k) {
  j = {{"name", k.name},
       {"grid", k.grid},
       {"block", k.block},
       {"registers", k.registers},
       {"static_smem", k.static_smem},
       {"dynamic_smem", k.dynamic_smem},
       {"local_bytes", k.local_bytes},
       {"launches_per_call", k.launches_per_call},
       {"gpu_ms_per_call", k.gpu_ms_per_call}};
}
void from_json(const nlohmann::json& j, KernelLaunch& k) {
  k.name = j.at("name").get<std::string>();
  k.grid = j.value("grid", std::array<int, 3>{});
  k.block = j.value("block", std::array<int, 3>{});
  k.registers = j.value("registers", 0);
  k.static_smem = j.value("static_smem", std::int64_t{0});
  k.dynamic_smem = j.value("dynamic_smem", std::int64_t{0});
  k.local_bytes = j.value("local_bytes", std::int64_t{0});
  k.launches_per_call = j.value("launches_per_call", 0.0);
  k.gpu_ms_per_call = j.value("gpu_ms_per_call", 0.0);
}

void to_json(nlohmann::json& j, const Mismatch& m) {
  j = {{"index", m.index}, {"coords", m.coords}, {"got", m.got}, {"expected", m.expected}};
}
void from_json(const nlohmann::json& j, Mismatch& m) {
  m.index = j.at("index").get<std::int64_t>();
  m.coords = j.value("coords", std::vector<std::int64_t>{});
  // NaN and Inf travel as null in JSON: keep them as NaN.
  m.got = j.at("got").is_number() ? j.at("got").get<double>() : std::numeric_limits<double>::quiet_NaN();
  m.expected =
      j.at("expected").is_number() ? j.at("expected").get<double>() : std::numeric_limits<double>::quiet_NaN();
}

void to_json(nlohmann::json& j, const OutputCheck& o) {
  j = {{"name", o.name},
       {"count", o.count},
       {"mismatches", o.mismatches},
       {"unwritten", o.unwritten},
       {"non_finite", o.non_finite},
       {"poison_derived", o.poison_derived},
       {"max_abs_error", o.max_abs_error},
       {"max_rel_error", o.max_rel_error},
       {"first", o.first}};
  if (o.norm_error >= 0) j["norm_error"] = o.norm_error;
  if (!o.message.empty()) j["message"] = o.message;
}
void from_json(const nlohmann::json& j, OutputCheck& o) {
  o.name = j.at("name").get<std::string>();
  o.count = j.value("count", std::int64_t{0});
  o.mismatches = j.value("mismatches", std::int64_t{0});
  o.unwritten = j.value("unwritten", std::int64_t{0});
  o.non_finite = j.value("non_finite", std::int64_t{0});
  o.max_abs_error = j.at("max_abs_error").is_number() ? j.at("max_abs_error").get<double>() : INFINITY;
  o.max_rel_error = j.at("max_rel_error").is_number() ? j.at("max_rel_error").get<double>() : INFINITY;
  o.first = j.value("first", std::vector<Mismatch>{});
  o.poison_derived = j.value("poison_derived", std::int64_t{0});
  o.norm_error = j.contains("norm_error") && j.at("norm_error").is_number() ? j.at("norm_error").get<double>() : -1;
  o.message = j.value("message", std::string());
}

void to_json(nlohmann::json& j, const Timing& t) {
  j = {{"timer", t.timer},         {"samples", t.samples},   {"median_ms", t.median_ms},
       {"min_ms", t.min_ms},       {"max_ms", t.max_ms},     {"mean_ms", t.mean_ms},
       {"noise_pct", t.noise_pct}, {"host_median_ms", t.host_median_ms}, {"converged", t.converged},
       {"clock_mhz", t.clock_mhz}, {"max_clock_mhz", t.max_clock_mhz}, {"throttled", t.throttled}};
  if (!t.charged.empty()) {
    j["gpu_median_ms"] = t.gpu_median_ms;
    j["trusted_median_ms"] = t.trusted_median_ms;
    j["overhead_ms"] = t.overhead_ms;
    j["charged"] = t.charged;
  }
}
void from_json(const nlohmann::json& j, Timing& t) {
  t.timer = j.value("timer", std::string{});
  t.samples = j.value("samples", 0);
  t.median_ms = j.value("median_ms", 0.0);
  t.min_ms = j.value("min_ms", 0.0);
  t.max_ms = j.value("max_ms", 0.0);
  t.mean_ms = j.value("mean_ms", 0.0);
  t.noise_pct = j.value("noise_pct", 0.0);
  t.host_median_ms = j.value("host_median_ms", 0.0);
  t.converged = j.value("converged", false);
  t.clock_mhz = j.value("clock_mhz", 0.0);
  t.max_clock_mhz = j.value("max_clock_mhz", 0.0);
  t.throttled = j.value("throttled", 0);
  t.gpu_median_ms = j.value("gpu_median_ms", 0.0);
  t.trusted_median_ms = j.value("trusted_median_ms", 0.0);
  t.overhead_ms = j.value("overhead_ms", 0.0);
  t.charged = j.value("charged", std::string{});
}

void to_json(nlohmann::json& j, const CaseResult& c) {
  j = {{"name", c.name},       {"kind", c.kind},       {"verdict", c.verdict}, {"message", c.message},
       {"scalars", c.scalars}, {"outputs", c.outputs}, {"flops", c.flops},     {"bytes", c.bytes}};
  if (c.failed_call > 0) j["failed_call"] = c.failed_call;
  if (c.stress) {
    j["stress"] = true;
    j["beyond"] = c.beyond;
  }
  if (!c.inputs_preview.empty()) j["inputs_preview"] = c.inputs_preview;
  if (!c.profile.empty()) j["profile"] = c.profile;
  if (c.sol_floor_ms > 0)
    j["speed_of_light"] = {{"percent", c.sol_percent}, {"floor_ms", c.sol_floor_ms}, {"bound", c.sol_bound}};
  if (c.timing) {
    j["timing"] = *c.timing;
    j["gflops"] = c.gflops();
    j["gbps"] = c.gbps();
  }
  if (c.reference_timing) {
    j["reference_timing"] = *c.reference_timing;
    j["speedup"] = c.speedup();
  }
  if (!c.kernels.empty()) j["kernels"] = c.kernels;
}
void from_json(const nlohmann::json& j, CaseResult& c) {
  c.name = j.at("name").get<std::string>();
  c.kind = j.value("kind", std::string{"test"});
  c.verdict = j.at("verdict").get<Verdict>();
  c.message = j.value("message", std::string{});
  c.failed_call = j.value("failed_call", 0);
  c.stress = j.value("stress", false);
  c.beyond = j.value("beyond", std::string{});
  c.scalars = j.value("scalars", nlohmann::json::object());
  c.outputs = j.value("outputs", std::vector<OutputCheck>{});
  c.inputs_preview = j.value("inputs_preview", std::string{});
  c.flops = j.value("flops", 0.0);
  c.bytes = j.value("bytes", 0.0);
  c.profile = j.value("profile", nlohmann::json::object());
  if (j.contains("speed_of_light")) {
    const auto& s = j.at("speed_of_light");
    c.sol_percent = s.value("percent", 0.0);
    c.sol_floor_ms = s.value("floor_ms", 0.0);
    c.sol_bound = s.value("bound", std::string{});
  }
  if (j.contains("timing")) c.timing = j.at("timing").get<Timing>();
  if (j.contains("reference_timing")) c.reference_timing = j.at("reference_timing").get<Timing>();
  c.kernels = j.value("kernels", std::vector<KernelLaunch>{});
}

}  // namespace judge
