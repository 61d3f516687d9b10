#pragma once
// The exact semantics of challenges/top_p_sampling, in double precision on the host, and the construction of its
// cases: logits, p and seed chosen so that no float32 rounding can change the sampled token. Shared by the reference
// (reference/top_p_sampling.cu: cpu() and the generators) and usable from a host-only test harness.
//
// The answer (statement.md): sort the tokens by logit, largest first, equal logits by smaller index. With q_i the
// softmax probability of the token at sorted position i (1-based) and C_i = q_1 + ... + q_i, the nucleus is the first
// m positions, m = the smallest i with C_i >= p (m = n if there is none). With u = draw(seed) in [0, 1) and
// T = u * C_m, the sampled token is the one at the first position j with C_j > T (j <= m since T < C_m).
//
// Robust case (every check below is against the exact values, with margin kDelta in probability units):
//   - the nucleus: C_{m-1} <= p - kDelta (or m = 1) and C_m >= p + kDelta (or m = n, which every solution reaches:
//     either some C_i >= p or it clamps to n); p = 1 is exempt (see robust());
//   - the draw: C_{j-1} <= T - kDelta (or j = 1) and C_j >= T + kDelta, for T over every nucleus a solution off by
//     kDelta could take (see answer());
//   - the token at position j: its logit equals its neighbours' (j - 1, j + 1) or differs from them by at least
//     kSeparation relatively, so a solution that sorts by float probability instead of by logit cannot swap it with
//     a neighbour whose float exponential happens to round to the same value.
// A float32 solution errs by about 1e-6 in the C_i (measured in statement.md), ten times less than kDelta.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "judge/worker/rng.hpp"

namespace top_p {

constexpr double kDelta = 1e-5;
constexpr double kSeparation = 1e-4;

// The draw of the statement: lowbias32 (C. Wellons' integer hash) of the seed's bits, top 24 bits as a fraction.
// Exactly representable in float; the same value in float and double.
JUDGE_HD inline double draw(std::int32_t seed) {
  std::uint32_t x = static_cast<std::uint32_t>(seed);
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return static_cast<double>(x >> 8) * (1.0 / 16777216.0);
}

// Sorted order and cumulative probabilities of one logits vector.
struct Sorted {
  std::vector<std::int64_t> order;  // token at sorted position i (0-based)
  std::vector<double> cum;          // cum[i] = C_{i+1}
};

inline Sorted sort_logits(const float* logits, std::int64_t n) {
  Sorted s;
  s.order.resize(static_cast<std::size_t>(n));
  std::iota(s.order.begin(), s.order.end(), 0);
  std::stable_sort(s.order.begin(), s.order.end(),
                   [&](std::int64_t a, std::int64_t b) { return logits[a] > logits[b]; });
  const double top = logits[s.order[0]];
  s.cum.resize(static_cast<std::size_t>(n));
  double acc = 0;
  for (std::int64_t i = 0; i < n; ++i) s.cum[i] = acc += std::exp(static_cast<double>(logits[s.order[i]]) - top);
  const double z = acc;
  for (double& c : s.cum) c /= z;
  return s;
}

struct Answer {
  std::int64_t token = 0;
  std::int64_t m = 0;      // nucleus size
  std::int64_t j = 0;      // 1-based sorted position of the sampled token
  double p_margin = 0;     // distance of p from the nucleus's edges (+inf where an edge does not constrain)
  double u_margin = 0;     // distance of T from the sampled position's edges
  bool separated = false;  // the sampled token's logit is equal to or well apart from its neighbours'
};

inline std::int64_t nucleus_size(const Sorted& s, double p) {
  const auto it = std::lower_bound(s.cum.begin(), s.cum.end(), p);  // first C_i >= p
  return it == s.cum.end() ? static_cast<std::int64_t>(s.cum.size()) : (it - s.cum.begin()) + 1;
}

inline bool apart(float a, float b) {
  return a == b || std::fabs(static_cast<double>(a) - b) >= kSeparation * std::max(1.0, std::fabs(double(a)));
}

inline Answer answer(const float* logits, std::int64_t n, const Sorted& s, double p, std::int32_t seed) {
  Answer r;
  r.m = nucleus_size(s, p);
  const double lo = r.m > 1 ? p - s.cum[r.m - 2] : INFINITY;
  const double hi = r.m < n ? s.cum[r.m - 1] - p : INFINITY;
  r.p_margin = std::min(lo, hi);
  const double u = draw(seed);
  const double t = u * s.cum[r.m - 1];
  r.j = (std::upper_bound(s.cum.begin(), s.cum.begin() + r.m, t) - s.cum.begin()) + 1;  // first C_j > T
  r.j = std::min(r.j, r.m);  // T < C_m always; guards rounding
  r.token = s.order[r.j - 1];
  // A solution off by kDelta may take any nucleus size in [m_lo, m_hi] (with p = 1, any of the tail's), so T may
  // lie anywhere in [u C_{m_lo}, u C_{m_hi}]: the margin holds for the whole range, and position j must be inside
  // the smallest of those nuclei.
  const std::int64_t m_lo = nucleus_size(s, p - kDelta), m_hi = nucleus_size(s, p + kDelta);
  const double t_lo = u * s.cum[m_lo - 1], t_hi = u * s.cum[m_hi - 1];
  r.u_margin = std::min(r.j > 1 ? t_lo - s.cum[r.j - 2] : INFINITY, s.cum[r.j - 1] - t_hi);
  if (r.j > m_lo) r.u_margin = -1;
  const float l = logits[r.token];
  r.separated = (r.j == 1 || apart(l, logits[s.order[r.j - 2]])) && (r.j == n || apart(l, logits[s.order[r.j]]));
  return r;
}

// The nucleus must be unambiguous too (so that a nucleus one token short or long is a wrong answer), except for
// p = 1: every token is in, and a float solution may drop a tail of tiny probabilities, harmlessly (the margin of T
// covers it).
inline bool robust(const Answer& a, double p) {
  return (a.p_margin >= kDelta || p >= 1.0) && a.u_margin >= kDelta && a.separated;
}

// Arguments of the generators (the spec's "args"): mode 0: logits = scale * N(0, 1), clamped to [-100, 100];
// mode 1: evenly spaced from -scale to scale; p: the wanted threshold; seed: the first seed tried; last = 1: the
// draw must land on the nucleus's last token (position m).
struct CaseArgs {
  int mode = 0;
  double scale = 1;
  double p = 0.9;
  std::int32_t seed = 0;
  bool last = false;
};

struct Case {
  std::vector<float> logits;
  float p = 0;
  std::int32_t seed = 0;
  bool ok = false;
};

inline void draw_logits(std::uint64_t key, std::int64_t n, const CaseArgs& a, std::vector<float>& out) {
  out.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    double v;
    if (a.mode == 1) {
      v = n > 1 ? -a.scale + 2.0 * a.scale * static_cast<double>(i) / static_cast<double>(n - 1) : 0.0;
    } else {
      v = a.scale * judge::box_muller(judge::unit_double(judge::counter_hash(key ^ 0x746f7070ull, 2 * i)),
                                      judge::unit_double(judge::counter_hash(key ^ 0x746f7070ull, 2 * i + 1)));
    }
    out[i] = static_cast<float>(std::min(100.0, std::max(-100.0, v)));
  }
}

