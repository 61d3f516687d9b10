// Every reference kernel against a plain CPU double-precision implementation, on every functional case of its
// challenge, with exactly the inputs the judge generates.
#include <gtest/gtest.h>

#include <cstring>

#include "judge/core/catalog.hpp"
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

std::vector<double> to_doubles(const void* host, judge::DType t, std::int64_t n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[i] = t == judge::DType::int32 ? static_cast<const int*>(host)[i] : static_cast<const float*>(host)[i];
  return v;
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
    if (p.role == judge::Role::output) {
      host_outputs.emplace_back(static_cast<std::size_t>(n), 0.0);
      host.set_buffer(p.name, host_outputs.back().data(), judge::DType::float64, n);
      continue;
    }
    judge::generate(d, p.dtype, n, ch.distribution_for(p, c), judge::derive_key(seed, c.name + "/" + p.name),
                    c.scalars, stream);
    host_inputs.emplace_back(bytes);
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));  // generation is asynchronous on the non-blocking stream
    JUDGE_CUDA_CHECK(cudaMemcpy(host_inputs.back().data(), d, bytes, cudaMemcpyDeviceToHost));
    host.set_buffer(p.name, host_inputs.back().data(), p.dtype, n);
  }
  ref.gpu(dev, stream);
  JUDGE_CUDA_CHECK(cudaGetLastError());
  JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  ref.cpu(host);
  judge::Tolerance tol = ch.tolerance_for(c);
  for (const auto& p : ch.params) {
    if (p.role != judge::Role::output) continue;
    std::int64_t n = ch.element_count(p, c.scalars);
    std::vector<unsigned char> got(static_cast<std::size_t>(n) * judge::size_of(p.dtype));
    JUDGE_CUDA_CHECK(cudaMemcpy(got.data(), dev.output<float>(p.name), got.size(), cudaMemcpyDeviceToHost));
    std::vector<double> g = to_doubles(got.data(), p.dtype, n);
    const double* want = host.output(p.name);
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      if (!judge::element_matches(g[i], want[i], tol)) {
        if (bad++ < 5) ADD_FAILURE() << p.name << "[" << i << "]: GPU reference " << g[i] << ", CPU double " << want[i];
      }
    }
    EXPECT_EQ(bad, 0) << p.name << ": " << bad << " of " << n << " elements differ";
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
