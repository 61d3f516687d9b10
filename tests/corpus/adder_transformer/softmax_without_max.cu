// expect: wrong_answer
// expect-message: NaN
// The softmax exponentiates the raw scores, without subtracting the row maximum first. Here that is not a matter of
// a few ulps: the attention scale is about 52.9 and a query and key aligned by RoPE score close to 2 * 52.9, so
// expf(score) overflows float32 (above about 88.7) to +inf on every step, num / den becomes inf / inf = NaN and
// every logit is NaN. LeetGPU's F.softmax subtracts the maximum; so must a kernel.
#include <cmath>

#include <cuda_runtime.h>

namespace {

constexpr int kPrompt = 31, kSteps = 11, kVocab = 10, kMaxLen = kPrompt + kSteps;
constexpr float kEps = 1e-6f;

struct Consts {
  float omega, scale;
};

__device__ void unit_rms(float& x0, float& x1) {
  const float r = 1.0f / sqrtf((x0 * x0 + x1 * x1) / 2.0f + kEps);
  x0 *= r;
  x1 *= r;
}

__global__ void adder_kernel(const int* prompts, float* output, const float* w, int batch, Consts k) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  int tok[kMaxLen];
  for (int p = 0; p < kPrompt; ++p) tok[p] = prompts[b * kPrompt + p];
  for (int s = 0; s < kSteps; ++s) {
    const int L = kPrompt + s, i = L - 1;
    float score[kMaxLen], val[kMaxLen];
    float qr0 = 0.f, qr1 = 0.f, h0 = 0.f, h1 = 0.f;
    // Query of the last position first (its rotation is by i * omega).
    {
      const float d = static_cast<float>(tok[i]);
      h0 = w[0] - w[1] * d * d;
      h1 = -d;
      float n0 = h0, n1 = h1;
      unit_rms(n0, n1);
      float q0 = n0 * w[2], q1 = n0 * w[3];
      unit_rms(q0, q1);
      const float c = cosf(i * k.omega), sn = sinf(i * k.omega);
      qr0 = q0 * c - q1 * sn;
      qr1 = q0 * sn + q1 * c;
    }
    float mx = -INFINITY;
    for (int j = 0; j < L; ++j) {
      const float d = static_cast<float>(tok[j]);
      float n0 = w[0] - w[1] * d * d, n1 = -d;
      unit_rms(n0, n1);
      float k0 = n0, k1 = 0.f;
      unit_rms(k0, k1);
      const float c = cosf(j * k.omega), sn = sinf(j * k.omega);
      const float kr0 = k0 * c - k1 * sn, kr1 = k0 * sn + k1 * c;
      score[j] = (qr0 * kr0 + qr1 * kr1) * k.scale;
      val[j] = n1 * w[4];
      mx = fmaxf(mx, score[j]);
    }
    float den = 0.f, num = 0.f;
    for (int j = 0; j < L; ++j) {
      const float e = expf(score[j]);
      den += e;
      num += e * val[j];
    }
    h1 += num / den;  // O projection: [0, attention]
    float n0 = h0, n1 = h1;
    unit_rms(n0, n1);
    const float a = w[5], c = w[6];
    const float g0 = n0 * a + n1 * c, g1 = n0 * (a - c / 1000.0f) + n1 * c;
    const float m0 = g0 / (1.0f + expf(-g0)) * n0, m1 = g1 / (1.0f + expf(-g1)) * n0;
    h1 += w[7] * (m1 - m0);
    const float r = sqrtf((h0 * h0 + h1 * h1) / 2.0f + kEps);
    const float f0 = h0 / r * w[8], f1 = h1 / r * w[9];
    float* o = output + (b * kSteps + s) * kVocab;
    int best = 0;
    float best_v = -INFINITY;
    for (int d = 0; d < kVocab; ++d) {
      const float df = static_cast<float>(d);
      const float logit = f0 * (w[0] - w[1] * df * df) + f1 * (-df);
      o[d] = logit;
      if (logit > best_v) best_v = logit, best = d;
    }
    tok[L] = best;
  }
}

}  // namespace

extern "C" void solve(const int* prompts, float* output, const float* weights, int batch_size) {
  const double omega = 2.0 * M_PI / 19.0;
  const double s2 = std::log(10.0) / (std::sqrt(2.0) * (std::cos(0.3 * omega) - std::cos(0.7 * omega)));
  const Consts k{static_cast<float>(omega), static_cast<float>(s2 / std::sqrt(2.0))};
  const int threads = 128;
  adder_kernel<<<(batch_size + threads - 1) / threads, threads>>>(prompts, output, weights, batch_size, k);
  cudaDeviceSynchronize();
}
