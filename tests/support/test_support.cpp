#include "support/test_support.hpp"

#include <algorithm>
#include <chrono>

#include "judge/core/measure/calibration.hpp"
#include "judge/core/sandbox/process.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include <sys/wait.h>

namespace judge::testing {

std::filesystem::path source_dir() { return JUDGE_SOURCE_DIR; }
std::filesystem::path challenges_dir() { return source_dir() / "challenges"; }
std::filesystem::path cli_path() { return JUDGE_CLI_PATH; }
std::filesystem::path worker_path() { return JUDGE_WORKER_PATH; }

TempDir::TempDir() {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto candidate = std::filesystem::temp_directory_path() / ("judge-test-" + std::to_string(rd()));
    if (std::filesystem::create_directory(candidate)) {
      path_ = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary directory");
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + p.string());
  out << text;
}

CommandResult run_command(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                          double timeout_s) {
  judge::SpawnOptions opt;
  opt.argv = argv;
  opt.env = env;
  opt.output_limit = 16u << 20;
  judge::ChildProcess child = judge::ChildProcess::spawn(opt);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<long>(timeout_s * 1000));
  std::string line;
  while (child.next_message(line, deadline) == judge::ChildProcess::Next::line) {
  }
  judge::ExitStatus status = child.wait(deadline);
  CommandResult r;
  r.exit_code = status.exited ? status.code : -1;
  r.output = child.output();
  return r;
}

nlohmann::json json_of(const std::string& output) {
  // The document starts at the first line that opens an object or an array; notices are plain text lines.
  std::size_t at = 0;
  while (at < output.size() && output[at] != '{' && output[at] != '[') {
    at = output.find('\n', at);
    if (at == std::string::npos) return nlohmann::json(nlohmann::json::value_t::discarded);
    ++at;
  }
  return nlohmann::json::parse(output.begin() + static_cast<std::ptrdiff_t>(at), output.end(), nullptr, false);
}

std::string shared_calibration_file() {
  const char* env = std::getenv("JUDGE_CALIBRATION");
  return env && *env ? std::string(env) : (std::filesystem::path(JUDGE_BINARY_DIR) / "test-calibration.json").string();
}

std::string gpu_name() {
  static const std::string name = [] {
    FILE* pipe = popen("nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null", "r");
    if (!pipe) return std::string();
    std::string out;
    char buf[256];
    while (std::fgets(buf, sizeof buf, pipe)) out += buf;
    pclose(pipe);
    out = out.substr(0, out.find('\n'));
    while (!out.empty() && (out.back() == ' ' || out.back() == '\r')) out.pop_back();
    return out;
  }();
  return name;
}

bool calibration_covers_gpu(const std::string& file) {
  if (!std::filesystem::exists(file)) return false;
  if (gpu_name().empty()) return true;  // cannot tell: a stored file is taken as it is
  try {
    auto c = CalibrationStore(file).find(gpu_name());
    return c && c->plausible();
  } catch (const std::exception&) {
    return false;
  }
}

int assigned_gpu_slots(int fallback) {
  const char* group = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
  if (!group) return fallback;
  const std::string spec = group;
  const auto at = spec.find("slots:");
  if (at == std::string::npos) return fallback;
  try {
    const int slots = std::stoi(spec.substr(at + 6));
    return slots > 0 ? slots : fallback;
  } catch (const std::exception&) {
    return fallback;
  }
}

std::filesystem::path shared_example_cache() { return std::filesystem::path(JUDGE_BINARY_DIR) / "example-cache"; }

std::filesystem::path shared_corpus_cache() { return std::filesystem::path(JUDGE_BINARY_DIR) / "corpus-cache"; }

std::vector<ExampleFile> example_files() {
  std::vector<ExampleFile> out;
  const std::filesystem::path root = source_dir() / "submissions";
  for (const auto& dir : std::filesystem::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : std::filesystem::directory_iterator(dir.path()))
      if (f.path().extension() == ".cu") out.push_back({dir.path().filename().string(), f.path()});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
  return out;
}

namespace {

// ctest gives a GPU test its GPU in CTEST_RESOURCE_GROUP_0_GPUS ("id:1,slots:4"): scripts/test.sh writes one resource
// per GPU, numbered as nvidia-smi numbers them (by PCI bus), or as the positions in a CUDA_VISIBLE_DEVICES the suite
// was started with. The test, and every judge it starts, then see that GPU alone, so two tests that each keep a GPU
// to themselves run side by side on two GPUs. Outside ctest's resource allocation nothing changes.
void see_only_the_assigned_gpu() {
  const char* group = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
  if (!group) return;
  const std::string spec = group;
  const auto at = spec.find("id:");
  if (at == std::string::npos) return;
  const std::string id = spec.substr(at + 3, spec.find(',', at) - (at + 3));
  std::size_t index = 0;
  try {
    index = std::stoul(id);
  } catch (const std::exception&) {
    return;
  }
  std::vector<std::string> visible;
  if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES"); v && *v) {
    std::string list = v;
    for (std::size_t from = 0; from <= list.size();) {
      const auto comma = std::min(list.find(',', from), list.size());
      visible.push_back(list.substr(from, comma - from));
      from = comma + 1;
    }
  }
  if (visible.empty()) {
    ::setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    ::setenv("CUDA_VISIBLE_DEVICES", id.c_str(), 1);
  } else if (index < visible.size()) {
    ::setenv("CUDA_VISIBLE_DEVICES", visible[index].c_str(), 1);
  }
}

}  // namespace

bool gpu_present() {
  static const bool present = [] {
    if (std::getenv("JUDGE_TEST_NO_GPU")) return false;
    FILE* pipe = popen("nvidia-smi -L 2>/dev/null", "r");
    if (!pipe) return false;
    std::string out;
    char buf[256];
    while (std::fgets(buf, sizeof buf, pipe)) out += buf;
    int rc = pclose(pipe);
    const bool found = rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0 && out.find("GPU") != std::string::npos;
    if (found) see_only_the_assigned_gpu();
    return found;
  }();
  return present;
}

}  // namespace judge::testing
