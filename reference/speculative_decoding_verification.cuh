#pragma once
// Host-side semantics and case construction for challenges/speculative_decoding_verification (pure C++, no CUDA, so
// a host harness can include it).
//
// Semantics (LeetGPU's reference): for each sequence b, positions i = 0 .. T-1 in order, t = draft_tokens[b, i],
// alpha = min(1, q(t) / p(t)); accept while u[b, i] < alpha. At the first rejection i, write the smallest k with
// cdf(k) >= r (r = u[b, T]) over adj = max(0, q - p) normalised (uniform 1/V when adj sums to 0), clamped to V - 1,
// and stop; positions after it stay 0. If all T are accepted, output[b, T] = the same search over the cumulative
// sums of q at position T - 1 (not renormalised).
//
// Robustness: the answer is compared exactly, so every decision must be unambiguous under float32 rounding. A case
// is robust when, for every sequence, every evaluated draw u[b, i] (i up to the first rejection) is at least
// kUMargin from alpha, and r is at least kRMargin from every cumulative value cdf(k) of the distribution it is
// searched in (and from 0). The generated cases put every probability on the grid 2^-20 (each row sums to exactly
// 1), so q - p, the row sums and every partial sum are exact in float32 whatever the order of summation; only the
// normalisation q/p, r * total or adj / total rounds, by a relative 2^-24 per operation.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace specdec {

constexpr double kUMargin = 1e-3;  // |u - alpha| for every evaluated accept/reject decision
constexpr double kRMargin = 2e-4;  // |r - cdf(k)| for every k of the searched distribution, and r >= kRMargin
constexpr int kGridBits = 20;      // probabilities are multiples of 2^-kGridBits

struct Answer {
  std::vector<std::int32_t> out;  // B * (T + 1)
  double u_margin = 1e9;          // smallest |u - alpha| over evaluated decisions
  double r_margin = 1e9;          // smallest |r - cdf(k)| over the searched distributions (and r itself)
  int rejected = 0, fallbacks = 0, bonuses = 0;
  std::vector<int> reject_pos;    // per sequence: first rejected position, T if none
};

// First k in [0, V) with cum(k) >= r (cum computed in double from the float inputs), V - 1 if none; also the distance
// from r to the nearest cum(k) (and to 0).
struct Search {
  int k;
  double margin;
};

inline Search search_cum(const std::vector<double>& cum, double r) {
  const int V = static_cast<int>(cum.size());
  int k = V;
  double margin = r;
  for (int v = 0; v < V; ++v) {
    if (k == V && cum[v] >= r) k = v;
    margin = std::min(margin, std::fabs(cum[v] - r));
  }
  return {std::min(k, V - 1), margin};
}

inline Answer answer(const std::int32_t* tok, const float* p, const float* q, const float* u, int B, int T, int V) {
  Answer a;
  a.out.assign(static_cast<std::size_t>(B) * (T + 1), 0);
  a.reject_pos.assign(B, T);
  std::vector<double> cum(V);
  for (int b = 0; b < B; ++b) {
    std::int32_t* o = a.out.data() + static_cast<std::size_t>(b) * (T + 1);
    const float* ub = u + static_cast<std::size_t>(b) * (T + 1);
    const double r = ub[T];
    int i = 0;
    for (; i < T; ++i) {
      const std::size_t row = (static_cast<std::size_t>(b) * T + i) * V;
      const int t = tok[static_cast<std::size_t>(b) * T + i];
      const double alpha = std::min(1.0, static_cast<double>(q[row + t]) / static_cast<double>(p[row + t]));
      a.u_margin = std::min(a.u_margin, std::fabs(ub[i] - alpha));
      if (ub[i] < alpha) {
        o[i] = t;
        continue;
      }
      double total = 0;
      for (int v = 0; v < V; ++v) {
        cum[v] = std::max(0.0, static_cast<double>(q[row + v]) - static_cast<double>(p[row + v]));
        total += cum[v];
      }
      if (total > 0) {
        double s = 0;
        for (int v = 0; v < V; ++v) {
          s += cum[v];
          cum[v] = s / total;
        }
      } else {
        ++a.fallbacks;
        for (int v = 0; v < V; ++v) cum[v] = static_cast<double>(v + 1) / V;
      }
      const Search s = search_cum(cum, r);
      a.r_margin = std::min(a.r_margin, s.margin);
      o[i] = s.k;
      ++a.rejected;
      break;
    }
    a.reject_pos[b] = i;
    if (i == T) {
      const std::size_t row = (static_cast<std::size_t>(b) * T + (T - 1)) * V;
      double s = 0;
      for (int v = 0; v < V; ++v) {
        s += q[row + v];
        cum[v] = s;
      }
      const Search sr = search_cum(cum, r);
      a.r_margin = std::min(a.r_margin, sr.margin);
      o[T] = sr.k;
      ++a.bonuses;
    }
  }
  return a;
}

