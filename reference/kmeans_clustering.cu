// Reference for challenges/kmeans_clustering: Lloyd's algorithm on 2-D points, exactly LeetGPU's: centroids start at
// the initial ones; each of max_iterations rounds labels every point with its nearest centroid (squared Euclidean
// distance, the lowest index on a tie) and then moves each centroid to the mean of its points, leaving a centroid
// with no points where it is. labels are those of the last round, the centroids those after its update. Both
// references keep the centroids in double between rounds and round them once to float at the end.
//
// Also the generator of the challenge's random cases, "kmeans_data" (below): a label is an integer compared exactly,
// so the inputs must never bring a point near the boundary between two centroids, in any round.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <vector>

#include "judge/worker/generate.hpp"
#include "judge/worker/reference.hpp"
#include "judge/worker/rng.hpp"
#include "reference/reference_util.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "kmeans_clustering";

// ---------------------------------------------------------------------------------------------------------------
// Generator "kmeans_data", args: part (0 data_x, 1 data_y, 2 initial_centroid_x, 3 initial_centroid_y), n, k,
// iterations, atoms, optional lattice (1: the lattice layout), optional jitter (default 1e-4); low and high bound every
// coordinate. The four buffers of a case name one draw and are cut from one configuration:
//   - the points form `atoms` clumps (every point within rho = jitter W of its clump's centre in each coordinate,
//     W = high - low; point p belongs to clump p % atoms), so assignments are decided per clump. Tight clumps (the
//     default) let the random layout keep its margins; a large case needs wider ones (jitter 3e-2, lattice layout):
//     float32 sums of a few distinct values repeated 100,000 times round the same way at every step, and a plain
//     sequential sum per centroid then lost 2.3e-4 of a centroid (seen on an H200, 1,000,000 points, k = 8), past
//     the tolerance (3 to 4 times it in a simulation), where over clumps 3e-2 W wide it stays within a tenth of it;
//   - random layout: clump centres and initial centroids uniform in the box;
//     lattice layout (for large k): centroid j starts within 0.1 S of the centre of cell j of a ceil(sqrt(k))-wide
//     grid of cells of side S, and each clump lies within 0.1 S of the centre of a cell, never of a cell j with
//     j % 7 == 3 (those centroids get no points and stay where they start);
//   - Lloyd's algorithm is then run in double for `iterations` rounds, and the configuration is accepted only if, in
//     every round, every point is nearer to its centroid than to any other by at least 5e-4 W. Otherwise the next
//     configuration of the same key is drawn (up to 20000; the random layout needs few clumps per centroid to pass).
// Why 5e-4 W: the tolerance lets a centroid coordinate be off by 1e-4 + 1e-4 |c| <= ~1e-4 W, which moves a distance
// by at most sqrt(2) 1e-4 W and the difference of two by 2.9e-4 W; float32 rounding of the squared distances
// (either form) is far below that. So a solution whose centroids stay within the tolerance in every round labels
// every point as the reference does, and its rounding errors do not compound from round to round.
struct KmeansConfig {
  std::vector<float> x, y, cx, cy;
};

struct KmeansKey {
  std::uint64_t key;
  std::int64_t n, k, iterations, atoms, lattice;
  double low, high, jitter;
  bool operator==(const KmeansKey& o) const {
    return key == o.key && n == o.n && k == o.k && iterations == o.iterations && atoms == o.atoms &&
           lattice == o.lattice && low == o.low && high == o.high && jitter == o.jitter;
  }
};

