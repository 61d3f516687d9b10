#include "judge/core/batch/batch.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "judge/core/base/error.hpp"
#include "judge/core/build/build.hpp"
#include "judge/core/present/report.hpp"

namespace judge {

namespace fs = std::filesystem;

std::vector<BatchEntry> collect_submissions(const std::vector<std::string>& paths, NameFrom name_from) {
  std::vector<fs::path> files;
  for (const auto& p : paths) {
    std::error_code ec;
    const fs::path path(p);
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> found;
      for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file() && it->path().extension() == ".cu") found.push_back(it->path());
      if (ec) JUDGE_THROW(Error, "cannot read the directory {}: {}", p, ec.message());
      if (found.empty()) JUDGE_THROW(Error, "{} holds no .cu file: nothing to judge there", p);
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(path, ec)) {
      if (path.extension() != ".cu") JUDGE_THROW(Error, "{} is not a .cu file", p);
      files.push_back(path);
    } else {
      JUDGE_THROW(Error, "{} does not exist", p);
    }
  }
  std::vector<BatchEntry> out;
  std::map<std::string, int> seen;
  for (const auto& f : files) {
    std::string name = name_from == NameFrom::folder ? fs::absolute(f).parent_path().filename().string()
                                                     : f.stem().string();
    if (name.empty()) name = f.stem().string();
    int n = ++seen[name];
    if (n > 1) name += fmt::format("-{}", n);
    out.push_back({f, name});
  }
  return out;
}

std::vector<int> parse_gpus(const std::string& spec, int device_count) {
  if (device_count <= 0) JUDGE_THROW(Error, "no CUDA device is present: nothing can be judged");
  std::vector<int> out;
  if (spec == "all") {
    for (int d = 0; d < device_count; ++d) out.push_back(d);
    return out;
  }
  std::vector<std::string> items(1);
  for (char ch : spec) {
    if (ch == ',') items.emplace_back();
    else items.back() += ch;
  }
  std::set<int> used;
  for (const std::string& item : items) {
    int d = -1;
    std::size_t end = 0;
    try {
      d = std::stoi(item, &end);
    } catch (const std::exception&) {
      end = 0;
    }
    if (end == 0 || end != item.size() || d < 0)
      JUDGE_THROW(Error, "--gpus: '{}' is not a GPU ordinal; give 'all' or ordinals like 0,2", item);
    if (d >= device_count)
      JUDGE_THROW(Error, "--gpus: there is no GPU {} ({} present: 0 to {})", d, device_count, device_count - 1);
    if (!used.insert(d).second) JUDGE_THROW(Error, "--gpus: GPU {} is named twice", d);
    out.push_back(d);
  }
  if (out.empty()) JUDGE_THROW(Error, "--gpus: no GPU given; give 'all' or ordinals like 0,2");
  return out;
}

BatchProtections batch_protections(const std::vector<BatchResult>& results) {
  BatchProtections out;
  std::map<std::string, std::size_t> recorded;  // runs that recorded each protection, on or off
  for (const auto& r : results) {
    if (r.report.protections.empty()) continue;
    ++out.recorded;
    for (const auto& p : merge_protections(r.report.protections)) {
      ++recorded[p.name];
      if (p.on) continue;
      auto same = std::find_if(out.off.begin(), out.off.end(),
                               [&](const BatchProtections::Off& o) { return o.name == p.name; });
      if (same == out.off.end()) same = out.off.insert(out.off.end(), {p.name, p.why, 0, 0});
      ++same->runs;
    }
  }
  for (auto& o : out.off) o.of = recorded[o.name];
  return out;
}

std::vector<BatchResult> run_batch(const Challenge& challenge, const std::vector<BatchEntry>& entries,
                                   const BatchPlan& plan, const std::function<void(const BatchResult&)>& on_done,
                                   const std::function<void(std::size_t, int)>& on_start) {
  std::vector<BatchResult> results(entries.size());
  std::atomic<std::size_t> next{0};
  std::mutex done_mutex;
  // Each thread judges one entry at a time on its GPU; judge_submission waits for its worker, so the threads outlive
  // their children (the workers die with the thread that forked them: process.cpp).
  auto judge_on = [&](int device) {
    JudgeOptions o = plan.options;
    o.device = device;
    auto cal = plan.calibration.find(device);
    o.calibration = cal != plan.calibration.end() ? cal->second : std::nullopt;
    for (std::size_t i; (i = next.fetch_add(1)) < entries.size();) {
      BatchResult r{i, entries[i], device, JudgeReport{}};
      o.lock_holder = fmt::format("judge batch ({})", entries[i].name);
      if (on_start) on_start(i, device);
      try {
        r.report = judge_submission(challenge, entries[i].source, o);
      } catch (const std::exception& e) {
        r.report.challenge = challenge.id;
        r.report.mode = Mode::submit;
        r.report.verdict = Verdict::internal_error;
        r.report.message = e.what();
      }
      std::lock_guard<std::mutex> lock(done_mutex);
      results[i] = r;
      if (on_done) on_done(results[i]);
    }
  };
  // Building ahead: the same requests judge_submission makes, so its own build finds them in the cache. A run that
  // gets to an entry first builds it itself (the cache copes with two builders of one key).
  std::atomic<std::size_t> next_build{0};
  auto build_ahead = [&] {
    for (std::size_t i; (i = next_build.fetch_add(1)) < entries.size();) {
      for (const auto& arch : plan.build_archs) {
        BuildRequest req;
        req.source = entries[i].source;
        req.arch = arch;
        req.cache_dir = plan.options.cache_dir;
        req.extra_flags = plan.options.nvcc_flags;
        try {
          build_solution(challenge, req);
        } catch (const std::exception&) {
          // The run's own build meets the same problem and reports it as that submission's verdict.
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (int k = 0; k < plan.build_threads && !plan.build_archs.empty(); ++k) threads.emplace_back(build_ahead);
  for (int device : plan.gpus)
    for (int k = 0; k < std::max(1, plan.runs_per_gpu); ++k) threads.emplace_back(judge_on, device);
  for (auto& t : threads) t.join();
  return results;
}

}  // namespace judge