inline bool robust(const Answer& a) { return a.u_margin >= kUMargin && a.r_margin >= kRMargin; }

// ---- case construction ---------------------------------------------------------------------------------------

// What a case looks like (the generators' arguments):
//   support K: nonzero entries per probability row (0 or >= V: every entry);
//   shared: 1 = the target row has the draft row's support, 0 = its own (LeetGPU's independent draws: with K << V
//           the drafted token is rarely in the target's support, so alpha is mostly 0);
//   plan: 0 = u drawn uniformly (redrawn near alpha); 1 = each sequence's first rejection drawn uniformly from
//         0 .. T (T: all accepted), the tokens and u chosen to make it so; 2 = all accepted (target = draft, as
//         LeetGPU's accept-all case); 3 = rejected at position 0 (LeetGPU's reject-first case);
//   seed: mixed into the judge's key.
struct CaseArgs {
  int support = 64;
  int shared = 0;
  int plan = 0;
  std::int64_t seed = 0;
};

struct Case {
  std::vector<std::int32_t> tokens;
  std::vector<float> draft, target, uniform;
  bool ok = false;
};

class Rng {
 public:
  explicit Rng(std::uint64_t s) : s_(s) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
  float uniform24() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }      // [0, 1), exact
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

 private:
  std::uint64_t s_;
};

// K distinct indices in [0, V): a partial Fisher-Yates over a scratch permutation.
inline void pick_support(Rng& g, int V, int K, std::vector<int>& perm, std::vector<int>& out) {
  if (static_cast<int>(perm.size()) != V) {
    perm.resize(V);
    for (int v = 0; v < V; ++v) perm[v] = v;
  }
  out.resize(K);
  for (int j = 0; j < K; ++j) {
    const int s = j + g.below(V - j);
    std::swap(perm[j], perm[s]);
    out[j] = perm[j];
  }
}

// Writes a row of V floats: zero outside `idx`, random multiples of 2^-20 (at least one unit each) on it, summing
// to exactly 1.
inline void fill_row(Rng& g, const std::vector<int>& idx, float* row) {
  const int K = static_cast<int>(idx.size());
  const std::int64_t units = std::int64_t{1} << kGridBits;
  std::vector<double> x(K);
  double sx = 0;
  for (int j = 0; j < K; ++j) sx += x[j] = 0.05 + g.uniform();
  std::vector<std::int64_t> m(K);
  std::int64_t sm = 0;
  for (int j = 0; j < K; ++j) sm += m[j] = std::max<std::int64_t>(1, static_cast<std::int64_t>(x[j] / sx * units));
  m[g.below(K)] += units - sm;  // the floors leave a small non-negative remainder
  for (int j = 0; j < K; ++j) row[idx[j]] = static_cast<float>(std::ldexp(static_cast<double>(m[j]), -kGridBits));
}

