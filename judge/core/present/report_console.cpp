// Human output: aligned tables, verdicts in colour on a terminal, and on failure everything needed to understand
// and replay it.
#include <cmath>
#include <fmt/color.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "judge/core/present/kernel_table.hpp"
#include "judge/core/present/report.hpp"

namespace judge {

namespace {

// A path as a shell word, so the printed replay command can be pasted back as it is.
std::string shell_quote(const std::string& s) {
  bool plain = !s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                 "_-./+,:@%") == std::string::npos;
  if (plain) return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

class ConsoleReporter final : public Reporter {
 public:
  explicit ConsoleReporter(bool color) : color_(color) {}

  void challenge_list(const std::vector<CatalogEntry>& entries, std::ostream& out) override {
    std::size_t w = 2;
    for (const auto& e : entries) w = std::max(w, e.dir.filename().string().size());
    out << fmt::format("{:<{}}  {:<6}  {}\n", "id", w, "level", "summary");
    for (const auto& e : entries) {
      if (e.challenge)
        out << fmt::format("{:<{}}  {:<6}  {}\n", paint(e.challenge->id, fmt::emphasis::bold), w,
                           e.challenge->difficulty, e.challenge->summary);
      else
        out << fmt::format("{:<{}}  {:<6}  {}\n", e.dir.filename().string(), w, "-",
                           paint("broken spec: " + e.error, fg(fmt::terminal_color::red)));
    }
  }

  void challenge_detail(const Challenge& c, const std::string& statement, std::ostream& out) override {
    out << paint(fmt::format("{} ({})", c.title, c.difficulty), fmt::emphasis::bold) << "\n" << c.summary << "\n\n";
    out << "signature\n  " << c.signature() << "\n\n";
    out << statement;
    if (!statement.empty() && statement.back() != '\n') out << "\n";
    out << "\n";
    out << "tolerance  "
        << (c.tolerance.exact  ? std::string("exact")
            : c.tolerance.norm() ? fmt::format("||out - ref||_2 <= {:g} * ||ref||_2 over the whole output",
                                               c.tolerance.rel_norm)
                                 : fmt::format("|out - ref| <= {:g} + {:g} * |ref|", c.tolerance.atol, c.tolerance.rtol))
        << "; NaN/Inf never pass where the reference is finite\n";
    for (const auto& p : c.params)
      if (!p.check.empty()) out << fmt::format("checked    {} by the '{}' checker\n", p.name, p.check);
    if (!c.constraints.empty()) {
      std::string list;
      for (const auto& e : c.constraints) list += (list.empty() ? "" : ", ") + e.text();
      out << "promises   " << list << " (every graded case keeps them)\n";
    }
    out << fmt::format("timeout    {:g} s per solve() call\n", c.timeout_s);
    out << fmt::format("cost       flops = {}; bytes = {}\n\n", c.flops.text(),
                       c.bytes ? c.bytes->text() : "inputs read once + outputs written once");
    auto list = [&](const char* title, const std::vector<Case>& cases, bool benchmark, bool stress) {
      if (std::none_of(cases.begin(), cases.end(), [&](const Case& k) { return k.stress == stress; })) return;
      out << paint(title, fmt::emphasis::bold) << "\n";
      for (const auto& k : cases) {
        if (k.stress != stress) continue;
        std::string what = benchmark ? fmt::format("{:.4g} GFLOP, {:.4g} GB per call", c.flops_for(k.scalars) / 1e9,
                                                   c.bytes_for(k.scalars) / 1e9)
                                     : k.note;
        if (k.leetgpu_performance) what += " (LeetGPU's performance case)";
        out << fmt::format("  {:<22} {:<28} {}\n", k.name, scalars_text(k), what);
        if (stress) out << fmt::format("  {:<22} {}\n", "", k.beyond);
      }
    };
    list("tests", c.tests, false, false);
    list("benchmarks", c.benchmarks, true, false);
    list("stress tests (beyond the promises; reported apart, never part of the verdict or the score)", c.tests, false,
         true);
    list("stress benchmarks (beyond the promises; reported apart, never part of the verdict or the score)",
         c.benchmarks, true, true);
  }

