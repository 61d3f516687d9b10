// Reference for challenges/adder_transformer: 11 greedy decode steps of LeetGPU's hand-built 10-parameter adder
// transformer (one layer, hidden size 2, one head of size 2, vocabulary = the digits 0..9) over prompts of 31 tokens.
// Step s runs the model on the current sequence of L = 31 + s tokens, writes the logits of its last position to
// output[b][s][0..9] and appends their argmax (the first maximum on ties). The formulas are in statement.md.
//
// Only the last position's logits are ever read, and every layer but attention works position by position, so both
// references compute the last row alone: its query against the keys and values of all L positions (the causal mask
// then lets every key through). Both work in double and round each logit once to float; they agree to ~1e-10.
//
//   GPU: a thread per sequence, the 42 tokens in local memory, the rotation table cos/sin(p w) for the
//        42 positions in shared memory (computed in double by the block).
//   CPU: follows LeetGPU's PyTorch code literally (every position's embedding, norms, q, k, v; the whole causal
//        score row of the last position), an independent spelling of the same mathematics.
//
// In double the greedy tokens are the digits of a + b (least significant first) for every pair: the top logit of
// each row leads the second by at least 0.0368 (checked over 3.3 million rows), while a float32 forward errs by
// less than 0.03 per logit and far less in the difference of two logits of a row. So every sensible float32
// solution decodes the same tokens as the reference, and the tolerance of 1.0 per logit (statement.md) decides.
//
// Also the generator "adder_prompts": row r of a [batch, 31] int32 buffer is LeetGPU's encoding of a pair (a, b):
// [0, a_0 .. a_9, 0 x 9, b_0 .. b_9, 0] with a_j the j-th least significant decimal digit. args.carry = 0 (default):
// every digit uniform in 0..9 (a and b uniform in [0, 10^10), LeetGPU's draw); args.carry = 1: each digit pair
// (a_j, b_j) sums to 9 with probability 1/2 (a carry passes through), to 10 or more with 1/4 (a carry starts) and
// to 8 or less with 1/4, so long carry chains are common.
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/core/base/error.hpp"
#include "judge/worker/generate.hpp"
#include "judge/worker/generators/fill.cuh"
#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "adder_transformer";
constexpr int kVocab = 10, kPrompt = 31, kSteps = 11, kMaxLen = kPrompt + kSteps;  // 42
constexpr int kBlock = judge::ref::kBlock;
constexpr double kPi = 3.14159265358979323846;
constexpr double kEps = 1e-6;
constexpr double kEmbedConst = 1000.0;  // the fixed 1000 of the second gate, not weights[0]

struct Consts {
  double omega, scale;
};

Consts consts() {
  const double omega = 2.0 * kPi / 19.0;
  // scale = (1/sqrt(2)) S^2, S^2 = ln(10) / (sqrt(2) (cos(0.3 w) - cos(0.7 w))).
  const double s2 = std::log(10.0) / (std::sqrt(2.0) * (std::cos(0.3 * omega) - std::cos(0.7 * omega)));
  return {omega, s2 / std::sqrt(2.0)};
}

// x / sqrt(mean(x^2) + eps) for a pair.
__host__ __device__ inline void unit_rms(double& x0, double& x1) {
  const double r = 1.0 / sqrt((x0 * x0 + x1 * x1) / 2.0 + kEps);
  x0 *= r;
  x1 *= r;
}

struct Weights {
  double w[10];
};

// Everything after attention for one position: residual, MLP, final norm, logits. h0, h1: the embedding of the
// position's token; att: attention output (the first component of sum p_j v_j).
__host__ __device__ inline void head(const Weights& W, double h0, double h1, double att, double* logits) {
  h1 += att;  // O projection [0, att]
  double n0 = h0, n1 = h1;
  unit_rms(n0, n1);
  const double a = W.w[5], c = W.w[6];
  const double g0 = n0 * a + n1 * c;
  const double g1 = n0 * (a - c / kEmbedConst) + n1 * c;
  const double m0 = g0 / (1.0 + exp(-g0)) * n0, m1 = g1 / (1.0 + exp(-g1)) * n0;
  h1 += W.w[7] * (m1 - m0);
  const double r = sqrt((h0 * h0 + h1 * h1) / 2.0 + kEps);
  const double f0 = h0 / r * W.w[8], f1 = h1 / r * W.w[9];
  for (int d = 0; d < kVocab; ++d) logits[d] = f0 * (W.w[0] - W.w[1] * d * d) + f1 * (-double(d));
}

