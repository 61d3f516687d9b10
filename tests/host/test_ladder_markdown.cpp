// Ladders beyond the run: the resources of each rung's kernels (from the worker's records, ptxas and the SM's
// limits), a ladder stored with --json read back field for field, clear errors for a stored file that is not one,
// the Markdown tables of submissions/README.md, and the README itself: its tables must be exactly what the stored
// runs in bench/ladder-runs/ give, so nobody types (or forgets to regenerate) them.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/core/base/error.hpp"
#include "judge/core/present/ladder_markdown.hpp"
#include "judge/core/present/report.hpp"
#include "judge/core/run/ladder.hpp"
#include "support/h100_limits.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kSpec = R"({
  "id": "mm", "title": "Matmul", "difficulty": "easy", "summary": "C = A B",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["N"]},
    {"name": "N", "role": "scalar", "dtype": "int32"}
  ],
  "tolerance": {"atol": 1e-6, "rtol": 1e-6},
  "flops": "N",
  "tests": [{"name": "t1", "scalars": {"N": 7}}],
  "benchmarks": [{"name": "small", "scalars": {"N": 1000000}}, {"name": "large", "scalars": {"N": 4000000}}]
})";


KernelLaunch launch(const std::string& name, int threads, int regs, std::int64_t dyn_smem, double ms) {
  KernelLaunch k;
  k.name = name;
  k.grid = {1024, 1, 1};
  k.block = {threads, 1, 1};
  k.registers = regs;
  k.dynamic_smem = dyn_smem;
  k.launches_per_call = 1;
  k.gpu_ms_per_call = ms;
  return k;
}

CaseResult benchmark(const std::string& name, double n, double median_ms, double reference_ms,
                     std::vector<KernelLaunch> kernels) {
  CaseResult c;
  c.name = name;
  c.kind = "benchmark";
  c.verdict = Verdict::accepted;
  c.flops = n * 1e9;
  c.bytes = 8 * n;
  Timing t;
  t.timer = "cupti";
  t.samples = 10;
  t.median_ms = t.min_ms = t.max_ms = t.mean_ms = median_ms;
  c.timing = t;
  Timing r = t;
  r.median_ms = reference_ms;
  c.reference_timing = r;
  c.sol_bound = "compute";
  c.sol_percent = 40;
  c.kernels = std::move(kernels);
  return c;
}

// An accepted rung whose one kernel is `name` (255 registers, 40 KiB dynamic shared memory, 128 threads: two
// blocks of 4 warps per SM, held there by registers), plus a small second kernel on the larger case.
JudgeReport accepted(const std::string& kernel, double small_ms, double large_ms) {
  JudgeReport r;
  r.challenge = "mm";
  r.mode = Mode::submit;
  r.device = DeviceInfo{};
  r.device->name = "Fake GPU 9000";
  r.device->sm = ::judge::testing::h100_sm_limits();
  r.build.ok = true;
  PtxasKernel p;
  p.name = kernel;
  p.arch = "sm_90a";
  p.registers = 255;
  p.spill_store_bytes = 8;
  p.spill_load_bytes = 12;
  r.build.ptxas = {p};
  r.verdict = Verdict::accepted;
  r.cases = {benchmark("small", 1, small_ms, 1, {launch(kernel, 128, 255, 40 * 1024, small_ms)}),
             benchmark("large", 4, large_ms, 2,
                       {launch(kernel, 128, 255, 40 * 1024, 0.9 * large_ms), launch("tail", 32, 16, 0, 0.1 * large_ms)})};
  r.score_ms = std::sqrt(small_ms * large_ms);
  return r;
}

Ladder ladder() {
  const Challenge c = parse_challenge(kSpec, "/tmp/challenges/mm/spec.json");
  JudgeReport wrong;
  wrong.challenge = "mm";
  wrong.build.ok = true;
  wrong.verdict = Verdict::wrong_answer;
  wrong.failed_case = "t1";
  wrong.message = "C: 3 of 7 elements wrong";
  std::vector<Rung> rungs = {{"/somewhere/mm/1_naive.cu", "1_naive", "Rung 1: one thread | per element."},
                             {"/somewhere/mm/2_wrong.cu", "2_wrong", "Rung 2: forgot the edge"},
                             {"/somewhere/mm/3_tiled.cu", "3_tiled", "tiles in shared memory"}};
  return make_ladder(c, rungs, {accepted("_Z5naivePfi", 4, 8), wrong, accepted("tiled", 2, 2)});
}

