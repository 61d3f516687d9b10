// Reference for challenges/ordinary_least_squares: beta = (X^T X)^-1 X^T y for a row-major float32 X (n_samples x
// n_features) of full column rank, by the normal equations. The Gram matrix X^T X by cuBLAS SSYRK and X^T y by SGEMV,
// both in FP32 (CUBLAS_DEFAULT_MATH: no TF32 for float data); then, in double, the Cholesky factorisation and the two
// triangular solves by cuSOLVER (DPOTRF, DPOTRS), and beta rounded to float. The inputs are well conditioned by
// construction (the generators below: cond(X^T X) below about 15), so the FP32 Gram matrix costs beta about 1e-5 of
// its size, far inside the tolerance; the double solve keeps the factorisation from adding to it.
//
// The CPU reference forms X^T X and X^T y in double and solves them by Cholesky in double.
//
// Also the challenge's two input generators, which share one draw: "ols_design" (X) and "ols_target" (y).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <cusolverDn.h>

#include "judge/worker/generate.hpp"
#include "judge/worker/generators/fill.cuh"
#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "ordinary_least_squares";

void check_cusolver(cusolverStatus_t status, const char* what) {
  if (status != CUSOLVER_STATUS_SUCCESS)
    JUDGE_THROW(judge::Error, "reference '{}': {} failed: cusolver status {}", kId, what, static_cast<int>(status));
}

// One cuSOLVER handle per process, created on first use (like the worker's cuBLAS handle, never destroyed: the
// process ends with it).
cusolverDnHandle_t solver_handle() {
  static cusolverDnHandle_t handle = [] {
    cusolverDnHandle_t h = nullptr;
    check_cusolver(cusolverDnCreate(&h), "cusolverDnCreate");
    return h;
  }();
  return handle;
}

// The lower triangle (column-major, leading dimension p) of the float Gram matrix to double; rhs likewise.
__global__ void widen(const float* G, double* Gd, const float* c, double* cd, int p) {
  const std::int64_t count = static_cast<std::int64_t>(p) * p;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    Gd[i] = G[i];
    if (i < p) cd[i] = c[i];
  }
}