// Lloyd's algorithm in double on the clumps, each taken as `count[a]` points at its centre (ax[a], ay[a]); false if
// a clump comes within margin + slack of a tie. The real points lie within rho sqrt(2) of their clump's centre, so
// as long as no point changes sides the real centroids stay within rho sqrt(2) of these, and slack = 2 rho sqrt(2)
// (plus float rounding) makes the margin hold for every real point, by induction over the rounds.
bool clean_run(const std::vector<double>& ax, const std::vector<double>& ay, const std::vector<double>& count,
               std::vector<double> cx, std::vector<double> cy, std::int64_t iterations, double margin, double slack) {
  const std::size_t A = ax.size(), k = cx.size();
  std::vector<double> tx(k), ty(k), tc(k);
  for (std::int64_t it = 0; it < iterations; ++it) {
    std::fill(tx.begin(), tx.end(), 0.0);
    std::fill(ty.begin(), ty.end(), 0.0);
    std::fill(tc.begin(), tc.end(), 0.0);
    for (std::size_t a = 0; a < A; ++a) {
      if (count[a] == 0) continue;
      double d1 = INFINITY, d2 = INFINITY;
      std::size_t best = 0;
      for (std::size_t j = 0; j < k; ++j) {
        const double dx = ax[a] - cx[j], dy = ay[a] - cy[j], d = dx * dx + dy * dy;  // squared until the end
        if (d < d1) {
          d2 = d1;
          d1 = d;
          best = j;
        } else if (d < d2) {
          d2 = d;
        }
      }
      if (k > 1 && std::sqrt(d2) - std::sqrt(d1) < margin + slack) return false;
      tx[best] += ax[a] * count[a];
      ty[best] += ay[a] * count[a];
      tc[best] += count[a];
    }
    for (std::size_t j = 0; j < k; ++j)
      if (tc[j] > 0) {
        cx[j] = tx[j] / tc[j];
        cy[j] = ty[j] / tc[j];
      }
  }
  return true;
}

KmeansConfig make_config(const KmeansKey& q) {
  const double W = q.high - q.low, rho = q.jitter * W, margin = 5e-4 * W;
  const std::int64_t A = std::max<std::int64_t>(1, std::min(q.atoms, q.n));
  const std::int64_t grid = static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(q.k))));
  const double S = W / static_cast<double>(grid);
  std::vector<std::int64_t> filled;  // lattice cells that get clumps
  for (std::int64_t j = 0; j < q.k; ++j)
    if (j % 7 != 3) filled.push_back(j);
  if (filled.empty()) filled.push_back(0);
  const float top = static_cast<float>(q.low + W * (1.0 - 0x1.0p-20));
  auto clampf = [&](double v) { return std::min(std::max(static_cast<float>(v), static_cast<float>(q.low)), top); };
  for (std::uint64_t attempt = 1; attempt <= 20000; ++attempt) {
    const std::uint64_t key = judge::counter_hash(q.key, attempt);
    auto U = [&](std::uint64_t stream, std::uint64_t i) {
      return judge::unit_double(judge::counter_hash(key ^ (stream * 0x9e3779b97f4a7c15ull), i));
    };
    KmeansConfig c;
    c.cx.resize(q.k);
    c.cy.resize(q.k);
    std::vector<double> ax(A), ay(A);
    for (std::int64_t j = 0; j < q.k; ++j) {
      if (q.lattice) {
        c.cx[j] = clampf(q.low + S * (j % grid + 0.5) + 0.1 * S * (2 * U(1, j) - 1));
        c.cy[j] = clampf(q.low + S * (j / grid + 0.5) + 0.1 * S * (2 * U(2, j) - 1));
      } else {
        c.cx[j] = clampf(q.low + W * U(1, j));
        c.cy[j] = clampf(q.low + W * U(2, j));
      }
    }
    for (std::int64_t a = 0; a < A; ++a) {
      if (q.lattice) {
        const std::int64_t cell = filled[std::min<std::size_t>(filled.size() - 1, static_cast<std::size_t>(U(3, a) * filled.size()))];
        ax[a] = q.low + S * (cell % grid + 0.5) + 0.1 * S * (2 * U(4, a) - 1);
        ay[a] = q.low + S * (cell / grid + 0.5) + 0.1 * S * (2 * U(5, a) - 1);
      } else {
        ax[a] = q.low + 2 * rho + (W - 4 * rho) * U(4, a);
        ay[a] = q.low + 2 * rho + (W - 4 * rho) * U(5, a);
      }
    }
    std::vector<double> count(A, static_cast<double>(q.n / A));
    for (std::int64_t a = 0; a < q.n % A; ++a) count[a] += 1;  // point p belongs to clump p % A
    const std::vector<double> cx(c.cx.begin(), c.cx.end()), cy(c.cy.begin(), c.cy.end());
    // Float rounding moves a point by at most ~1e-7 W past rho: the extra 1% of slack covers it.
    if (!clean_run(ax, ay, count, cx, cy, q.iterations, margin, 2 * rho * std::sqrt(2.0) * 1.01)) continue;
    c.x.resize(q.n);
    c.y.resize(q.n);
    for (std::int64_t p = 0; p < q.n; ++p) {
      const std::int64_t a = p % A;
      c.x[p] = clampf(ax[a] + rho * (2 * U(6, p) - 1));
      c.y[p] = clampf(ay[a] + rho * (2 * U(7, p) - 1));
    }
    return c;
  }
  JUDGE_THROW(judge::Error,
              "generator 'kmeans_data': no configuration of n = {}, k = {}, {} rounds, {} clumps kept every point "
              "5e-4 W from a tie; use fewer clumps or the lattice layout", q.n, q.k, q.iterations, q.atoms);
}