  void initialised(const Challenge& c, const std::string& path, std::ostream& out) override {
    out << fmt::format("wrote the {} starter to {}\n", c.id, path);
    out << fmt::format("next: judge run {} {}\n", c.id, path);
  }

  void judge_result(const JudgeReport& r, const std::string& source, const RecordOutcome& rec,
                    std::ostream& out) override {
    out << paint(fmt::format("{} · {}", r.challenge, source), fmt::emphasis::bold) << "\n";
    if (r.device)
      out << fmt::format("GPU    {} ({}, {} SMs, {:.0f} GiB) · timer {} · seed {}\n", r.device->name,
                         r.device->arch(), r.device->sm_count, r.device->memory_bytes / 1073741824.0,
                         r.timer.empty() ? "-" : r.timer, r.seed);
    out << fmt::format("build  {}{} in {:.2f} s\n", r.build.ok ? "ok" : "failed", r.build.cached ? " (cached)" : "",
                       r.build.seconds);
    if (!r.build.ok) {
      out << "\n" << r.build.diagnostics;
      if (!r.build.diagnostics.empty() && r.build.diagnostics.back() != '\n') out << "\n";
    }
    std::vector<const CaseResult*> graded, stress;
    for (const auto& c : r.cases) (c.stress ? stress : graded).push_back(&c);
    if (!graded.empty()) cases_table(graded, out);
    if (!stress.empty()) stress_section(r, stress, source, out);
    timing_notes(r, out);
    kernels_section(r, out);
    if (!r.sanitizer_text.empty() || r.sanitizer) {
      out << "\n" << paint(fmt::format("compute-sanitizer ({}):", r.sanitizer_tool ? to_string(*r.sanitizer_tool) : ""),
                          fmt::emphasis::bold)
          << "\n";
      if (r.sanitizer && r.sanitizer->clean()) out << "  no errors\n";
      else out << r.sanitizer_text << (r.sanitizer_text.empty() || r.sanitizer_text.back() == '\n' ? "" : "\n");
    }
    if (!r.output.empty()) {
      out << "\n" << paint("the submission printed:", fmt::emphasis::bold) << "\n" << r.output;
      if (r.output.back() != '\n') out << "\n";
      if (r.output_dropped) out << fmt::format("[{} more bytes not shown]\n", r.output_dropped);
    }
    out << "\n";
    if (r.accepted()) {
      out << paint("✓ Accepted", fg(fmt::terminal_color::green) | fmt::emphasis::bold);
      if (r.mode == Mode::submit) out << fmt::format(" · score {} (geometric mean of graded benchmark medians)",
                                                     format_duration_ms(r.score_ms));
      const auto failed = std::count_if(r.cases.begin(), r.cases.end(), [](const CaseResult& c) {
        return c.stress && c.verdict != Verdict::accepted;
      });
      if (failed > 0)
        out << paint(fmt::format(" · {} stress case{} failed (above; not part of the verdict)", failed,
                                 failed == 1 ? "" : "s"),
                     fg(fmt::terminal_color::yellow));
      out << "\n";
    } else {
      out << paint(fmt::format("✗ {}", label(r.verdict)), fg(fmt::terminal_color::red) | fmt::emphasis::bold);
      if (!r.failed_case.empty()) out << " in case " << r.failed_case;
      out << "\n";
      if (!r.message.empty()) out << "  " << r.message << "\n";
      failure_details(r, source, out);
    }
    if (!r.protections.empty()) {
      // What kept the submission from the judge's records; anything off stands out.
      const std::vector<Protection> merged = merge_protections(r.protections);
      const bool any_off =
          std::any_of(merged.begin(), merged.end(), [](const Protection& p) { return !p.on; });
      out << paint("sandbox: " + protections_text(merged),
                   any_off ? fg(fmt::terminal_color::yellow) : fmt::text_style(fmt::emphasis::faint))
          << "\n";
    }
    if (rec.attempted) {
      if (rec.recorded)
        // A rank is a moment's: submissions recorded later move it, so it says of how many and when.
        out << fmt::format("recorded as submission #{} in {} (rank {} of {} on this GPU when recorded)\n",
                           rec.submission_id, rec.database, rec.rank, rec.ranked);
      else
        out << paint(fmt::format("not recorded: {}", rec.error), fg(fmt::terminal_color::yellow)) << "\n"
            << (rec.saved_to.empty() ? "" : fmt::format("the result was saved to {}\n", rec.saved_to));
    }
  }