__host__ __device__ inline int argmax10(const double* v) {
  int best = 0;
  for (int d = 1; d < kVocab; ++d)
    if (v[d] > v[best]) best = d;
  return best;
}

__global__ void decode_kernel(const int* __restrict__ prompts, float* __restrict__ out, const float* __restrict__ wts,
                              int batch, Consts k) {
  __shared__ double s_cos[kMaxLen], s_sin[kMaxLen];
  for (int p = threadIdx.x; p < kMaxLen; p += blockDim.x) {
    s_cos[p] = cos(p * k.omega);
    s_sin[p] = sin(p * k.omega);
  }
  __syncthreads();
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  Weights W;
  for (int i = 0; i < 10; ++i) W.w[i] = wts[i];
  int tok[kMaxLen];
  for (int p = 0; p < kPrompt; ++p) tok[p] = prompts[static_cast<std::int64_t>(b) * kPrompt + p];
  for (int s = 0; s < kSteps; ++s) {
    const int L = kPrompt + s, i = L - 1;
    // Query of the last position: Q = [h0 q0, h0 q1] of the normed embedding, unit-normed, rotated by i w.
    const int ti = tok[i];
    const double e0 = W.w[0] - W.w[1] * ti * ti, e1 = -double(ti);
    double n0 = e0, n1 = e1;
    unit_rms(n0, n1);
    double q0 = n0 * W.w[2], q1 = n0 * W.w[3];
    unit_rms(q0, q1);
    const double qr0 = q0 * s_cos[i] - q1 * s_sin[i], qr1 = q0 * s_sin[i] + q1 * s_cos[i];
    double mx = -1e300, den = 0, num = 0;
    double score[kMaxLen], val[kMaxLen];
    for (int j = 0; j < L; ++j) {
      const int t = tok[j];
      double a0 = W.w[0] - W.w[1] * t * t, a1 = -double(t);
      unit_rms(a0, a1);
      double k0 = a0, k1 = 0.0;
      unit_rms(k0, k1);
      const double kr0 = k0 * s_cos[j] - k1 * s_sin[j], kr1 = k0 * s_sin[j] + k1 * s_cos[j];
      score[j] = (qr0 * kr0 + qr1 * kr1) * k.scale;
      val[j] = a1 * W.w[4];
      mx = fmax(mx, score[j]);
    }
    for (int j = 0; j < L; ++j) {
      const double e = exp(score[j] - mx);
      den += e;
      num += e * val[j];
    }
    double logits[kVocab];
    head(W, e0, e1, num / den, logits);
    float* o = out + (static_cast<std::int64_t>(b) * kSteps + s) * kVocab;
    for (int d = 0; d < kVocab; ++d) o[d] = static_cast<float>(logits[d]);
    tok[L] = argmax10(logits);
  }
}

void gpu(const judge::DeviceArgs& args, cudaStream_t s) {
  const int batch = args.scalar<int>("batch_size");
  if (batch <= 0) return;
  decode_kernel<<<static_cast<unsigned>((batch + kBlock - 1) / kBlock), kBlock, 0, s>>>(
      args.input<int>("prompts"), args.output<float>("output"), args.input<float>("weights"), batch, consts());
  judge::ref::check_launch(kId, "decode_kernel");
}

