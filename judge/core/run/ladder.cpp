#include "judge/core/run/ladder.hpp"

#include <algorithm>

#include "judge/core/base/error.hpp"

namespace judge {

namespace {

using nlohmann::json;

const CaseResult* timed_benchmark(const JudgeReport& r, const std::string& name) {
  for (const auto& c : r.cases)
    if (c.kind == "benchmark" && c.name == name && c.timing && c.timing->median_ms > 0) return &c;
  return nullptr;
}

// a / b when both are known, else 0 (unknown).
double ratio(double a, double b) { return a > 0 && b > 0 ? a / b : 0; }

json known(double v) { return v > 0 ? json(v) : json(nullptr); }

json text_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

}  // namespace

std::string_view to_string(Bound b) { return b == Bound::compute ? "compute" : "memory"; }
std::string_view rate_unit(Bound b) { return b == Bound::compute ? "GFLOP/s" : "GB/s"; }

std::size_t Ladder::accepted() const {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r.accepted(); }));
}

std::string Ladder::case_label(const std::string& name) const {
  const bool stress = std::find(stress_cases.begin(), stress_cases.end(), name) != stress_cases.end();
  return stress ? name + " (stress)" : name;
}

const LadderRow* Ladder::no_device() const {
  for (const auto& r : rows)
    if (r.verdict == Verdict::no_device) return &r;
  return nullptr;
}

Bound ladder_bound(const Challenge& challenge, const std::vector<JudgeReport>& reports) {
  // Every rung gets the same bound for a case (it depends on the case's flops and bytes and on the GPU, not on the
  // time), so the first report that has one says it.
  int compute = 0, memory = 0;
  for (const auto& b : challenge.benchmarks)
    for (const auto& r : reports)
      if (const CaseResult* c = timed_benchmark(r, b.name); c && !c->sol_bound.empty()) {
        ++(c->sol_bound == "memory" ? memory : compute);
        break;
      }
  if (compute + memory > 0) return memory > compute ? Bound::memory : Bound::compute;
  for (const auto& b : challenge.benchmarks)
    if (challenge.flops_for(b.scalars) > 0) return Bound::compute;
  return Bound::memory;
}

std::optional<Ceiling> ladder_ceiling(const Challenge& challenge, Bound bound, const Calibration& calibration) {
  Ceiling c{"copy bandwidth", calibration.copy_gbps};
  if (bound == Bound::compute) {
    auto has = [&](DType t) {
      return std::any_of(challenge.params.begin(), challenge.params.end(),
                         [t](const Param& p) { return p.is_buffer() && p.role != Role::output && p.dtype == t; });
    };
    // The same precedence as the speed-of-light's compute roof (compute_roof_gflops), with cuBLAS's FP32 GEMM for
    // FP32 inputs: the rate a tuned FP32 kernel is measured against.
    if (has(DType::int8) || has(DType::uint8))
      c = {"cuBLAS INT8 GEMM", calibration.int8_gops};
    else if (has(DType::float16))
      c = {"cuBLAS FP16 GEMM", calibration.fp16_gflops};
    else if (has(DType::bfloat16))
      c = {"cuBLAS BF16 GEMM", calibration.bf16_gflops};
    else
      c = {"cuBLAS FP32 GEMM", calibration.sgemm_gflops};
  }
  if (!(c.rate > 0)) return std::nullopt;
  return c;
}

Ladder make_ladder(const Challenge& challenge, const std::vector<Rung>& rungs,
                   const std::vector<JudgeReport>& reports) {
  Ladder l;
  l.challenge = challenge.id;
  l.bound = ladder_bound(challenge, reports);
  for (const auto& b : challenge.benchmarks) {
    l.cases.push_back(b.name);
    if (b.stress) l.stress_cases.push_back(b.name);
  }
  for (const auto& r : reports) {
    if (l.gpu_name.empty() && r.device) l.gpu_name = r.device->name;
    if (!l.ceiling && r.calibration) l.ceiling = ladder_ceiling(challenge, l.bound, *r.calibration);
  }
  // Indices into l.rows of the first and the latest accepted rungs.
  std::optional<std::size_t> first, previous;
  for (std::size_t i = 0; i < rungs.size() && i < reports.size(); ++i) {
    const JudgeReport& r = reports[i];
    LadderRow row;
    row.rung = rungs[i];
    row.verdict = r.verdict;
    row.message = r.message;
    row.failed_case = r.failed_case;
    if (!r.build.ok) row.diagnostics = r.build.diagnostics;
    if (r.accepted()) {
      row.score_ms = r.score_ms;
      row.kernels = kernel_resources(r.cases, r.build.ptxas, r.device ? &*r.device : nullptr);
      if (previous) row.previous = l.rows[*previous].rung.name;
      for (std::size_t k = 0; k < l.cases.size(); ++k) {
        LadderCell cell;
        cell.case_name = l.cases[k];
        if (const CaseResult* c = timed_benchmark(r, cell.case_name)) {
          cell.median_ms = c->timing->median_ms;
          cell.rate = l.bound == Bound::compute ? c->gflops() : c->gbps();
          cell.sol_percent = c->sol_percent;
          if (c->reference_timing) cell.reference_ms = c->reference_timing->median_ms;
        }
        // The first accepted rung is compared with itself: 1x.
        cell.vs_first = ratio(first ? l.rows[*first].cells[k].median_ms : cell.median_ms, cell.median_ms);
        if (previous) cell.vs_previous = ratio(l.rows[*previous].cells[k].median_ms, cell.median_ms);
        cell.vs_reference = ratio(cell.reference_ms, cell.median_ms);
        row.cells.push_back(cell);
      }
      previous = l.rows.size();
      if (!first) first = previous;
    }
    l.rows.push_back(std::move(row));
  }
  if (first) l.first = l.rows[*first].rung.name;
  return l;
}