  void leaderboard(const std::vector<LeaderboardView>& views, std::ostream& out) override {
    if (views.empty()) out << "no accepted submissions yet\n";
    for (const auto& v : views) {
      out << paint(fmt::format("{} on {}", v.challenge, v.gpu_name), fmt::emphasis::bold) << "\n";
      out << fmt::format("  {:>4}  {:<20} {:>12}  {:>8}  {:<24} {}\n", "rank", "user", "score", "attempts",
                         "when (UTC)", "id");
      for (const auto& e : v.ranking)
        out << fmt::format("  {:>4}  {:<20} {:>12}  {:>8}  {:<24} #{}\n", e.rank, e.user,
                           format_duration_ms(e.score_ms), e.attempts, e.created_at, e.submission_id);
      out << "\n";
    }
  }

  void leaderboard_overview(const std::vector<BoardSummary>& boards, const std::string& database,
                            std::ostream& out) override {
    if (boards.empty()) {
      out << fmt::format("no accepted submissions yet in {}; `judge submit <challenge> <file>` records one\n",
                         database);
      return;
    }
    std::size_t wc = 9, wg = 3, wl = 6;
    for (const auto& b : boards) {
      wc = std::max(wc, b.challenge.size());
      wg = std::max(wg, b.gpu_name.size());
      wl = std::max(wl, b.leader.size());
    }
    out << fmt::format("{:<{}}  {:<{}}  {:<{}}  {:>10}  {:>5}  {:>11}\n", "challenge", wc, "GPU", wg, "leader", wl,
                       "score", "users", "submissions");
    for (const auto& b : boards)
      out << fmt::format("{}  {:<{}}  {:<{}}  {:>10}  {:>5}  {:>11}\n",
                         paint(fmt::format("{:<{}}", b.challenge, wc), fmt::emphasis::bold), b.gpu_name, wg, b.leader,
                         wl, format_duration_ms(b.score_ms), b.users, b.submissions);
    out << "`judge leaderboard <challenge>` shows a challenge's whole ranking\n";
  }

  void calibration(const Calibration& c, bool measured_now, const std::string& stored_in,
                   std::ostream& out) override {
    out << paint(fmt::format("{} (compute capability {}, {} SMs)", c.gpu_name, c.compute_capability, c.sm_count),
                 fmt::emphasis::bold)
        << "\n";
    auto row = [&](const char* what, const std::string& figure) {
      out << fmt::format("  {:<44} {:>14}\n", what, figure);
    };
    row("copy bandwidth (cudaMemcpy device to device)", fmt::format("{:.0f} GB/s", c.copy_gbps));
    row("FP32 FMA", fmt::format("{:.0f} GFLOP/s", c.fp32_fma_gflops));
    row("SGEMM FP32 (cuBLAS, pedantic)", fmt::format("{:.1f} TFLOP/s", c.sgemm_gflops / 1e3));
    row("GEMM TF32 tensor cores (cuBLAS)", fmt::format("{:.1f} TFLOP/s", c.tf32_gflops / 1e3));
    row("GEMM FP16 in, FP32 accumulate (cuBLAS)", fmt::format("{:.1f} TFLOP/s", c.fp16_gflops / 1e3));
    row("GEMM BF16 in, FP32 accumulate (cuBLAS)", fmt::format("{:.1f} TFLOP/s", c.bf16_gflops / 1e3));
    out << fmt::format("measured {}{} by judge {}\n", c.measured_at.empty() ? "at an unknown time" : c.measured_at,
                       measured_now ? " (just now)" : "", c.judge_version.empty() ? "?" : c.judge_version);
    if (stored_in.empty())
      out << "not stored\n";
    else if (measured_now)
      out << fmt::format("stored in {}\n", stored_in);
    else
      out << fmt::format("stored in {}; `judge calibrate --force` measures again\n", stored_in);
  }