// LeetGPU's _forward_pass for one sequence, every position, in double; returns the last position's logits.
void forward_last(const std::vector<int>& seq, const Weights& W, const Consts& k, double* logits) {
  const int L = static_cast<int>(seq.size());
  std::vector<double> h0(L), h1(L), qr0(L), qr1(L), kr0(L), kr1(L), v(L);
  for (int p = 0; p < L; ++p) {
    const double d = seq[p];
    h0[p] = W.w[0] - W.w[1] * d * d;
    h1[p] = -d;
    double n0 = h0[p], n1 = h1[p];
    unit_rms(n0, n1);
    double q0 = n0 * W.w[2], q1 = n0 * W.w[3], k0 = n0, k1 = 0.0;
    v[p] = n1 * W.w[4];
    unit_rms(q0, q1);
    unit_rms(k0, k1);
    const double c = std::cos(p * k.omega), s = std::sin(p * k.omega);
    qr0[p] = q0 * c - q1 * s;
    qr1[p] = q0 * s + q1 * c;
    kr0[p] = k0 * c - k1 * s;
    kr1[p] = k0 * s + k1 * c;
  }
  // Row i = L - 1 of the causally masked scores: keys 0..i.
  const int i = L - 1;
  std::vector<double> sc(L);
  double mx = -INFINITY;
  for (int j = 0; j <= i; ++j) {
    sc[j] = (qr0[i] * kr0[j] + qr1[i] * kr1[j]) * k.scale;
    mx = std::max(mx, sc[j]);
  }
  double den = 0, num = 0;
  for (int j = 0; j <= i; ++j) den += std::exp(sc[j] - mx);
  for (int j = 0; j <= i; ++j) num += std::exp(sc[j] - mx) / den * v[j];
  head(W, h0[i], h1[i], num, logits);
}

void cpu(judge::HostArgs& args) {
  const int batch = args.scalar<int>("batch_size");
  const int* prompts = args.input<int>("prompts");
  const float* wts = args.input<float>("weights");
  double* out = args.output("output");
  Weights W;
  for (int i = 0; i < 10; ++i) W.w[i] = wts[i];
  const Consts k = consts();
  for (std::int64_t b = 0; b < batch; ++b) {
    std::vector<int> seq(prompts + b * kPrompt, prompts + (b + 1) * kPrompt);
    for (int s = 0; s < kSteps; ++s) {
      double logits[kVocab];
      forward_last(seq, W, k, logits);
      for (int d = 0; d < kVocab; ++d) out[(b * kSteps + s) * kVocab + d] = static_cast<float>(logits[d]);
      seq.push_back(argmax10(logits));
    }
  }
}

// "adder_prompts" (see the header).
struct AdderPrompts {
  std::uint64_t key;
  bool carry;
  // Uniform in 0 .. n - 1, from stream `stream` (0..3) of digit pair `pair`.
  JUDGE_HD int digit(std::uint64_t pair, std::uint64_t stream, int n) const {
    const int d = static_cast<int>(judge::gen::unit(key, 4 * pair + stream) * n);
    return d < n - 1 ? d : n - 1;
  }
  JUDGE_HD double operator()(std::int64_t i) const {
    const std::int64_t r = i / kPrompt;
    const int p = static_cast<int>(i % kPrompt);
    int j, which;  // digit index, 0 = a, 1 = b
    if (p >= 1 && p <= 10) {
      j = p - 1, which = 0;
    } else if (p >= 20 && p <= 29) {
      j = p - 20, which = 1;
    } else {
      return 0.0;
    }
    const std::uint64_t pair = static_cast<std::uint64_t>(r) * 10 + j;
    if (!carry) return digit(pair, which, 10);
    const int a = digit(pair, 0, 10);
    if (which == 0) return a;
    const double t = judge::gen::unit(key, 4 * pair + 2);
    // Propagate (sum 9); generate (sum 10 + u, a + b <= 18) where a >= 1; kill (sum <= 8) where a <= 8.
    if (t < 0.5 || (t < 0.75 && a == 0) || (t >= 0.75 && a == 9)) return 9 - a;
    if (t < 0.75) return 10 - a + digit(pair, 3, a);  // b in [10 - a, 9]
    return digit(pair, 3, 9 - a);                    // b in [0, 8 - a]
  }
};

void adder_prompts(const judge::GeneratorCall& c) {
  if (c.dtype != judge::DType::int32)
    JUDGE_THROW(judge::Error, "generator 'adder_prompts' writes int32 tokens; the buffer is {}",
                judge::to_string(c.dtype));
  if (c.count % kPrompt != 0)
    JUDGE_THROW(judge::Error, "generator 'adder_prompts': {} elements are not rows of {} tokens", c.count, kPrompt);
  const double carry = c.args.count("carry") ? c.arg("carry") : 0.0;
  if (carry != 0 && carry != 1)
    JUDGE_THROW(judge::Error, "generator 'adder_prompts': carry = {} is not 0 or 1", carry);
  judge::gen::fill(c, AdderPrompts{c.key, carry == 1});
}

}  // namespace

JUDGE_REFERENCE(adder_transformer, gpu, cpu)
JUDGE_GENERATOR(adder_prompts, adder_prompts)