TEST(LadderKernels, EachAcceptedRungCarriesItsKernelsMostTimeFirst) {
  const Ladder l = ladder();
  ASSERT_EQ(l.rows.size(), 3u);
  ASSERT_EQ(l.rows[0].kernels.size(), 2u);
  const KernelResources& k = l.rows[0].kernels[0];
  EXPECT_EQ(k.display_name, "naive");
  EXPECT_EQ(k.registers, 255);
  EXPECT_EQ(k.dynamic_smem, 40 * 1024);
  ASSERT_TRUE(k.ptxas.has_value());
  EXPECT_EQ(k.ptxas->spill_store_bytes, 8);
  EXPECT_EQ(k.occupancy.blocks_per_sm, 2) << "255 registers x 128 threads: two blocks in 65536 registers";
  EXPECT_EQ(k.occupancy.warps_per_sm, 8);
  EXPECT_EQ(k.occupancy.limited_by, "registers");
  EXPECT_EQ(l.rows[0].kernels[1].display_name, "tail");
  EXPECT_TRUE(l.rows[1].kernels.empty()) << "a rejected rung was not timed";

  const json j = to_json(l);
  ASSERT_EQ(j.at("rungs").at(0).at("kernels").size(), 2u);
  EXPECT_EQ(j.at("rungs").at(0).at("kernels").at(0).at("registers"), 255);
  EXPECT_EQ(j.at("rungs").at(0).at("kernels").at(0).at("occupancy").at("blocks_per_sm"), 2);
  EXPECT_TRUE(j.at("rungs").at(1).at("kernels").empty());

  std::ostringstream out;
  make_console_reporter(false)->ladder(l, "", out);
  const std::string s = out.str();
  for (const char* needle :
       {"kernel naive: 128 threads, 255 registers, 8/12 B spills, 40 KiB dyn shared, occupancy 12% (8/64 warps, "
        "registers)",
        "% of the time)"})
    EXPECT_NE(s.find(needle), std::string::npos) << "missing \"" << needle << "\"\n" << s;
}

TEST(LadderStored, ReadBackFieldForField) {
  const Ladder l = ladder();
  const json stored = to_json(l);
  const Ladder back = ladder_from_json(json::parse(stored.dump()), "run.json");
  EXPECT_EQ(to_json(back), stored) << "what --json stores, --from reads back unchanged";
  EXPECT_EQ(back.rows[2].kernels[0].occupancy.percent(), l.rows[2].kernels[0].occupancy.percent());
  EXPECT_EQ(back.rows[0].rung.file, fs::path("/somewhere/mm/1_naive.cu"));
}

TEST(LadderStored, ARunStoredBeforeKernelsWereRecordedStillReads) {
  json stored = to_json(ladder());
  for (auto& r : stored.at("rungs")) r.erase("kernels");
  const Ladder back = ladder_from_json(stored, "old.json");
  EXPECT_TRUE(back.rows[0].kernels.empty());
  EXPECT_NE(ladder_markdown({back}).find("not recorded"), std::string::npos);
}