  void html_report_written(const ReportData& data, const std::string& file, std::ostream& out) override {
    std::set<std::string> challenges, gpus;
    for (const auto& b : data.boards) {
      challenges.insert(b.challenge);
      gpus.insert(b.gpu_name);
    }
    auto counted = [](std::size_t n, const char* one, const char* many) {
      return fmt::format("{} {}", n, n == 1 ? one : many);
    };
    out << fmt::format("wrote {}: {}, {}, {}\n", paint(file, fmt::emphasis::bold),
                       counted(data.submission_count(), "submission", "submissions"),
                       counted(challenges.size(), "challenge", "challenges"), counted(gpus.size(), "GPU", "GPUs"));
    std::set<std::string> uncalibrated;
    for (const auto& b : data.boards)
      if (!b.calibration && uncalibrated.insert(b.gpu_name).second)
        out << "  no roofs: " << b.calibration_note << "\n";
    for (const auto& note : data.notes) out << "  note: " << note << "\n";
  }

  void profile(const ProfileReport& p, const std::string& source, std::ostream& out) override {
    const JudgeReport& r = p.run;
    out << paint(fmt::format("{} · {} · case {}", r.challenge, source, p.case_name), fmt::emphasis::bold) << "\n";
    if (r.device) out << fmt::format("GPU      {} ({})\n", r.device->name, r.device->arch());
    out << fmt::format("ncu      {}\n", p.ncu);
    out << fmt::format("{} launched by solve() in one checked call (accepted). Nsight Compute locks the clocks to "
                       "base and flushes the caches, so durations read longer than `judge submit`'s.\n",
                       p.kernels.size() == 1 ? std::string("1 kernel") : fmt::format("{} kernels", p.kernels.size()));
    for (const auto& k : p.kernels) {
      out << "\n" << paint(k.name, fmt::emphasis::bold) << "\n";
      auto row = [&](const char* what, const std::string& text) { out << fmt::format("  {:<12} {}\n", what, text); };
      row("duration", k.duration_ns ? format_duration_ms(*k.duration_ns / 1e6) : "n/a");
      std::string throughput = fmt::format("DRAM {} · memory {} · compute (SM) {} of peak", pct(k.dram_pct),
                                           pct(k.memory_pct), pct(k.sm_pct));
      std::string limit = limiter(k);
      if (limit == "memory") throughput += " → " + paint("memory-bound", fmt::emphasis::bold);
      else if (limit == "compute") throughput += " → " + paint("compute-bound", fmt::emphasis::bold);
      else if (limit == "latency")
        throughput += " → " + paint("latency-bound", fmt::emphasis::bold) +
                      " (neither reaches 60%: too few warps, or warps waiting; see occupancy and stalls)";
      row("throughput", throughput);
      row("occupancy", fmt::format("achieved {} of a theoretical {}", pct(k.achieved_occupancy_pct),
                                   pct(k.theoretical_occupancy_pct)));
      row("L2 hit rate", pct(k.l2_hit_pct));
      row("launch", fmt::format("grid {} = {} of {} = {}; {} registers/thread; shared memory {} static + {} dynamic "
                                "per block",
                                k.grid_dims.empty() ? "?" : k.grid_dims, count(k.grid_size, "block"),
                                k.block_dims.empty() ? "?" : k.block_dims, count(k.block_size, "thread"),
                                count(k.registers_per_thread), bytes(k.shared_static_bytes),
                                bytes(k.shared_dynamic_bytes)));
      if (k.top_stalls.empty()) row("stalls", "n/a");
      for (std::size_t i = 0; i < k.top_stalls.size(); ++i) {
        const StallReason& st = k.top_stalls[i];
        row(i == 0 ? "top stalls" : "", fmt::format("{} ({:.3g} cycles per instruction, {:.0f}% of warp time)",
                                                    describe_stall(st.reason), st.cycles, st.share_pct));
      }
    }
    out << "\n";
    if (static_cast<int>(p.kernels.size()) >= p.max_kernels)
      out << paint(fmt::format("note: only the first {} kernels were profiled; --max-kernels raises the limit\n",
                               p.max_kernels),
                   fg(fmt::terminal_color::yellow));
    out << fmt::format("report   {} (open it in Nsight Compute's GUI: ncu-ui {})\n", p.report.string(),
                       shell_quote(p.report.string()));
  }