void kmeans_data(const judge::GeneratorCall& c) {
  if (c.dtype != judge::DType::float32)
    JUDGE_THROW(judge::Error, "generator 'kmeans_data' writes float32 coordinates");
  const double part = c.arg("part");
  KmeansKey q{c.key,
              static_cast<std::int64_t>(c.arg("n")),
              static_cast<std::int64_t>(c.arg("k")),
              static_cast<std::int64_t>(c.arg("iterations")),
              static_cast<std::int64_t>(c.arg("atoms")),
              c.args.count("lattice") > 0 ? static_cast<std::int64_t>(c.arg("lattice")) : 0,
              c.dist.low,
              c.dist.high,
              c.args.count("jitter") > 0 ? c.arg("jitter") : 1e-4};
  if (q.n < 1 || q.k < 1 || q.iterations < 0 || q.atoms < 1 || !(q.high > q.low) || !(q.jitter > 0 && q.jitter < 0.05))
    JUDGE_THROW(judge::Error, "generator 'kmeans_data': bad arguments (n = {}, k = {}, iterations = {}, atoms = {}, "
              "jitter = {}: it must lie in (0, 0.05))",
                q.n, q.k, q.iterations, q.atoms, q.jitter);
  // The four parts of a case come one after another: keep the last configuration.
  static std::mutex mutex;
  static KmeansKey last{};
  static KmeansConfig config;
  static bool have = false;
  std::vector<float> out;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!have || !(last == q)) {
      config = make_config(q);
      last = q;
      have = true;
    }
    const std::vector<float>& src = part == 0 ? config.x : part == 1 ? config.y : part == 2 ? config.cx : config.cy;
    if (part != 0 && part != 1 && part != 2 && part != 3)
      JUDGE_THROW(judge::Error, "generator 'kmeans_data': part = {} (0 data_x, 1 data_y, 2, 3 the centroids)", part);
    if (static_cast<std::int64_t>(src.size()) != c.count)
      JUDGE_THROW(judge::Error, "generator 'kmeans_data': part {} has {} elements, the buffer {}", part, src.size(),
                  c.count);
    out = src;
  }
  judge::ref::check_cuda(cudaMemcpyAsync(c.data, out.data(), sizeof(float) * out.size(), cudaMemcpyHostToDevice,
                                         c.stream), kId, "generator copy");
  judge::ref::check_cuda(cudaStreamSynchronize(c.stream), kId, "generator synchronise");
}

// ---------------------------------------------------------------------------------------------------------------
// GPU: per round, a thread per point finds its nearest centroid (in double); then a block per centroid sums the
// coordinates of its points (double, a fixed-order tree, so every run gives the same bits) and moves it.
__global__ void assign_kernel(const float* x, const float* y, const double* cx, const double* cy, int* labels, int n,
                              int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double px = x[i], py = y[i];
  double best = INFINITY;
  int label = 0;
  for (int j = 0; j < k; ++j) {
    const double dx = px - cx[j], dy = py - cy[j];
    const double d = dx * dx + dy * dy;
    if (d < best) {
      best = d;
      label = j;
    }
  }
  labels[i] = label;
}

__global__ void update_kernel(const float* x, const float* y, const int* labels, double* cx, double* cy, int n) {
  const int j = blockIdx.x;
  double sx = 0.0, sy = 0.0, cnt = 0.0;
  for (int i = threadIdx.x; i < n; i += judge::ref::kBlock)
    if (labels[i] == j) {
      sx += x[i];
      sy += y[i];
      cnt += 1.0;
    }
  sx = judge::ref::block_reduce(sx, judge::ref::Sum{});
  __syncthreads();
  sy = judge::ref::block_reduce(sy, judge::ref::Sum{});
  __syncthreads();
  cnt = judge::ref::block_reduce(cnt, judge::ref::Sum{});
  if (threadIdx.x == 0 && cnt > 0) {
    cx[j] = sx / cnt;
    cy[j] = sy / cnt;
  }
}

