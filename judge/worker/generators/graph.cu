// "graph": the weighted adjacency matrix of a random directed graph on args.nodes vertices, row-major nodes x nodes:
// 0 on the diagonal, an edge i -> j (i != j) with probability args.density, weighted uniformly in [low, high), and
// no edge written as +infinity (the distance-matrix convention of shortest-path problems; floating dtypes) or, for
// integer dtypes, as args.none. Each entry is a pure function of (key, i, j): no coupling with other buffers. A
// graph in adjacency-list form is a CSR structure: the "csr_row_ptr" / "csr_col_idx" pair with rows = cols = nodes.
// Optional args.potential = P > 0 (floating dtypes): every edge weight w(i, j) becomes w(i, j) + h(i) - h(j), with
// h(v) uniform in [0, P) per vertex. The h terms cancel around any cycle, so a cycle weighs what it did before
// (positive when low > 0) while edges can be negative, down to low - P: a graph with negative edges and no negative
// cycle, for shortest-path algorithms that must not assume non-negative weights (Johnson's reweighting, reversed).
#include <cmath>
#include <limits>

#include "judge/worker/generators/fill.cuh"

namespace judge::gen {
namespace {

struct Graph {
  std::int64_t nodes;
  double density, low, width, none, potential;
  std::uint64_t key;
  bool integral;
  JUDGE_HD double operator()(std::int64_t e) const {
    const std::int64_t i = e / nodes, j = e % nodes;
    if (i == j) return 0.0;
    if (unit(key ^ 0x65646765ull, static_cast<std::uint64_t>(e)) >= density) return none;
    double w = low + width * unit(key, static_cast<std::uint64_t>(e));
    if (potential > 0)
      w += potential * (unit(key ^ 0x706f7465ull, static_cast<std::uint64_t>(i)) -
                        unit(key ^ 0x706f7465ull, static_cast<std::uint64_t>(j)));
    return integral ? floor(w) : w;
  }
};

void graph(const GeneratorCall& c) {
  const double nodes = c.arg("nodes"), density = c.arg("density");
  if (!(nodes >= 1) || nodes != std::floor(nodes) || nodes * nodes != static_cast<double>(c.count))
    JUDGE_THROW(Error, "generator 'graph': nodes = {} but the buffer holds {} elements (nodes x nodes expected)",
                nodes, c.count);
  if (!(density >= 0 && density <= 1))
    JUDGE_THROW(Error, "generator 'graph': density = {} is outside [0, 1]", density);
  const bool whole = integral(c);
  double none = std::numeric_limits<double>::infinity();
  if (whole) {
    if (c.args.count("none") == 0)
      JUDGE_THROW(Error, "generator 'graph': an integer matrix ({}) has no infinity; give args.none, the value "
                  "that means \"no edge\"", to_string(c.dtype));
    none = c.arg("none");
  }
  const double potential = c.args.count("potential") > 0 ? c.arg("potential") : 0.0;
  if (!(potential >= 0) || (potential > 0 && whole))
    JUDGE_THROW(Error, "generator 'graph': potential = {} must be >= 0, and 0 for an integer matrix ({})", potential,
                to_string(c.dtype));
  fill(c, Graph{static_cast<std::int64_t>(nodes), density, c.dist.low, c.dist.high - c.dist.low + (whole ? 1.0 : 0.0),
                none, potential, c.key, whole});
}

}  // namespace
}  // namespace judge::gen

JUDGE_GENERATOR(graph, judge::gen::graph)