  void ladder(const Ladder& l, const std::string& chart_file, std::ostream& out) override {
    const std::string unit(rate_unit(l.bound));
    out << paint(l.gpu_name.empty() ? l.challenge : fmt::format("{} on {}", l.challenge, l.gpu_name),
                 fmt::emphasis::bold)
        << "\n";
    const bool timed = l.accepted() > 0;
    if (timed) {
      out << fmt::format("{}-bound: rates in {}", to_string(l.bound), unit);
      if (l.ceiling) out << fmt::format("; ceiling {} {:.0f} {}", l.ceiling->name, l.ceiling->rate, unit);
      out << "\n";
    }
    out << "\n";
    std::size_t w = 4;
    for (const auto& c : l.cases) w = std::max(w, l.case_label(c).size());
    if (timed)
      out << fmt::format("  {:<{}} {:>10} {:>10} {:>5} {:>8} {:>8} {:>8}\n", "case", w, "median", unit, "SOL",
                         "x prev", "x first", "x ref");
    auto times = [](double x) { return x > 0 ? fmt::format("{:.2f}x", x) : std::string("-"); };
    for (const auto& row : l.rows) {
      out << paint(row.rung.name, fmt::emphasis::bold) << (row.rung.idea.empty() ? "" : "  " + row.rung.idea) << "\n";
      if (!row.accepted()) {
        const std::string where = row.failed_case.empty() ? "" : " in case " + row.failed_case;
        out << "  " << paint(fmt::format("✗ {}{}", label(row.verdict), where), fg(fmt::terminal_color::red))
            << (row.message.empty() ? "" : ": " + row.message) << "\n";
        diagnostics_excerpt(row, l.challenge, out);
        continue;
      }
      for (const auto& c : row.cells)
        out << fmt::format("  {:<{}} {:>10} {:>10} {:>5} {:>8} {:>8} {:>8}\n", l.case_label(c.case_name), w,
                           format_duration_ms(c.median_ms), c.rate > 0 ? fmt::format("{:.1f}", c.rate) : "-",
                           c.sol_percent > 0 ? fmt::format("{:.0f}%", c.sol_percent) : "-", times(c.vs_previous),
                           times(c.vs_first), times(c.vs_reference));
      // The resources beside the time: the kernels that took a tenth of it or more (at least the first).
      for (std::size_t i = 0; i < row.kernels.size(); ++i) {
        const KernelResources& k = row.kernels[i];
        if (i > 0 && k.time_percent < 10) continue;
        out << "  " << paint("kernel", fmt::emphasis::faint) << " " << kernel_summary(k)
            << (row.kernels.size() > 1 ? fmt::format(" ({:.0f}% of the time)", k.time_percent) : "") << "\n";
      }
    }
    out << "\n";
    if (timed)
      out << fmt::format("  x prev: speedup over the previous accepted rung; x first: over {}; x ref: over the "
                         "reference (its median / the rung's)\n",
                         l.first);
    const std::size_t n = l.rows.size(), accepted = l.accepted();
    if (l.no_device()) {
      const auto compiled = std::count_if(l.rows.begin(), l.rows.end(),
                                          [](const LadderRow& r) { return r.verdict != Verdict::compile_error; });
      out << paint("✗ No CUDA device is present, so no rung was run",
                   fg(fmt::terminal_color::red) | fmt::emphasis::bold)
          << fmt::format(": {} of {} rungs compile (a compile check only)\n", compiled, n);
    } else if (accepted == n) {
      out << paint(fmt::format("✓ all {} rungs accepted", n), fg(fmt::terminal_color::green) | fmt::emphasis::bold)
          << "\n";
    } else {
      std::vector<std::string> rejected;
      for (const auto& r : l.rows)
        if (!r.accepted()) rejected.push_back(r.rung.name);
      out << paint(fmt::format("✗ {} of {} rungs not accepted", n - accepted, n),
                   fg(fmt::terminal_color::red) | fmt::emphasis::bold)
          << ": " << fmt::format("{}", fmt::join(rejected, ", ")) << "\n";
    }
    if (!chart_file.empty()) out << "chart written to " << chart_file << "\n";
  }