__global__ void widen_kernel(const float* ix, const float* iy, double* cx, double* cy, int k) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < k) cx[j] = ix[j], cy[j] = iy[j];
}

__global__ void round_kernel(const double* cx, const double* cy, float* fx, float* fy, int k) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < k) fx[j] = static_cast<float>(cx[j]), fy[j] = static_cast<float>(cy[j]);
}

void gpu(const judge::DeviceArgs& args, cudaStream_t s) {
  const int n = args.scalar<int>("sample_size");
  const int k = args.scalar<int>("k");
  const int iterations = args.scalar<int>("max_iterations");
  if (n <= 0 || k <= 0) return;
  const float* x = args.input<float>("data_x");
  const float* y = args.input<float>("data_y");
  const float* ix = args.input<float>("initial_centroid_x");
  const float* iy = args.input<float>("initial_centroid_y");
  int* labels = args.output<int>("labels");
  float* fx = args.output<float>("final_centroid_x");
  float* fy = args.output<float>("final_centroid_y");
  static judge::ref::Scratch scratch(kId, "centroids");
  double* cx = scratch.get<double>(2 * static_cast<std::size_t>(k));
  double* cy = cx + k;
  using judge::ref::kBlock;
  const unsigned kb = static_cast<unsigned>((k + kBlock - 1) / kBlock);
  widen_kernel<<<kb, kBlock, 0, s>>>(ix, iy, cx, cy, k);
  judge::ref::check_launch(kId, "widen_kernel");
  for (int it = 0; it < iterations; ++it) {
    assign_kernel<<<static_cast<unsigned>((n + kBlock - 1) / kBlock), kBlock, 0, s>>>(x, y, cx, cy, labels, n, k);
    judge::ref::check_launch(kId, "assign_kernel");
    update_kernel<<<static_cast<unsigned>(k), kBlock, 0, s>>>(x, y, labels, cx, cy, n);
    judge::ref::check_launch(kId, "update_kernel");
  }
  round_kernel<<<kb, kBlock, 0, s>>>(cx, cy, fx, fy, k);
  judge::ref::check_launch(kId, "round_kernel");
}

// ---------------------------------------------------------------------------------------------------------------
void cpu(judge::HostArgs& args) {
  const std::int64_t n = args.scalar<int>("sample_size");
  const std::int64_t k = args.scalar<int>("k");
  const std::int64_t iterations = args.scalar<int>("max_iterations");
  const float* x = args.input<float>("data_x");
  const float* y = args.input<float>("data_y");
  const float* ix = args.input<float>("initial_centroid_x");
  const float* iy = args.input<float>("initial_centroid_y");
  double* labels = args.output("labels");
  double* fx = args.output("final_centroid_x");
  double* fy = args.output("final_centroid_y");
  std::vector<double> cx(ix, ix + k), cy(iy, iy + k), sx(k), sy(k), cnt(k);
  std::vector<std::int64_t> lab(n, 0);
  for (std::int64_t it = 0; it < iterations; ++it) {
    std::fill(sx.begin(), sx.end(), 0.0);
    std::fill(sy.begin(), sy.end(), 0.0);
    std::fill(cnt.begin(), cnt.end(), 0.0);
    for (std::int64_t i = 0; i < n; ++i) {
      double best = INFINITY;
      std::int64_t label = 0;
      for (std::int64_t j = 0; j < k; ++j) {
        const double dx = x[i] - cx[j], dy = y[i] - cy[j];
        const double d = dx * dx + dy * dy;
        if (d < best) best = d, label = j;
      }
      lab[i] = label;
      sx[label] += x[i];
      sy[label] += y[i];
      cnt[label] += 1.0;
    }
    for (std::int64_t j = 0; j < k; ++j)
      if (cnt[j] > 0) cx[j] = sx[j] / cnt[j], cy[j] = sy[j] / cnt[j];
  }
  for (std::int64_t i = 0; i < n; ++i) labels[i] = static_cast<double>(lab[i]);
  for (std::int64_t j = 0; j < k; ++j) fx[j] = cx[j], fy[j] = cy[j];
}

}  // namespace

JUDGE_GENERATOR(kmeans_data, kmeans_data)
JUDGE_REFERENCE(kmeans_clustering, gpu, cpu)
