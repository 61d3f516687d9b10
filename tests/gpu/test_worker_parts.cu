// The worker's building blocks on a real GPU: generation is deterministic and regenerable, guards catch one-byte
// overruns on either side, the checker counts what it should, and the timer sees work on every stream.
#include <gtest/gtest.h>

#include <algorithm>

#include <memory>
#include <vector>

#include <unistd.h>

#include "judge/worker/check.hpp"
#include "judge/worker/cuda_check.hpp"
#include "judge/worker/device_buffer.hpp"
#include "judge/worker/generate.hpp"
#include "judge/worker/shared_allocation.hpp"
#include "judge/worker/timer.hpp"
#include "support/test_support.hpp"

namespace {

using judge::DeviceBuffer;
using judge::Distribution;
using judge::DType;

std::vector<float> download(const void* d, std::size_t n) {
  std::vector<float> h(n);
  JUDGE_CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  return h;
}

TEST(Generate, SameKeySameValuesOtherKeyOtherValues) {
  JUDGE_REQUIRE_GPU();
  const std::int64_t n = 100003;
  DeviceBuffer a(n * 4), b(n * 4), c(n * 4);
  Distribution d;
  d.low = -2;
  d.high = 3;
  judge::generate(a.get(), DType::float32, n, d, 7, {}, 0);
  judge::generate(b.get(), DType::float32, n, d, 7, {}, 0);
  judge::generate(c.get(), DType::float32, n, d, 8, {}, 0);
  auto ha = download(a.get(), n), hb = download(b.get(), n), hc = download(c.get(), n);
  EXPECT_EQ(ha, hb);
  EXPECT_NE(ha, hc);
  double mean = 0;
  for (float x : ha) {
    ASSERT_GE(x, -2.0f);
    ASSERT_LE(x, 3.0f);
    mean += x;
  }
  EXPECT_NEAR(mean / n, 0.5, 0.05);
  EXPECT_EQ(judge::count_changed(a.get(), DType::float32, n, d, 7, {}, 0), 0);
  JUDGE_CUDA_CHECK(cudaMemset(static_cast<float*>(a.get()) + 500, 0, 3 * sizeof(float)));
  EXPECT_EQ(judge::count_changed(a.get(), DType::float32, n, d, 7, {}, 0), 3);
}

TEST(Generate, SpecialsAppearAtTheirFraction) {
  JUDGE_REQUIRE_GPU();
  const std::int64_t n = 1 << 20;
  DeviceBuffer a(n * 4);
  Distribution d;
  d.specials = {std::numeric_limits<double>::quiet_NaN()};
  d.special_fraction = 0.01;
  judge::generate(a.get(), DType::float32, n, d, 1, {}, 0);
  int nans = 0;
  for (float x : download(a.get(), n)) nans += std::isnan(x);
  EXPECT_NEAR(nans / double(n), 0.01, 0.002);
}

__global__ void poke(unsigned char* p) { *p = 0x5a; }

TEST(Guards, CatchOneByteEitherSide) {
  JUDGE_REQUIRE_GPU();
  for (std::size_t bytes : {4u, 1000u, 4096u}) {
    judge::GuardedBuffer b(bytes);
    judge::fill_guards(b, 99, 0);
    EXPECT_TRUE(judge::check_guards(b, 99, 0).intact());
    auto* data = static_cast<unsigned char*>(b.data());
    poke<<<1, 1>>>(data + bytes);  // one past the end
    auto after = judge::check_guards(b, 99, 0);
    EXPECT_EQ(after.back_changed, 1) << bytes;
    EXPECT_EQ(after.first_back_offset, 0);
    judge::fill_guards(b, 99, 0);
    poke<<<1, 1>>>(data - 4);
    auto before = judge::check_guards(b, 99, 0);
    EXPECT_EQ(before.front_changed, 1);
    EXPECT_EQ(before.first_front_offset, -4);
  }
}

// What the worker shares with the solver: an exported fd maps the same memory, writes through one mapping are seen
// through the other, and the memory outlives the owner's release while a mapping holds it.
TEST(SharedAllocation, ExportedFdMapsTheSameMemory) {
  JUDGE_REQUIRE_GPU();
  const std::size_t n = 1000;
  auto owner = std::make_unique<judge::SharedAllocation>(n * sizeof(float));
  ASSERT_GE(owner->mapped_size(), n * sizeof(float));
  std::vector<float> ones(n, 1.5f);
  JUDGE_CUDA_CHECK(cudaMemcpy(owner->get(), ones.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  int fd = owner->export_fd();
  ASSERT_GE(fd, 0);
  judge::MappedAllocation view(fd, owner->mapped_size());
  ::close(fd);
  EXPECT_NE(view.get(), owner->get());  // another address range, the same pages
  EXPECT_EQ(download(view.get(), n), ones);
  std::vector<float> twos(n, 2.5f);
  JUDGE_CUDA_CHECK(cudaMemcpy(view.get(), twos.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  EXPECT_EQ(download(owner->get(), n), twos);
  owner.reset();
  EXPECT_EQ(download(view.get(), n), twos);
}

TEST(SharedAllocation, FdOfAnotherSizeIsRefused) {
  JUDGE_REQUIRE_GPU();
  judge::SharedAllocation owner(4096);
  int fd = owner.export_fd();
  EXPECT_THROW(judge::MappedAllocation(fd, owner.mapped_size() * 4), judge::CudaError);
  ::close(fd);
}

TEST(Check, CountsMismatchesUnwrittenAndNonFinite) {
  JUDGE_REQUIRE_GPU();
  const int n = 1000;
  std::vector<float> want(n, 1.0f), got(n, 1.0f);
  got[10] = 1.5f;
  got[20] = NAN;
  std::uint32_t poison = judge::kPoison32;
  std::memcpy(&got[30], &poison, 4);
  std::memcpy(&got[31], &poison, 4);
  DeviceBuffer dg(n * 4), dw(n * 4);
  JUDGE_CUDA_CHECK(cudaMemcpy(dg.get(), got.data(), n * 4, cudaMemcpyHostToDevice));
  JUDGE_CUDA_CHECK(cudaMemcpy(dw.get(), want.data(), n * 4, cudaMemcpyHostToDevice));
  auto r = judge::compare_output({"C", dg.get(), dw.get(), DType::float32, n, {10, 100}, {false, 1e-3, 1e-3}, 0});
  EXPECT_EQ(r.mismatches, 4);
  EXPECT_EQ(r.unwritten, 2);
  EXPECT_EQ(r.non_finite, 1);
  EXPECT_NEAR(r.max_abs_error, 0.5, 1e-9);
  ASSERT_EQ(r.first.size(), 4u);
  EXPECT_EQ(r.first[0].index, 10);
  EXPECT_EQ(r.first[0].coords, (std::vector<std::int64_t>{0, 10}));
  EXPECT_EQ(r.first[1].index, 20);
}

__global__ void spin_for(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// About `ms` milliseconds of one thread spinning, at the nominal clock.
long long spin_cycles(double ms) {
  int clock_khz = 0;
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  return static_cast<long long>(clock_khz * ms);
}

}  // namespace

namespace judge {
void PrintTo(KernelTracing t, std::ostream* os) { *os << (t == KernelTracing::serialized ? "serialized" : "concurrent"); }
}  // namespace judge

namespace {

class TimerModes : public ::testing::TestWithParam<judge::KernelTracing> {
 protected:
  // The timer must exist before the context for CUPTI; other tests in this binary may have created it already, in
  // which case CUPTI still attaches (activity APIs work after context creation on current drivers).
  std::unique_ptr<judge::Timer> cupti_timer() {
    auto timer = judge::make_timer();
    if (timer->name().rfind("cupti", 0) != 0) return nullptr;
    EXPECT_TRUE(timer->set_kernel_tracing(GetParam()));
    EXPECT_EQ(timer->name(), GetParam() == judge::KernelTracing::serialized ? "cupti" : "cupti-concurrent");
    return timer;
  }
};

TEST_P(TimerModes, SeeAKernelOnANonBlockingStream) {
  JUDGE_REQUIRE_GPU();
  auto timer = cupti_timer();
  if (!timer) GTEST_SKIP() << "CUPTI is not usable here; events cannot see other streams";
  cudaStream_t side;
  JUDGE_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  timer->begin();
  spin_for<<<1, 1, 0, side>>>(spin_cycles(2));
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  judge::Span s = timer->end();
  EXPECT_GE(s.records, 1);
  EXPECT_EQ(s.streams, 1);
  EXPECT_GT(s.gpu_ms, 1.0) << "the side-stream kernel escaped the measurement";
  EXPECT_LT(s.gpu_ms, 50.0);
  JUDGE_CUDA_CHECK(cudaStreamDestroy(side));
}

// Two 2 ms kernels on two streams: serialized tracing runs them one after the other (about 4 ms), concurrent
// tracing lets them overlap (about 2 ms). Both count the two streams, which is how the runner knows to switch. Run
// alone (as ctest does), the timer exists before the CUDA context, as in the worker: the switch to concurrent must
// then still give the overlap back.
TEST_P(TimerModes, SerializeOrKeepTheOverlapOfTwoStreams) {
  JUDGE_REQUIRE_GPU();
  auto timer = cupti_timer();
  if (!timer) GTEST_SKIP() << "CUPTI is not usable here";
  cudaStream_t a, b;
  JUDGE_CUDA_CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  JUDGE_CUDA_CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  // The best of a few rounds: the first instrumented launches of a kernel in concurrent mode can stall for a
  // millisecond or more while CUPTI prepares them (seen on an H200), which says nothing about overlap.
  double both = 1e30, single = 1e30;
  for (int round = 0; round < 4; ++round) {
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    timer->begin();
    spin_for<<<1, 1, 0, a>>>(spin_cycles(2));
    spin_for<<<1, 1, 0, b>>>(spin_cycles(2));
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    judge::Span s = timer->end();
    EXPECT_EQ(s.records, 2);
    EXPECT_EQ(s.streams, 2);
    both = std::min(both, s.gpu_ms);
    // spin_for counts cycles, so a boost clock above the nominal one shortens each kernel: compare with one kernel.
    timer->begin();
    spin_for<<<1, 1, 0, a>>>(spin_cycles(2));
    JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
    single = std::min(single, timer->end().gpu_ms);
  }
  if (GetParam() == judge::KernelTracing::serialized)
    EXPECT_GT(both, 1.8 * single) << "serialized tracing let the kernels overlap";
  else
    EXPECT_LT(both, 1.4 * single) << "concurrent tracing serialized the kernels";
  JUDGE_CUDA_CHECK(cudaStreamDestroy(a));
  JUDGE_CUDA_CHECK(cudaStreamDestroy(b));
}

INSTANTIATE_TEST_SUITE_P(Tracing, TimerModes,
                         ::testing::Values(judge::KernelTracing::serialized, judge::KernelTracing::concurrent),
                         [](const auto& info) {
                           return info.param == judge::KernelTracing::serialized ? "serialized" : "concurrent";
                         });

}  // namespace
