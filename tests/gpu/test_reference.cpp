// Every reference kernel against a plain CPU double-precision implementation, on every functional case of its
// challenge, with exactly the inputs the judge generates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "judge/core/challenge/catalog.hpp"
#include "judge/worker/check.hpp"
#include "judge/worker/cuda_check.hpp"
#include "judge/worker/device_buffer.hpp"
#include "judge/worker/generate.hpp"
#include "judge/worker/reference.hpp"
#include "judge/worker/rng.hpp"
#include "support/test_support.hpp"

namespace {

std::vector<judge::Challenge> all_challenges() {
  std::vector<judge::Challenge> out;
  for (auto& e : judge::scan_challenges(judge::testing::challenges_dir())) {
    if (!e.challenge) ADD_FAILURE() << e.error;
    else out.push_back(*e.challenge);
  }
  return out;
}

TEST(Reference, EveryChallengeHasOne) {
  auto challenges = all_challenges();
  ASSERT_FALSE(challenges.empty()) << "no challenges found in " << judge::testing::challenges_dir();
  for (const auto& c : challenges) {
    const judge::ReferenceEntry* r = judge::find_reference(c.id);
    ASSERT_NE(r, nullptr) << "reference/" << c.id << ".cu is missing or does not register itself";
    EXPECT_NE(r->gpu, nullptr);
    EXPECT_NE(r->cpu, nullptr);
  }
}

// Every generator and checker a spec names is registered in the worker (the host-side spec check cannot know).
TEST(Reference, EveryNamedGeneratorAndCheckerExists) {
  for (const auto& c : all_challenges()) {
    for (const auto& p : c.params) {
      if (!p.check.empty()) EXPECT_TRUE(judge::has_checker(p.check)) << c.id << ": checker '" << p.check << "'";
      std::vector<const judge::Distribution*> dists = {&p.init};
      for (const auto* list : {&c.tests, &c.benchmarks})
        for (const auto& k : *list)
          if (auto it = k.inputs.find(p.name); it != k.inputs.end()) dists.push_back(&it->second);
      for (const auto* d : dists)
        if (d->kind == judge::Distribution::Kind::custom)
          EXPECT_TRUE(judge::has_generator(d->custom)) << c.id << ": generator '" << d->custom << "'";
    }
  }
}

void check_case(const judge::Challenge& ch, const judge::ReferenceEntry& ref, const judge::Case& c,
                cudaStream_t stream, cublasHandle_t cublas) {
  SCOPED_TRACE(ch.id + " / " + c.name);
  std::uint64_t seed = 12345;
  judge::DeviceArgs dev;
  dev.set_cublas(cublas);
  judge::HostArgs host;
  std::vector<judge::DeviceBuffer> device_buffers;
  std::vector<std::vector<unsigned char>> host_inputs;
  std::vector<std::vector<double>> host_outputs;
  host_inputs.reserve(ch.params.size());
  host_outputs.reserve(ch.params.size());
  for (const auto& p : ch.params) {
    if (!p.is_buffer()) {
      dev.set_scalar(p.name, c.scalars.at(p.name));
      host.set_scalar(p.name, c.scalars.at(p.name));
      continue;
    }
    std::int64_t n = ch.element_count(p, c.scalars);
    std::size_t bytes = static_cast<std::size_t>(n) * judge::size_of(p.dtype);
    device_buffers.emplace_back(bytes);
    void* d = device_buffers.back().get();
    dev.set_buffer(p.name, d, p.dtype, n);
    if (p.role == judge::Role::output || p.role == judge::Role::inout) {
      host_outputs.emplace_back(static_cast<std::size_t>(n), 0.0);
      host.set_output(p.name, host_outputs.back().data(), n);
      if (p.role == judge::Role::output) continue;
    }
    const judge::Distribution& dist = ch.distribution_for(p, c);
    judge::generate(d, p.dtype, n, dist, judge::input_key(seed, c.name, p.name, dist), c.scalars, stream);
    host_inputs.emplace_back(bytes);
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));  // generation is asynchronous on the non-blocking stream
    JUDGE_CUDA_CHECK(cudaMemcpy(host_inputs.back().data(), d, bytes, cudaMemcpyDeviceToHost));
    host.set_buffer(p.name, host_inputs.back().data(), p.dtype, n);
  }
  ref.gpu(dev, stream);
  JUDGE_CUDA_CHECK(cudaGetLastError());
  JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  ref.cpu(host);
  for (const auto& p : ch.params) {
    if (p.role != judge::Role::output && p.role != judge::Role::inout) continue;
    judge::Tolerance tol = ch.tolerance_for(c);
    if (judge::is_integer(p.dtype)) tol = judge::Tolerance{true, 0, 0, 0};
    std::int64_t n = ch.element_count(p, c.scalars);
    // The GPU result in its own dtype, read as doubles; the CPU's is rounded to that dtype first (an integer or
    // half output is compared as the GPU can store it).
    std::vector<double> g = judge::download_as_double(dev.buffer(p.name, judge::size_of(p.dtype)).data, p.dtype, n,
                                                      stream);
    const double* want = host.output(p.name);
    std::int64_t bad = 0;
    double sq_diff = 0, sq_ref = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      double w = want[i];
      if (judge::is_integer(p.dtype)) w = std::round(w);
      if (std::isfinite(g[i]) && std::isfinite(w)) {
        sq_diff += (g[i] - w) * (g[i] - w);
        sq_ref += w * w;
      }
      if (!judge::element_matches(g[i], w, tol)) {
        if (bad++ < 5) ADD_FAILURE() << p.name << "[" << i << "]: GPU reference " << g[i] << ", CPU double " << w;
      }
    }
    EXPECT_EQ(bad, 0) << p.name << ": " << bad << " of " << n << " elements differ";
    if (tol.norm())
      EXPECT_TRUE(judge::norm_matches(sq_diff, sq_ref, tol))
          << p.name << ": relative L2 error " << std::sqrt(sq_diff / sq_ref) << " above " << tol.rel_norm;
  }
}

TEST(Reference, MatchesCpuDoubleOnEveryTestCase) {
  JUDGE_REQUIRE_GPU();
  cudaStream_t stream;
  JUDGE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasHandle_t cublas;
  ASSERT_EQ(cublasCreate(&cublas), CUBLAS_STATUS_SUCCESS);
  for (const auto& ch : all_challenges()) {
    const judge::ReferenceEntry* ref = judge::find_reference(ch.id);
    ASSERT_NE(ref, nullptr) << ch.id;
    for (const auto& c : ch.tests) check_case(ch, *ref, c, stream, cublas);
  }
  cublasDestroy(cublas);
  JUDGE_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace
