#include "judge/core/measure/kernel_resources.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <tuple>

namespace judge {

std::string demangle_kernel_name(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : name;
}

std::string short_kernel_name(const std::string& name) {
  std::string d = demangle_kernel_name(name);
  // The parameter list opens at the first '(' outside template arguments; "(anonymous namespace)" is no list.
  int depth = 0;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < d.size(); ++i) {
    char c = d[i];
    if (c == '<') ++depth;
    else if (c == '>') depth = std::max(0, depth - 1);
    else if (c == '(' && depth == 0) {
      if (d.compare(i, 21, "(anonymous namespace)") == 0) {
        i += 20;
        continue;
      }
      cut = i;
      break;
    }
  }
  std::string s = d.substr(0, cut);
  if (s.rfind("void ", 0) == 0) s.erase(0, 5);
  return s.empty() ? d : s;
}

std::vector<KernelResources> kernel_resources(const std::vector<CaseResult>& cases,
                                              const std::vector<PtxasKernel>& ptxas, const DeviceInfo* device) {
  using Key = std::tuple<std::string, std::array<int, 3>, int, std::int64_t, std::int64_t, std::int64_t>;
  std::map<Key, std::size_t> index;
  std::vector<KernelResources> rows;
  std::vector<double> gpu_ms;  // per row, summed over cases
  const std::string arch = device ? device->build_arch() : std::string();
  for (const CaseResult& c : cases) {
    if (c.kind != "benchmark" || !c.timing || c.kernels.empty()) continue;
    for (const KernelLaunch& k : c.kernels) {
      Key key{k.name, k.block, k.registers, k.static_smem, k.dynamic_smem, k.local_bytes};
      auto [it, inserted] = index.emplace(key, rows.size());
      if (inserted) {
        KernelResources r;
        r.name = k.name;
        r.display_name = short_kernel_name(k.name);
        r.block = k.block;
        r.registers = k.registers;
        r.static_smem = k.static_smem;
        r.dynamic_smem = k.dynamic_smem;
        r.local_bytes = k.local_bytes;
        if (const PtxasKernel* p = find_ptxas_kernel(ptxas, k.name, arch)) r.ptxas = *p;
        BlockResources b;
        b.threads = k.block_threads();
        b.registers_per_thread = k.registers;
        b.static_smem = k.static_smem;
        b.dynamic_smem = k.dynamic_smem;
        b.barriers = r.ptxas && r.ptxas->barriers >= 0 ? r.ptxas->barriers : 1;
        r.occupancy = device ? theoretical_occupancy(device->sm, b) : theoretical_occupancy(SmLimits{}, b);
        rows.push_back(std::move(r));
        gpu_ms.push_back(0);
      }
      KernelResources& r = rows[it->second];
      // The same kernel with another grid in the same case counts once among its cases.
      if (r.cases.empty() || r.cases.back() != c.name) r.cases.push_back(c.name);
      r.launches_per_call += k.launches_per_call;
      gpu_ms[it->second] += k.gpu_ms_per_call;
    }
  }
  double total_ms = 0;
  for (double ms : gpu_ms) total_ms += ms;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].launches_per_call /= static_cast<double>(rows[i].cases.size());
    rows[i].time_percent = total_ms > 0 ? 100.0 * gpu_ms[i] / total_ms : 0.0;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const KernelResources& a, const KernelResources& b) {
    return a.time_percent > b.time_percent;
  });
  return rows;
}

nlohmann::json to_json(const KernelResources& k) {
  nlohmann::json j = {{"name", k.name},
                      {"display_name", k.display_name},
                      {"block", k.block},
                      {"block_threads", k.block_threads()},
                      {"registers", k.registers},
                      {"static_smem", k.static_smem},
                      {"dynamic_smem", k.dynamic_smem},
                      {"local_bytes", k.local_bytes},
                      {"launches_per_call", k.launches_per_call},
                      {"time_percent", k.time_percent},
                      {"cases", k.cases}};
  if (k.ptxas) {
    j["ptxas"] = {{"registers", k.ptxas->registers},
                  {"spill_store_bytes", k.ptxas->spill_store_bytes},
                  {"spill_load_bytes", k.ptxas->spill_load_bytes},
                  {"stack_frame_bytes", k.ptxas->stack_frame_bytes},
                  {"shared_bytes", k.ptxas->shared_bytes},
                  {"arch", k.ptxas->arch}};
    if (k.ptxas->barriers >= 0) j["ptxas"]["barriers"] = k.ptxas->barriers;
  }
  nlohmann::json o = {{"blocks_per_sm", k.occupancy.blocks_per_sm},
                      {"warps_per_sm", k.occupancy.warps_per_sm},
                      {"max_warps_per_sm", k.occupancy.max_warps_per_sm},
                      {"percent", k.occupancy.percent()},
                      {"limited_by", k.occupancy.limited_by}};
  if (!k.occupancy.error.empty()) o["error"] = k.occupancy.error;
  j["occupancy"] = o;
  return j;
}

KernelResources kernel_resources_from_json(const nlohmann::json& j) {
  KernelResources k;
  k.name = j.at("name").get<std::string>();
  k.display_name = j.at("display_name").get<std::string>();
  k.block = j.at("block").get<std::array<int, 3>>();
  k.registers = j.at("registers").get<int>();
  k.static_smem = j.at("static_smem").get<std::int64_t>();
  k.dynamic_smem = j.at("dynamic_smem").get<std::int64_t>();
  k.local_bytes = j.at("local_bytes").get<std::int64_t>();
  k.launches_per_call = j.at("launches_per_call").get<double>();
  k.time_percent = j.at("time_percent").get<double>();
  k.cases = j.at("cases").get<std::vector<std::string>>();
  if (j.contains("ptxas")) {
    const nlohmann::json& p = j.at("ptxas");
    PtxasKernel x;
    x.name = k.name;
    x.registers = p.at("registers").get<int>();
    x.spill_store_bytes = p.at("spill_store_bytes").get<std::int64_t>();
    x.spill_load_bytes = p.at("spill_load_bytes").get<std::int64_t>();
    x.stack_frame_bytes = p.at("stack_frame_bytes").get<std::int64_t>();
    x.shared_bytes = p.at("shared_bytes").get<std::int64_t>();
    x.arch = p.at("arch").get<std::string>();
    x.barriers = p.value("barriers", -1);
    k.ptxas = x;
  }
  const nlohmann::json& o = j.at("occupancy");
  k.occupancy.blocks_per_sm = o.at("blocks_per_sm").get<int>();
  k.occupancy.warps_per_sm = o.at("warps_per_sm").get<int>();
  k.occupancy.max_warps_per_sm = o.at("max_warps_per_sm").get<int>();
  k.occupancy.limited_by = o.at("limited_by").get<std::string>();
  k.occupancy.error = o.value("error", std::string());
  return k;
}

}  // namespace judge