__global__ void narrow(const double* x, float* beta, int p) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p) beta[i] = static_cast<float>(x[i]);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int n = a.scalar<int>("n_samples");
  const int p = a.scalar<int>("n_features");
  if (n <= 0 || p <= 0) return;
  const float* X = a.input<float>("X");
  const float* y = a.input<float>("y");
  float* beta = a.output<float>("beta");
  const auto pp = static_cast<std::size_t>(p) * static_cast<std::size_t>(p);

  static judge::ref::Scratch gram(kId, "the Gram matrix X^T X and X^T y");
  float* G = gram.get<float>(pp + static_cast<std::size_t>(p));
  float* c = G + pp;
  {
    const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
    // Row-major X (n x p) read column-major is X^T (p x n, leading dimension p). X^T X = (X^T)(X^T)^T: SYRK with
    // OP_N on that view; the lower triangle of the column-major p x p result is filled (all cuSOLVER reads below).
    const float one = 1.0f, zero = 0.0f;
    judge::ref::check_cublas(cublasSsyrk(cublas.handle(), CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, p, n, &one, X, p,
                                         &zero, G, p),
                             kId, "cublasSsyrk(X^T X)");
    judge::ref::check_cublas(cublasSgemv(cublas.handle(), CUBLAS_OP_N, p, n, &one, X, p, y, 1, &zero, c, 1), kId,
                             "cublasSgemv(X^T y)");
  }

  cusolverDnHandle_t solver = solver_handle();
  check_cusolver(cusolverDnSetStream(solver, s), "cusolverDnSetStream");
  int lwork = 0;
  static judge::ref::Scratch solve_buffers(kId, "the double Gram matrix and its factor");
  double* Gd = nullptr;
  check_cusolver(cusolverDnDpotrf_bufferSize(solver, CUBLAS_FILL_MODE_LOWER, p, Gd, p, &lwork),
                 "cusolverDnDpotrf_bufferSize");
  // Layout: Gd (p x p), cd (p), the workspace (lwork doubles), info (one int, in a double's slot).
  const std::size_t doubles = pp + static_cast<std::size_t>(p) + static_cast<std::size_t>(lwork) + 1;
  Gd = solve_buffers.get<double>(doubles);
  double* cd = Gd + pp;
  double* work = cd + p;
  int* info = reinterpret_cast<int*>(work + lwork);
  widen<<<judge::ref::grid_for(static_cast<std::int64_t>(pp)), judge::ref::kBlock, 0, s>>>(G, Gd, c, cd, p);
  judge::ref::check_launch(kId, "widen");
  // info is not read back (that would synchronise): the generators guarantee a positive definite X^T X, and the
  // comparison with the CPU reference on every test would show a failed factorisation.
  check_cusolver(cusolverDnDpotrf(solver, CUBLAS_FILL_MODE_LOWER, p, Gd, p, work, lwork, info), "cusolverDnDpotrf");
  check_cusolver(cusolverDnDpotrs(solver, CUBLAS_FILL_MODE_LOWER, p, 1, Gd, p, cd, p, info), "cusolverDnDpotrs");
  narrow<<<(p + judge::ref::kBlock - 1) / judge::ref::kBlock, judge::ref::kBlock, 0, s>>>(cd, beta, p);
  judge::ref::check_launch(kId, "narrow");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("n_samples");
  const std::int64_t p = a.scalar<int>("n_features");
  const float* X = a.input<float>("X");
  const float* y = a.input<float>("y");
  double* beta = a.output("beta");
  if (n <= 0 || p <= 0) return;
  // G = X^T X (lower triangle, row-major p x p) and c = X^T y, in double.
  std::vector<double> G(static_cast<std::size_t>(p * p), 0.0), c(static_cast<std::size_t>(p), 0.0);
  for (std::int64_t i = 0; i < n; ++i) {
    const float* x = X + i * p;
    for (std::int64_t j = 0; j < p; ++j) {
      const double xj = x[j];
      c[j] += xj * double(y[i]);
      double* g = &G[static_cast<std::size_t>(j * p)];
      for (std::int64_t k = 0; k <= j; ++k) g[k] += xj * double(x[k]);
    }
  }
  // Cholesky G = L L^T in place (L in the lower triangle).
  for (std::int64_t k = 0; k < p; ++k) {
    double d = G[k * p + k];
    for (std::int64_t j = 0; j < k; ++j) d -= G[k * p + j] * G[k * p + j];
    const double l = std::sqrt(d);
    G[k * p + k] = l;
    for (std::int64_t i = k + 1; i < p; ++i) {
      double s = G[i * p + k];
      for (std::int64_t j = 0; j < k; ++j) s -= G[i * p + j] * G[k * p + j];
      G[i * p + k] = s / l;
    }
  }
  // L z = c, then L^T beta = z.
  for (std::int64_t i = 0; i < p; ++i) {
    double s = c[i];
    for (std::int64_t j = 0; j < i; ++j) s -= G[i * p + j] * c[j];
    c[i] = s / G[i * p + i];
  }
  for (std::int64_t i = p - 1; i >= 0; --i) {
    double s = c[i];
    for (std::int64_t j = i + 1; j < p; ++j) s -= G[j * p + i] * c[j];
    c[i] = s / G[i * p + i];
  }
  for (std::int64_t i = 0; i < p; ++i) beta[i] = c[i];
}

// The generators. X = B + E, where B stacks copies of the p x p identity (row i has a 1 in column i mod p) and E is
// uniform noise in [-a, a) with a = sqrt(3)/2 sqrt(floor(n/p)) / (sqrt(n) + sqrt(p)). B's singular values are
// sqrt(floor(n/p)) or sqrt(ceil(n/p)); E's are at most about sd(E) (sqrt(n) + sqrt(p)) = sqrt(floor(n/p)) / 2 (the
// Bai-Yin edge), so cond(X) stays under about (sqrt(2) + 1/2) / (1/2) < 4 and cond(X^T X) under about 15 for every
// n >= p (at most 6 measured at the test shapes up to 256 x 256). y = X beta_true + noise, with beta_true uniform in
// [-args.beta, args.beta) and the noise uniform with standard deviation args.noise: the least-squares solution is
// close to beta_true, so its entries are of order args.beta and an answer of zeros cannot pass the absolute
// tolerance.
//
// Both buffers name the same draw, so both derive X, beta_true and the noise from one key: stream positions
// [0, n p) are X's noise, [n p, n p + p) beta_true, [n p + p, n p + p + n) y's noise.
struct OlsDraw {
  std::int64_t n = 0, p = 0;
  double a = 0, beta = 0, noise = 0;
  std::uint64_t key = 0;

