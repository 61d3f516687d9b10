#include "judge/core/present/kernel_table.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace judge {

namespace {

constexpr std::size_t kNameWidth = 44;

std::string clip(const std::string& s, std::size_t width) {
  if (s.size() <= width) return s;
  return s.substr(0, width - 3) + "...";
}

std::string block_text(const std::array<int, 3>& b) {
  if (b[1] == 1 && b[2] == 1) return fmt::format("{}", b[0]);
  if (b[2] == 1) return fmt::format("{}x{}", b[0], b[1]);
  return fmt::format("{}x{}x{}", b[0], b[1], b[2]);
}

std::string smem_text(const KernelResources& k) {
  if (k.dynamic_smem == 0) return format_bytes_short(k.static_smem);
  if (k.static_smem == 0) return format_bytes_short(k.dynamic_smem) + " dyn";
  return format_bytes_short(k.static_smem) + " + " + format_bytes_short(k.dynamic_smem) + " dyn";
}

}  // namespace

std::string format_bytes_short(std::int64_t bytes) {
  if (bytes < 1024) return fmt::format("{} B", bytes);
  const double kib = bytes / 1024.0;
  if (kib < 1024)
    return kib == static_cast<std::int64_t>(kib) ? fmt::format("{:.0f} KiB", kib) : fmt::format("{:.1f} KiB", kib);
  return fmt::format("{:.1f} MiB", kib / 1024);
}

std::string occupancy_text(const Occupancy& o) {
  if (!o.error.empty() && o.blocks_per_sm == 0) return "?";
  std::string s = fmt::format("{:.0f}% ({}/{} warps", o.percent(), o.warps_per_sm, o.max_warps_per_sm);
  if (!o.limited_by.empty()) s += ", " + o.limited_by;
  return s + ")";
}

std::string spills_text(const KernelResources& k) {
  if (!k.ptxas) return "-";
  if (!k.ptxas->spills()) return "0";
  return fmt::format("{}/{} B", k.ptxas->spill_store_bytes, k.ptxas->spill_load_bytes);
}

std::string resources_text(const KernelResources& k) {
  std::string spills = spills_text(k);
  spills = spills == "-" ? "" : fmt::format(", {} spills", spills);
  return fmt::format("{} threads, {} registers{}, {} shared, occupancy {}", k.block_threads(), k.registers, spills,
                     smem_text(k), occupancy_text(k.occupancy));
}

std::string kernel_summary(const KernelResources& k) { return k.display_name + ": " + resources_text(k); }

KernelTable kernel_table(const std::vector<KernelResources>& kernels) {
  KernelTable t;
  if (kernels.empty()) return t;
  std::size_t w = 6;
  for (const auto& k : kernels) w = std::max(w, std::min(kNameWidth, k.display_name.size()));
  t.lines.push_back(fmt::format("{:<{}}  {:>5} {:>8} {:>9} {:>5} {:>9} {:>16} {:>7}  {}", "kernel", w, "time",
                                "launches", "block", "regs", "spills", "shared mem", "local", "occupancy"));
  for (const auto& k : kernels)
    t.lines.push_back(fmt::format("{:<{}}  {:>5} {:>8} {:>9} {:>5} {:>9} {:>16} {:>7}  {}", clip(k.display_name, w), w,
                                  fmt::format("{:.0f}%", k.time_percent), fmt::format("{:.3g}", k.launches_per_call),
                                  block_text(k.block), k.registers, spills_text(k), smem_text(k),
                                  format_bytes_short(k.local_bytes), occupancy_text(k.occupancy)));
  // What stands out, for the kernels that matter (a tenth of the time or more).
  for (const auto& k : kernels) {
    if (k.time_percent < 10) continue;
    if (k.ptxas && k.ptxas->spills())
      t.notes.push_back(fmt::format(
          "{} spills registers to local memory ({} bytes stored, {} loaded per thread, per ptxas): fewer live values, "
          "a smaller thread tile, or a looser __launch_bounds__/-maxrregcount would keep them in registers",
          k.display_name, k.ptxas->spill_store_bytes, k.ptxas->spill_load_bytes));
    const Occupancy& o = k.occupancy;
    if (o.blocks_per_sm > 0 && o.percent() < 50 && !o.limited_by.empty() && o.limited_by != "warps")
      t.notes.push_back(fmt::format("{} fits {} block{} per SM, held there by {}: fine if each warp has enough "
                                    "independent work in flight, otherwise the SM waits on memory",
                                    k.display_name, o.blocks_per_sm, o.blocks_per_sm == 1 ? "" : "s", o.limited_by));
    if (!o.error.empty()) t.notes.push_back(fmt::format("{}: occupancy unknown: {}", k.display_name, o.error));
  }
  return t;
}

}  // namespace judge