  void error(const std::string& message, std::ostream& out) override {
    out << paint("error: ", fg(fmt::terminal_color::red) | fmt::emphasis::bold) << message << "\n";
  }

 private:
  std::string paint(const std::string& s, fmt::text_style style) const {
    return color_ ? fmt::format(style, "{}", s) : s;
  }

  static std::string pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f}%", *v) : "n/a"; }
  static std::string count(const std::optional<double>& v, const std::string& unit = "") {
    if (!v) return unit.empty() ? "n/a" : "n/a " + unit + "s";
    if (unit.empty()) return fmt::format("{:.0f}", *v);
    return fmt::format("{:.0f} {}{}", *v, unit, *v == 1 ? "" : "s");
  }
  static std::string bytes(const std::optional<double>& v) {
    if (!v) return "n/a";
    if (*v >= 1024 && std::fmod(*v, 1024) == 0) return fmt::format("{:.0f} KiB", *v / 1024);
    return fmt::format("{:.0f} B", *v);
  }

  static std::string scalars_text(const Case& c) {
    std::string s;
    // Whole numbers in full (N=1000003, not 1e+06): a size is read to the last digit.
    for (const auto& [k, v] : c.scalars)
      s += v == std::floor(v) && std::fabs(v) < 1e15 ? fmt::format("{}{}={:.0f}", s.empty() ? "" : " ", k, v)
                                                     : fmt::format("{}{}={:g}", s.empty() ? "" : " ", k, v);
    return s;
  }

  static std::string scalars_text(const nlohmann::json& scalars) {
    std::string s;
    for (const auto& [k, v] : scalars.items())
      s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v.is_number() ? fmt::format("{:g}", v.get<double>()) : v.dump());
    return s;
  }

  void cases_table(const std::vector<const CaseResult*>& cases, std::ostream& out) {
    bool timed = std::any_of(cases.begin(), cases.end(), [](const CaseResult* c) { return c->timing.has_value(); });
    std::size_t w = 4;
    for (const auto* c : cases) w = std::max(w, c->name.size());
    out << "\n"
        << fmt::format("  {:<{}}  {:<20} {:<22}", "case", w, "verdict", "sizes");
    if (timed)
      out << fmt::format(" {:>10} {:>10} {:>10} {:>6} {:>8} {:>12}", "median", "GFLOP/s", "GB/s", "SOL", "vs ref",
                         "samples");
    out << "\n";
    for (const auto* pc : cases) {
      const CaseResult& c = *pc;
      bool ok = c.verdict == Verdict::accepted;
      std::string verdict = fmt::format("{} {}", ok ? "✓" : "✗", label(c.verdict));
      std::string padded = fmt::format("{:<20}", verdict);
      out << fmt::format("  {:<{}}  {} {:<22}", c.name, w,
                         paint(padded, fg(ok ? fmt::terminal_color::green : fmt::terminal_color::red)),
                         scalars_text(c.scalars));
      if (c.timing)
        out << fmt::format(" {:>10} {:>10.1f} {:>10.1f} {:>6} {:>8} {:>12}", format_duration_ms(c.timing->median_ms),
                           c.gflops(), c.gbps(), c.sol_percent > 0 ? fmt::format("{:.0f}%", c.sol_percent) : "-",
                           c.speedup() > 0 ? fmt::format("{:.2f}x", c.speedup()) : "-",
                           fmt::format("{} ±{:.1f}%", c.timing->samples, c.timing->noise_pct));
      out << "\n";
    }
  }