TEST(LadderStored, ErrorsNameTheFileAndWhatIsWrong) {
  auto message = [](const json& j) {
    try {
      ladder_from_json(j, "bench/x.json");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  json no_rungs = to_json(ladder());
  no_rungs.erase("rungs");
  std::string m = message(no_rungs);
  EXPECT_NE(m.find("bench/x.json"), std::string::npos) << m;
  EXPECT_NE(m.find("rungs"), std::string::npos) << m;
  EXPECT_NE(m.find("judge ladder --json"), std::string::npos) << m;

  json bad_bound = to_json(ladder());
  bad_bound["bound"] = "latency";
  m = message(bad_bound);
  EXPECT_NE(m.find("\"latency\""), std::string::npos) << m;

  json short_rung = to_json(ladder());
  short_rung["rungs"][0]["cases"].erase(1);
  m = message(short_rung);
  EXPECT_NE(m.find("1_naive has 1 cases where the ladder has 2"), std::string::npos) << m;

  EXPECT_NE(message(json::array()).find("bench/x.json"), std::string::npos);
}

TEST(LadderMarkdown, AChartLinkOpensTheTable) {
  const std::string md = ladder_markdown({ladder(), ladder()}, {"../runs/mm.svg"});
  EXPECT_EQ(md.rfind("### mm\n\n![mm: one bar per rung, the ceiling as a line](../runs/mm.svg)\n\nMeasured on", 0), 0u)
      << md;
  EXPECT_EQ(md.find("](", md.find("### mm", 1)), std::string::npos) << "no link for the second ladder: " << md;
}

TEST(LadderMarkdown, OneTablePerLadderWithEveryRung) {
  const std::string md = ladder_markdown({ladder()});
  std::vector<std::string> lines;
  std::istringstream in(md);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_GE(lines.size(), 8u) << md;
  EXPECT_EQ(lines[0], "### mm");
  EXPECT_NE(lines[2].find("Measured on Fake GPU 9000; compute-bound"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[4], "| rung | idea | small | large | × prev | kernel with most of the time |")
      << lines[4];
  EXPECT_EQ(lines[5], "|---|---|---|---|---|---|");
  // Rung 1: its "Rung 1:" prefix dropped, '|' escaped; per case median · rate · SOL · × ref.
  EXPECT_EQ(lines[6].rfind("| `1_naive.cu` | one thread \\| per element. | 4 ms · 250 GFLOP/s · 40% SOL · 0.25× ref"
                           " | 8 ms · 500 GFLOP/s · 40% SOL · 0.25× ref | - | `naive`: 128 threads, 255 registers, "
                           "8/12 B spills, 40 KiB dyn shared, occupancy 12% (8/64 warps, registers) (",
                           0),
            0u)
      << lines[6];
  EXPECT_NE(lines[6].find("1 more kernel)"), std::string::npos) << lines[6];
  EXPECT_EQ(lines[7], "| `2_wrong.cu` | forgot the edge | ✗ Wrong answer in case t1 | | | |");
  // Rung 3: 2x and 4x faster than rung 1: the geometric mean over the cases, sqrt(8) = 2.83.
  EXPECT_NE(lines[8].find("| 2.83× |"), std::string::npos) << lines[8];
  for (const auto& line : lines)
    if (line.rfind("|", 0) == 0)
      EXPECT_EQ(std::count(line.begin(), line.end(), '|') - std::count(line.begin(), line.end(), '\\'), 7)
          << "every row has the header's six columns: " << line;
}

// Every ladder run kept in bench/ (the ladders' stored runs, the matmul autotuning sweep) reads back, so `judge ladder
// --from` shows it, and every rung in it was accepted with its cases timed.
TEST(LadderStored, EveryRunKeptInBenchReadsBack) {
  const fs::path bench = ::judge::testing::source_dir() / "bench";
  int runs = 0;
  for (const auto& f : fs::recursive_directory_iterator(bench)) {
    if (f.path().extension() != ".json") continue;
    std::ifstream in(f.path());
    const json j = json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("rungs")) continue;  // not a ladder run
    const Ladder l = ladder_from_json(j, f.path().string());
    ++runs;
    EXPECT_FALSE(l.rows.empty()) << f.path();
    EXPECT_FALSE(l.gpu_name.empty()) << f.path() << ": a stored run says on which GPU";
    for (const auto& row : l.rows) {
      EXPECT_TRUE(row.accepted()) << f.path() << ": " << row.rung.name;
      for (const auto& c : row.cells) EXPECT_GT(c.median_ms, 0) << f.path() << ": " << row.rung.name;
    }
  }
  EXPECT_GE(runs, 11) << "the ten ladders' runs and the matmul sweep";
}

// submissions/README.md's tables are generated from the stored runs (scripts/ladder-readme.sh); this test fails as
// soon as either changes without the other.
TEST(LadderMarkdown, SubmissionsReadmeIsGeneratedFromTheStoredRuns) {
  const fs::path root = ::judge::testing::source_dir();
  std::ifstream readme_file(root / "submissions" / "README.md");
  ASSERT_TRUE(readme_file) << "submissions/README.md";
  std::stringstream readme;
  readme << readme_file.rdbuf();
  const std::string text = readme.str();
  const std::string begin = "<!-- ladder tables: begin", end = "<!-- ladder tables: end -->";
  const auto b = text.find(begin), e = text.find(end);
  ASSERT_NE(b, std::string::npos) << "submissions/README.md has no generated section";
  ASSERT_NE(e, std::string::npos);
  // The begin marker names the stored runs' folder: <!-- ladder tables: begin, from bench/ladder-runs/h100 -->
  const auto from = text.find("from ", b), close = text.find(" -->", b);
  ASSERT_LT(from, close);
  const fs::path runs = root / text.substr(from + 5, close - from - 5);
  std::vector<fs::path> files;
  for (const auto& f : fs::directory_iterator(runs))
    if (f.path().extension() == ".json") files.push_back(f.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << runs;
  std::vector<Ladder> ladders;
  std::vector<std::string> charts;  // each run's chart beside it, linked from submissions/ (one level down)
  for (const auto& f : files) {
    std::ifstream in(f);
    ladders.push_back(ladder_from_json(json::parse(in), f.string()));
    const fs::path svg = fs::path(f).replace_extension(".svg");
    charts.push_back(fs::exists(svg) ? "../" + fs::relative(svg, root).generic_string() : "");
  }
  const std::string generated = text.substr(close + 5, e - close - 5);
  EXPECT_EQ(generated, ladder_markdown(ladders, charts) + "\n")
      << "submissions/README.md's ladder tables differ from " << runs << ": run scripts/ladder-readme.sh";
}

}  // namespace
}  // namespace judge