  JUDGE_HD float x(std::int64_t i, std::int64_t j) const {
    const double e = a * (2.0 * judge::gen::unit(key, static_cast<std::uint64_t>(i * p + j)) - 1.0);
    return static_cast<float>((j == i % p ? 1.0 : 0.0) + e);
  }
  JUDGE_HD double coefficient(std::int64_t j) const {
    return beta * (2.0 * judge::gen::unit(key, static_cast<std::uint64_t>(n * p + j)) - 1.0);
  }
  JUDGE_HD double target(std::int64_t i) const {
    double s = 0.0;
    for (std::int64_t j = 0; j < p; ++j) s += double(x(i, j)) * coefficient(j);
    const double u = 2.0 * judge::gen::unit(key, static_cast<std::uint64_t>(n * p + p + i)) - 1.0;
    return s + noise * 1.7320508075688772 * u;  // uniform in [-sqrt(3), sqrt(3)): standard deviation 1
  }
};

struct DesignValue {
  OlsDraw d;
  JUDGE_HD double operator()(std::int64_t e) const { return d.x(e / d.p, e % d.p); }
};
struct TargetValue {
  OlsDraw d;
  JUDGE_HD double operator()(std::int64_t i) const { return d.target(i); }
};

OlsDraw ols_draw(const judge::GeneratorCall& c, const char* name, bool target) {
  if (c.dtype != judge::DType::float32)
    JUDGE_THROW(judge::Error, "generator '{}' makes float32 values; the buffer is {}", name,
                judge::to_string(c.dtype));
  OlsDraw d;
  const double n = c.arg("samples"), p = c.arg("features");
  if (!(p >= 1) || !(n >= p) || n != std::floor(n) || p != std::floor(p))
    JUDGE_THROW(judge::Error,
                "generator '{}': samples = {}, features = {}: need whole numbers, samples >= features >= 1", name, n, p);
  d.n = static_cast<std::int64_t>(n);
  d.p = static_cast<std::int64_t>(p);
  if (c.count != (target ? d.n : d.n * d.p))
    JUDGE_THROW(judge::Error, "generator '{}': the buffer holds {} elements, expected {}", name, c.count,
                target ? d.n : d.n * d.p);
  d.a = 0.8660254037844386 * std::sqrt(std::floor(n / p)) / (std::sqrt(n) + std::sqrt(p));
  d.key = c.key;
  if (target) {
    d.beta = c.arg("beta");
    d.noise = c.arg("noise");
    // |y_i| <= beta (1 + a p) + sqrt(3) noise: keep every target inside the statement's [-1000, 1000].
    const double bound = d.beta * (1.0 + d.a * p) + 1.7320508075688772 * d.noise;
    if (!(d.beta >= 0) || !(d.noise >= 0) || bound > 1000)
      JUDGE_THROW(judge::Error, "generator '{}': beta = {}, noise = {} allow targets up to {}, past 1000", name, d.beta,
                  d.noise, bound);
  }
  return d;
}

void ols_design(const judge::GeneratorCall& c) { judge::gen::fill(c, DesignValue{ols_draw(c, "ols_design", false)}); }
void ols_target(const judge::GeneratorCall& c) { judge::gen::fill(c, TargetValue{ols_draw(c, "ols_target", true)}); }

}  // namespace

JUDGE_REFERENCE(ordinary_least_squares, gpu, cpu)
JUDGE_GENERATOR(ols_design, ols_design)
JUDGE_GENERATOR(ols_target, ols_target)