json to_json(const Ladder& l) {
  json rows = json::array();
  for (const auto& row : l.rows) {
    json cells = json::array();
    for (const auto& c : row.cells)
      cells.push_back({{"name", c.case_name},
                       {"median_ms", known(c.median_ms)},
                       {"rate", known(c.rate)},
                       {"sol_percent", known(c.sol_percent)},
                       {"reference_ms", known(c.reference_ms)},
                       {"vs_previous", known(c.vs_previous)},
                       {"vs_first", known(c.vs_first)},
                       {"vs_reference", known(c.vs_reference)}});
    json j = {{"rung", row.rung.name},
              {"file", row.rung.file.string()},
              {"idea", row.rung.idea},
              {"verdict", row.verdict},
              {"accepted", row.accepted()},
              {"message", row.message},
              {"failed_case", text_or_null(row.failed_case)},
              {"score_ms", known(row.score_ms)},
              {"previous", text_or_null(row.previous)},
              {"cases", cells}};
    if (!row.diagnostics.empty()) j["diagnostics"] = row.diagnostics;
    json kernels = json::array();
    for (const auto& k : row.kernels) kernels.push_back(to_json(k));
    j["kernels"] = kernels;
    rows.push_back(std::move(j));
  }
  json ceiling = nullptr;
  if (l.ceiling) ceiling = {{"name", l.ceiling->name}, {"rate", l.ceiling->rate}};
  return {{"challenge", l.challenge},
          {"gpu", text_or_null(l.gpu_name)},
          {"bound", to_string(l.bound)},
          {"unit", rate_unit(l.bound)},
          {"ceiling", ceiling},
          {"cases", l.cases},
          {"stress_cases", l.stress_cases},
          {"first", text_or_null(l.first)},
          {"accepted", l.accepted()},
          {"all_accepted", l.accepted() == l.rows.size()},
          {"rungs", rows}};
}

namespace {

double number_or_zero(const json& j, const char* key) {
  const json& v = j.at(key);
  return v.is_null() ? 0.0 : v.get<double>();
}

std::string text_or_empty(const json& j, const char* key) {
  const json& v = j.at(key);
  return v.is_null() ? std::string() : v.get<std::string>();
}

}  // namespace

Ladder ladder_from_json(const json& j, const std::string& source) {
  try {
    Ladder l;
    l.challenge = j.at("challenge").get<std::string>();
    l.gpu_name = text_or_empty(j, "gpu");
    const std::string bound = j.at("bound").get<std::string>();
    if (bound != "compute" && bound != "memory")
      JUDGE_THROW(Error, "{}: \"bound\" is \"{}\"; a ladder is \"compute\" or \"memory\"-bound", source, bound);
    l.bound = bound == "compute" ? Bound::compute : Bound::memory;
    if (!j.at("ceiling").is_null())
      l.ceiling = Ceiling{j.at("ceiling").at("name").get<std::string>(), j.at("ceiling").at("rate").get<double>()};
    l.cases = j.at("cases").get<std::vector<std::string>>();
    l.stress_cases = j.value("stress_cases", std::vector<std::string>{});  // absent in runs stored before stress cases
    l.first = text_or_empty(j, "first");
    for (const json& r : j.at("rungs")) {
      LadderRow row;
      row.rung.file = r.at("file").get<std::string>();
      row.rung.name = r.at("rung").get<std::string>();
      row.rung.idea = r.at("idea").get<std::string>();
      row.verdict = r.at("verdict").get<Verdict>();
      row.message = r.at("message").get<std::string>();
      row.failed_case = text_or_empty(r, "failed_case");
      row.diagnostics = r.value("diagnostics", std::string());
      row.score_ms = number_or_zero(r, "score_ms");
      row.previous = text_or_empty(r, "previous");
      for (const json& c : r.at("cases")) {
        LadderCell cell;
        cell.case_name = c.at("name").get<std::string>();
        cell.median_ms = number_or_zero(c, "median_ms");
        cell.rate = number_or_zero(c, "rate");
        cell.sol_percent = number_or_zero(c, "sol_percent");
        cell.reference_ms = number_or_zero(c, "reference_ms");
        cell.vs_previous = number_or_zero(c, "vs_previous");
        cell.vs_first = number_or_zero(c, "vs_first");
        cell.vs_reference = number_or_zero(c, "vs_reference");
        row.cells.push_back(cell);
      }
      // Runs stored before kernels were recorded have none: the README then says so rather than guessing.
      if (r.contains("kernels"))
        for (const json& k : r.at("kernels")) row.kernels.push_back(kernel_resources_from_json(k));
      if (row.accepted() && row.cells.size() != l.cases.size())
        JUDGE_THROW(Error, "{}: rung {} has {} cases where the ladder has {}", source, row.rung.name,
                    row.cells.size(), l.cases.size());
      l.rows.push_back(std::move(row));
    }
    return l;
  } catch (const json::exception& e) {
    JUDGE_THROW(Error, "{}: not a stored ladder run (the output of `judge ladder --json`): {}", source, e.what());
  }
}

}  // namespace judge