  // The cases beyond the statement's promises: each with what it goes past, and why it failed if it did. They decide
  // nothing unless the run was strict; a failure still gets its replay line.
  void stress_section(const JudgeReport& r, const std::vector<const CaseResult*>& stress, const std::string& source,
                      std::ostream& out) {
    out << "\n"
        << paint(r.strict ? "stress cases (beyond the statement's promises; --strict: they decide the verdict, not the "
                            "score)"
                          : "stress cases (beyond the statement's promises: reported, never part of the verdict or the "
                            "score; --strict makes them count)",
                 fmt::emphasis::bold);
    cases_table(stress, out);
    for (const auto* c : stress) {
      out << paint(fmt::format("  {}: {}\n", c->name, c->beyond), fmt::text_style(fmt::emphasis::faint));
      if (c->verdict == Verdict::accepted) continue;
      if (!c->message.empty()) out << "    " << c->message << "\n";
      if (std::string replay = replay_case_command(r, source, *c); !replay.empty())
        out << "    replay: " << replay << "\n";
    }
  }

  // Under the timing table: the resources of each kernel solve() launched while timed.
  void kernels_section(const JudgeReport& r, std::ostream& out) {
    KernelTable t = kernel_table(kernel_resources(r.cases, r.build.ptxas, r.device ? &*r.device : nullptr));
    if (t.lines.empty()) {
      bool timed =
          std::any_of(r.cases.begin(), r.cases.end(), [](const CaseResult& c) { return c.timing.has_value(); });
      if (timed && r.timer == "events")
        out << "  note: no kernel resources: they come from CUPTI's kernel records, and this run timed with events\n";
      return;
    }
    out << "\n" << paint("kernels launched by solve() while timed (CUPTI; spills from ptxas)", fmt::emphasis::bold)
        << "\n";
    for (const auto& line : t.lines) out << "  " << line << "\n";
    for (const auto& note : t.notes) out << paint("  note: " + note + "\n", fg(fmt::terminal_color::yellow));
  }

  // What the timing columns mean and anything that makes the numbers less trustworthy.
  void timing_notes(const JudgeReport& r, std::ostream& out) {
    int throttled = 0;
    bool any_sol = false, unconverged = false;
    std::vector<std::string> concurrent;
    for (const auto& c : r.cases) {
      if (!c.timing) continue;
      if (c.timing->timer == "cupti-concurrent") concurrent.push_back(c.name);
      throttled += c.timing->throttled;
      any_sol = any_sol || c.sol_floor_ms > 0;
      unconverged = unconverged || !c.timing->converged;
    }
    if (any_sol && r.calibration)
      out << fmt::format("  SOL: the case's floor (bytes at {:.0f} GB/s or flops at {:.1f} TFLOP/s FP32, whichever is "
                         "larger) as a share of the median\n",
                         r.calibration->copy_gbps, r.calibration->fp32_fma_gflops / 1e3);
    if (throttled)
      out << paint(fmt::format("  note: {} samples were discarded because the SM clock was below 75% of its boost "
                               "clock (the GPU was throttling)\n",
                               throttled),
                   fg(fmt::terminal_color::yellow));
    if (!concurrent.empty())
      out << fmt::format("  note: {} ran kernels on more than one stream, so its kernels were timed with CUPTI's "
                         "concurrent tracing, which keeps their overlap but instruments them: kernels of many short "
                         "blocks read up to about 7% slow that way\n",
                         fmt::join(concurrent, ", "));
    if (unconverged)
      out << "  note: some medians did not reach the noise target within the time budget (see ±%; --budget raises "
             "it)\n";
    if (!r.timer_warning.empty())
      out << paint(fmt::format("  warning: {}\n", r.timer_warning), fg(fmt::terminal_color::yellow));
  }

