// `judge doctor`: what this machine gives the judge, for someone setting it up or asking why a run was judged with
// less isolation than elsewhere: the GPUs, nvcc, CUPTI, Nsight Compute, compute-sanitizer, and each protection a
// submission runs under, on or off and why. It diagnoses and never fails: what is missing is reported, exit 0.
#include <iostream>

#include <nlohmann/json.hpp>

#include "judge/cli/cli.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/build/build.hpp"
#include "judge/core/run/judging.hpp"
#include "judge/core/run/ncu.hpp"
#include "judge/core/run/sanitizer.hpp"
#include "judge/core/sandbox/policy.hpp"
#include "judge/core/sandbox/protections.hpp"

namespace judge::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// One tool: where it is, or why it is not there.
struct Found {
  bool found = false;
  std::string path;
  std::string detail;  // version, or what went wrong
};

json to_json(const Found& f) {
  json j = {{"found", f.found}};
  if (!f.path.empty()) j["path"] = f.path;
  if (!f.detail.empty()) j[f.found ? "version" : "why"] = f.detail;
  return j;
}

template <typename Finder>
Found find_tool(Finder finder) {
  try {
    return {true, finder(), ""};
  } catch (const std::exception& e) {
    return {false, "", e.what()};
  }
}

// CUPTI is loaded by the solver from the toolkit's libraries: its lib64 (or lib), or extras/CUPTI/lib64 in older
// toolkits.
Found find_cupti(const std::string& nvcc) {
  std::vector<fs::path> dirs;
  for (const auto& root : toolkit_dirs(nvcc))
    for (const char* sub : {"", "lib64", "lib", "extras/CUPTI/lib64"}) dirs.push_back(root / sub);
  for (const auto& dir : dirs) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().filename().string().rfind("libcupti.so", 0) == 0) return {true, entry.path().string(), ""};
  }
  return {false, "", "no libcupti.so in the toolkit's library directories: install the CUDA Toolkit's CUPTI "
                     "(cuda-cupti) package; `judge submit` then times with CUDA events"};
}

struct Doctor {
  ProbeResult gpus;
  std::string worker;
  Found nvcc, cupti, ncu, sanitizer;
  std::vector<Protection> protections;
};

Doctor examine() {
  Doctor d;
  try {
    fs::path worker = worker_path();
    d.worker = worker.string();
    d.gpus = probe_devices(worker);
  } catch (const std::exception& e) {
    d.gpus.error = e.what();
  }
  d.nvcc = find_tool([] { return find_nvcc(); });
  if (d.nvcc.found) {
    try {
      d.nvcc.detail = nvcc_version(d.nvcc.path);
    } catch (const std::exception& e) {
      d.nvcc.detail = e.what();
    }
  }
  d.cupti = find_cupti(d.nvcc.path);
  d.ncu = find_tool([] { return find_ncu(); });
  d.sanitizer = find_tool([] { return find_compute_sanitizer(); });
  d.protections = probe_protections();
  return d;
}

json to_json(const Doctor& d) {
  json gpus = json::array();
  for (const auto& g : d.gpus.devices)
    gpus.push_back({{"ordinal", g.ordinal}, {"name", g.name}, {"compute_capability", g.compute_capability},
                    {"uuid", g.uuid}, {"memory_bytes", g.memory_bytes}, {"driver_version", g.driver_version}});
  json j = {{"gpus", gpus},
            {"worker", d.worker},
            {"nvcc", to_json(d.nvcc)},
            {"cupti", to_json(d.cupti)},
            {"ncu", to_json(d.ncu)},
            {"compute_sanitizer", to_json(d.sanitizer)},
            {"protections", d.protections}};
  if (!d.gpus.error.empty()) j["gpu_error"] = d.gpus.error;
  return j;
}

void print_tool(std::ostream& out, const char* name, const Found& f) {
  if (f.found)
    out << fmt::format("  {:<19} {}{}\n", name, f.path, f.detail.empty() ? "" : "  (" + f.detail + ")");
  else
    out << fmt::format("  {:<19} not found: {}\n", name, f.detail);
}

void print(std::ostream& out, const Doctor& d) {
  out << "GPUs\n";
  if (d.gpus.devices.empty())
    out << "  none" << (d.gpus.error.empty() ? "" : ": " + d.gpus.error) << "\n";
  for (const auto& g : d.gpus.devices)
    out << fmt::format("  {}  {} (compute capability {}, {:.0f} GiB){}\n", g.ordinal, g.name, g.compute_capability,
                       static_cast<double>(g.memory_bytes) / (1 << 30), g.uuid.empty() ? "" : "  " + g.uuid);
  out << "Tools\n";
  print_tool(out, "nvcc", d.nvcc);
  print_tool(out, "CUPTI", d.cupti);
  print_tool(out, "ncu", d.ncu);
  print_tool(out, "compute-sanitizer", d.sanitizer);
  out << "Protections\n";
  for (const auto& p : d.protections)
    out << fmt::format("  {:<35} {:<4} {}\n", p.name, p.on ? "on" : "off", p.why);
}

}  // namespace

void setup_doctor(CLI::App& app, const GlobalOptions& g) {
  auto* sub = app.add_subcommand("doctor", "Show what this machine gives the judge: GPUs, nvcc, CUPTI, ncu, "
                                           "compute-sanitizer, and each protection a submission runs under");
  sub->callback([&g] {
    exit_code() = guarded(g, [&](Reporter&) {
      Doctor d = examine();
      if (g.json)
        std::cout << to_json(d).dump(2) << "\n";
      else
        print(std::cout, d);
      return kExitOk;
    });
  });
}

}  // namespace judge::cli