// p for these logits: the wanted one if it is robust, else the closest float inside the nearest gap [C_{i-1},
// C_i] wide enough. Returns a value <= 0 if there is none.
inline float place_p(const Sorted& s, double want) {
  if (want >= 1.0) return 1.0f;
  const std::int64_t n = static_cast<std::int64_t>(s.cum.size());
  const std::int64_t m = nucleus_size(s, want);
  for (std::int64_t d = 0; d < n; ++d) {
    for (int sign = 0; sign < 2; ++sign) {
      const std::int64_t i = sign ? m - d : m + d;  // candidate nucleus size
      if (i < 1 || i > n || (sign && d == 0)) continue;
      const double lo = (i > 1 ? s.cum[i - 2] : 0.0) + 1.5 * kDelta;
      const double hi = i < n ? s.cum[i - 1] - 1.5 * kDelta : 1.0;
      if (lo > hi) continue;
      const float p = static_cast<float>(std::min(hi, std::max(lo, want)));
      if (p > 0 && p <= 1 && nucleus_size(s, p) == i) return p;
    }
  }
  return 0;
}

// A robust case: logits drawn from key (redrawn from derived keys if no robust p and seed exist for them), p placed,
// then the first robust seed from a.seed upwards.
inline Case make_case(std::uint64_t key, std::int64_t n, const CaseArgs& a) {
  Case c;
  for (int attempt = 0; attempt < 64; ++attempt) {
    draw_logits(attempt == 0 ? key : judge::counter_hash(key, 0x72657472ull + attempt), n, a, c.logits);
    const Sorted s = sort_logits(c.logits.data(), n);
    c.p = place_p(s, a.p);
    if (!(c.p > 0)) continue;
    std::int32_t seed = a.seed;
    for (int tries = 0; tries < (1 << 22); ++tries, ++seed) {
      const Answer r = answer(c.logits.data(), n, s, c.p, seed);
      if (robust(r, c.p) && (!a.last || r.j == r.m)) {
        c.seed = seed;
        c.ok = true;
        return c;
      }
    }
  }
  return c;
}

}  // namespace top_p