  void failure_details(const JudgeReport& r, const std::string& source, std::ostream& out) {
    for (const auto& c : r.cases) {
      if (c.name != r.failed_case) continue;
      for (const auto& o : c.outputs) {
        if (o.first.empty()) continue;
        out << fmt::format("  first mismatches of {} ({} of {} wrong):\n", o.name, o.mismatches, o.count);
        for (const auto& m : o.first) {
          std::string at;
          for (auto x : m.coords) at += fmt::format("[{}]", x);
          out << fmt::format("    {}{} (index {}): got {:.7g}, expected {:.7g}\n", o.name, at, m.index, m.got,
                             m.expected);
        }
      }
      if (!c.inputs_preview.empty()) {
        out << "  the whole case:\n";
        std::string line;
        for (char ch : c.inputs_preview) {
          if (ch == '\n') {
            out << "    " << line << "\n";
            line.clear();
          } else {
            line += ch;
          }
        }
        if (!line.empty()) out << "    " << line << "\n";  // a last line without '\n' is still part of the case
      }
    }
    if (std::string replay = replay_command(r, source); !replay.empty()) out << "  replay: " << replay << "\n";
  }

  // The first lines of a rung's compiler output; `judge run` shows it all.
  void diagnostics_excerpt(const LadderRow& row, const std::string& challenge, std::ostream& out) {
    constexpr int kLines = 6;
    std::istringstream in(row.diagnostics);
    std::string line;
    int shown = 0, more = 0;
    while (std::getline(in, line)) {
      if (shown < kLines) {
        out << "    " << line << "\n";
        ++shown;
      } else {
        ++more;
      }
    }
    if (more)
      out << fmt::format("    [{} more lines: judge run {} {} shows them all]\n", more, challenge,
                         shell_quote(row.rung.file.string()));
  }

  bool color_;
};

}  // namespace

std::string format_duration_ms(double ms) {
  if (ms <= 0) return "-";
  // Thresholds sit where the rounded value would reach the next unit: 999.9 ms is "1.00 s", not "1e+03 ms".
  if (ms < 0.9995e-3) return fmt::format("{:.0f} ns", ms * 1e6);
  if (ms < 0.99995) return fmt::format("{:.1f} µs", ms * 1e3);
  if (ms < 999.5) return fmt::format("{:.3g} ms", ms);
  return fmt::format("{:.2f} s", ms / 1000);
}

std::string format_rate(double per_second, const char* unit) {
  const char* prefixes[] = {"", "K", "M", "G", "T", "P"};
  int i = 0;
  while (per_second >= 999.5 && i < 5) {  // 999.7 G is "1 T", not "1e+03 G"
    per_second /= 1000;
    ++i;
  }
  return fmt::format("{:.3g} {}{}", per_second, prefixes[i], unit);
}

std::vector<Protection> merge_protections(const std::vector<Protection>& protections) {
  std::vector<Protection> merged;
  for (const auto& p : protections) {
    auto same = std::find_if(merged.begin(), merged.end(), [&](const Protection& m) { return m.name == p.name; });
    if (same == merged.end()) merged.push_back(p);
    else if (same->on && !p.on) *same = p;
  }
  return merged;
}

std::string protections_text(const std::vector<Protection>& protections) {
  std::string on, off;
  for (const auto& p : merge_protections(protections)) {
    if (p.on) on += (on.empty() ? "" : ", ") + p.name;
    else off += (off.empty() ? "" : ", ") + p.name + (p.why.empty() ? "" : " (" + p.why + ")");
  }
  if (off.empty()) return on;
  return (on.empty() ? std::string("nothing on") : on) + " · off: " + off;
}

std::string replay_command(const JudgeReport& r, const std::string& source) {
  if (r.accepted() || !r.device || r.verdict == Verdict::compile_error || r.verdict == Verdict::no_device) return {};
  for (const auto& c : r.cases)
    if (c.name == r.failed_case) return replay_case_command(r, source, c);
  return fmt::format("judge run {} {} --seed {}", r.challenge, shell_quote(source), r.seed);
}

std::string replay_case_command(const JudgeReport& r, const std::string& source, const CaseResult& c) {
  if (!r.device || c.verdict == Verdict::accepted) return {};
  // A case named with --case decides the verdict, stress or not: the replay fails as the case did.
  std::string command =
      fmt::format("judge run {} {} --seed {} --case {}", r.challenge, shell_quote(source), r.seed, c.name);
  if (c.failed_call > 1) command += fmt::format(" --call {}", c.failed_call);
  return command;
}

std::unique_ptr<Reporter> make_console_reporter(bool color) { return std::make_unique<ConsoleReporter>(color); }

}  // namespace judge
