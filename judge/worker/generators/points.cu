// "points": a point cloud, args.dims coordinates per point (row-major: point p is elements p*dims .. p*dims+dims-1),
// inside [low, high) in every coordinate. With args.clusters = 0 (the default) uniform; with k > 0, each point
// belongs to one of k clusters (chosen at random) whose centres are uniform in the box, and lies at a normal offset
// of standard deviation args.spread (a fraction of the box width, default 0.05) from its centre, clamped into the
// box: the input of k-means and of nearest-neighbour searches, where uniform points would make every cluster alike.
// With args.step > 0, every coordinate is then moved down onto the grid low + m * step (it stays inside the box):
// coordinates on a coarse enough grid make float32 squared distances exact, so nearest-neighbour indices compared
// exactly have no rounding-dependent ties. Floating dtypes. Each coordinate is a pure function of (key, point,
// dimension).
#include <cmath>

#include "judge/worker/generators/fill.cuh"

namespace judge::gen {
namespace {

struct Points {
  std::int64_t dims, clusters;
  double low, width, spread, step;
  std::uint64_t key;
  JUDGE_HD double operator()(std::int64_t e) const {
    const double x = raw(e);
    return step > 0 ? low + step * floor((x - low) / step) : x;
  }
  JUDGE_HD double raw(std::int64_t e) const {
    const std::int64_t point = e / dims, d = e % dims;
    if (clusters == 0) return low + width * unit(key, static_cast<std::uint64_t>(e));
    auto cluster = static_cast<std::int64_t>(unit(key ^ 0x636c7573ull, static_cast<std::uint64_t>(point)) *
                                             static_cast<double>(clusters));
    if (cluster >= clusters) cluster = clusters - 1;
    double centre = low + width * unit(key ^ 0x63656e74ull, static_cast<std::uint64_t>(cluster * dims + d));
    // A normal draw from two independent uniforms of this element.
    double x = centre + spread * width *
                            box_muller(unit(key ^ 0x6e6f726dull, static_cast<std::uint64_t>(e)),
                                       unit(key ^ 0x616e676cull, static_cast<std::uint64_t>(e)));
    const double top = low + width * (1.0 - 0x1.0p-24);  // stays below high after rounding to float
    return x < low ? low : x > top ? top : x;
  }
};

void points(const GeneratorCall& c) {
  const double dims = c.arg("dims");
  const double clusters = c.args.count("clusters") > 0 ? c.arg("clusters") : 0.0;
  const double spread = c.args.count("spread") > 0 ? c.arg("spread") : 0.05;
  const double step = c.args.count("step") > 0 ? c.arg("step") : 0.0;
  if (!is_floating(c.dtype))
    JUDGE_THROW(Error, "generator 'points' makes coordinates; the buffer is {} (a floating type)", to_string(c.dtype));
  if (!(dims >= 1) || dims != std::floor(dims) || std::fmod(static_cast<double>(c.count), dims) != 0)
    JUDGE_THROW(Error, "generator 'points': dims = {} does not divide the element count {}", dims, c.count);
  if (!(clusters >= 0) || clusters != std::floor(clusters))
    JUDGE_THROW(Error, "generator 'points': clusters = {} is not a non-negative integer (0: uniform)", clusters);
  if (!(spread > 0 && spread <= 1))
    JUDGE_THROW(Error, "generator 'points': spread = {} is outside (0, 1] (a fraction of the box width)", spread);
  if (!(step >= 0 && step <= c.dist.high - c.dist.low))
    JUDGE_THROW(Error, "generator 'points': step = {} is outside [0, high - low] (0: no grid)", step);
  fill(c, Points{static_cast<std::int64_t>(dims), static_cast<std::int64_t>(clusters), c.dist.low,
                 c.dist.high - c.dist.low, spread, step, c.key});
}

}  // namespace
}  // namespace judge::gen

JUDGE_GENERATOR(points, judge::gen::points)
