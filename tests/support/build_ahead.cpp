#include "support/build_ahead.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <stdexcept>
#include <thread>

#include "judge/core/challenge/catalog.hpp"
#include "judge/core/run/judging.hpp"
#include "support/test_support.hpp"

namespace judge::testing {

std::string device_build_arch() {
  const ProbeResult probe = probe_devices(worker_path());
  if (probe.devices.empty())
    throw std::runtime_error("nvidia-smi lists a GPU but the worker found none" +
                             (probe.error.empty() ? std::string() : ": " + probe.error));
  return probe.devices.front().build_arch();
}

std::vector<AheadResult> build_ahead(const std::vector<AheadBuild>& builds, const std::filesystem::path& cache,
                                     const std::string& arch) {
  std::map<std::string, Challenge> challenges;
  for (const auto& b : builds)
    if (!challenges.count(b.challenge)) challenges.emplace(b.challenge, find_challenge(challenges_dir(), b.challenge));

  std::vector<AheadResult> results(builds.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < builds.size();) {
      BuildRequest req;
      req.source = builds[i].file;
      req.arch = arch;
      req.cache_dir = cache;
      try {
        results[i].build = build_solution(challenges.at(builds[i].challenge), req);
      } catch (const std::exception& ex) {
        results[i].error = ex.what();
      }
    }
  };
  std::vector<std::thread> threads;
  const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned k = 0; k < n; ++k) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  return results;
}

}  // namespace judge::testing