inline Case make_case(std::uint64_t key, int B, int T, int V, const CaseArgs& a) {
  Case c;
  const std::size_t rows = static_cast<std::size_t>(B) * T;
  c.tokens.assign(rows, 0);
  c.draft.assign(rows * V, 0.0f);
  c.target.assign(rows * V, 0.0f);
  c.uniform.assign(static_cast<std::size_t>(B) * (T + 1), 0.0f);
  Rng g(key ^ (static_cast<std::uint64_t>(a.seed) * 0xd1b54a32d192ed03ull) ^ 0x5bd1e995ull);
  const int K = (a.support <= 0 || a.support >= V) ? V : a.support;
  std::vector<int> perm, sd, st;
  for (std::size_t r = 0; r < rows; ++r) {
    float* p = c.draft.data() + r * V;
    float* q = c.target.data() + r * V;
    pick_support(g, V, K, perm, sd);
    fill_row(g, sd, p);
    if (a.plan == 2) {
      std::copy(p, p + V, q);
    } else if (a.shared) {
      fill_row(g, sd, q);
    } else {
      pick_support(g, V, K, perm, st);
      fill_row(g, st, q);
    }
    c.tokens[r] = sd[0];  // replaced below
  }
  // Draft token drawn from the draft row, as a draft model would.
  auto draw_token = [&](const float* p) {
    const double x = g.uniform();
    double s = 0;
    int last = 0;
    for (int v = 0; v < V; ++v) {
      if (p[v] <= 0) continue;
      last = v;
      s += p[v];
      if (x < s) return v;
    }
    return last;
  };
  auto alpha_of = [&](std::size_t r, int t) {
    return std::min(1.0, static_cast<double>(c.target[r * V + t]) / static_cast<double>(c.draft[r * V + t]));
  };
  for (int b = 0; b < B; ++b) {
    float* ub = c.uniform.data() + static_cast<std::size_t>(b) * (T + 1);
    const int want = a.plan == 1 ? g.below(T + 1) : (a.plan == 2 ? T : (a.plan == 3 ? 0 : -1));
    for (int i = 0; i < T; ++i) {
      const std::size_t r = static_cast<std::size_t>(b) * T + i;
      const float* p = c.draft.data() + r * V;
      int t = draw_token(p);
      if (want >= 0 && i <= want) {
        const bool accept = i < want;
        // Redraw the token until its alpha leaves room for the wanted decision; else take the extreme one.
        for (int tries = 0; tries < 200; ++tries) {
          const double al = alpha_of(r, t);
          if (accept ? al >= 3 * kUMargin : al <= 1 - 3 * kUMargin) break;
          t = draw_token(p);
        }
        double al = alpha_of(r, t);
        if (accept ? al < 3 * kUMargin : al > 1 - 3 * kUMargin) {
          int best = t;
          for (int v = 0; v < V; ++v) {
            if (p[v] <= 0) continue;
            if (accept ? alpha_of(r, v) > alpha_of(r, best) : alpha_of(r, v) < alpha_of(r, best)) best = v;
          }
          t = best;
          al = alpha_of(r, t);
        }
        // u inside [0, alpha - margin) to accept, (alpha + margin, 1) to reject; redrawn until it also keeps the
        // margin as a float.
        for (int tries = 0; tries < 1000; ++tries) {
          const double lo = accept ? 0.0 : std::min(al + 1.5 * kUMargin, 1.0);
          const double hi = accept ? std::max(al - 1.5 * kUMargin, 0.0) : 1.0;
          const float x = static_cast<float>(lo + (hi - lo) * g.uniform());
          if (x >= 1.0f) continue;
          ub[i] = x;
          if (std::fabs(x - al) >= kUMargin) break;
        }
      } else {
        // Natural draw (or past the planned rejection: never evaluated, any value).
        const double al = alpha_of(r, t);
        for (int tries = 0; tries < 1000; ++tries) {
          ub[i] = g.uniform24();
          if (want >= 0 || std::fabs(ub[i] - al) >= kUMargin) break;
        }
      }
      c.tokens[r] = t;
    }
  }
  // r = u[b, T]: redrawn until it keeps kRMargin from every cumulative value of the distribution it is searched in.
  for (int b = 0; b < B; ++b) {
    float* ub = c.uniform.data() + static_cast<std::size_t>(b) * (T + 1);
    ub[T] = 0.5f;
    const Answer probe = answer(c.tokens.data() + static_cast<std::size_t>(b) * T,
                                c.draft.data() + static_cast<std::size_t>(b) * T * V,
                                c.target.data() + static_cast<std::size_t>(b) * T * V, ub, 1, T, V);
    if (probe.u_margin < kUMargin) return c;
    // Rebuild the searched cumulative values once, then draw r against them.
    std::vector<double> cum(V);
    const int i = probe.reject_pos[0];
    const std::size_t row = (static_cast<std::size_t>(b) * T + std::min(i, T - 1)) * V;
    const float* p = c.draft.data() + row;
    const float* q = c.target.data() + row;
    double total = 0, s = 0;
    if (i < T) {
      for (int v = 0; v < V; ++v) total += std::max(0.0, static_cast<double>(q[v]) - p[v]);
      for (int v = 0; v < V; ++v) {
        s += std::max(0.0, static_cast<double>(q[v]) - p[v]);
        cum[v] = total > 0 ? s / total : static_cast<double>(v + 1) / V;
      }
    } else {
      for (int v = 0; v < V; ++v) cum[v] = s += q[v];
    }
    std::vector<double> sorted(cum);
    std::sort(sorted.begin(), sorted.end());
    bool found = false;
    for (int tries = 0; tries < 10000 && !found; ++tries) {
      const float x = g.uniform24();
      const auto it = std::lower_bound(sorted.begin(), sorted.end(), static_cast<double>(x));
      double m = x;
      if (it != sorted.end()) m = std::min(m, *it - x);
      if (it != sorted.begin()) m = std::min(m, x - *(it - 1));
      if (m >= kRMargin) {
        ub[T] = x;
        found = true;
      }
    }
    if (!found) return c;
  }
  c.ok = true;
  return c;
}

}  // namespace specdec
