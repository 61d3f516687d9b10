// `judge ladder` without a GPU: rungs found and ordered by their number (10_x after 9_x), each one's idea read from
// the comment it opens with, the table computed from hand-made JudgeReports (speedups over the previous and the
// first accepted rung and over the reference, a rejected rung in the middle, a missing reference time, the bound and
// the ceiling), its JSON and console forms, and the chart: a standalone SVG read back as XML, one bar per accepted
// rung and case with heights proportional to the rates, the ceiling line, axis titles and every rung named.
#include "judge/core/run/ladder.hpp"

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/core/base/error.hpp"
#include "judge/core/present/ladder_chart.hpp"
#include "judge/core/present/report.hpp"
#include "judge/core/run/ladder_rungs.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

namespace fs = std::filesystem;
using ::judge::testing::TempDir;
using ::judge::testing::write_file;
using nlohmann::json;

// ---- rungs ----

TEST(LadderRungs, OrderedByTheirNumberNotAsText) {
  TempDir dir;
  for (const char* name : {"10_double_buffering.cu", "9_warptiling.cu", "1_naive.cu", "2_b.cu", "2_a.cu",
                           "README.md", "helper.cu", "x_1.cu", "3_notes.txt"})
    write_file(dir / name, "// x\n");
  fs::create_directories(dir / "4_folder.cu");
  std::vector<std::string> names;
  for (const auto& f : find_rungs(dir.path())) names.push_back(f.filename().string());
  EXPECT_EQ(names, (std::vector<std::string>{"1_naive.cu", "2_a.cu", "2_b.cu", "9_warptiling.cu",
                                             "10_double_buffering.cu"}));
}

TEST(LadderRungs, AFolderWithoutRungsIsAnErrorNamingIt) {
  TempDir dir;
  write_file(dir / "solve.cu", "// not a rung\n");
  try {
    find_rungs(dir.path());
    FAIL() << "no rung, no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.path().string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("N_name.cu"), std::string::npos) << e.what();
  }
  EXPECT_THROW(find_rungs(dir / "missing"), Error);
}

TEST(LadderRungs, FirstCommentLineComments) {
  EXPECT_EQ(first_comment("// Rung 1: one thread per element.\n// More on it.\n#include <x>\n"),
            "Rung 1: one thread per element.");
  EXPECT_EQ(first_comment("  //   spaced out   \r\nint x;\n"), "spaced out");
  EXPECT_EQ(first_comment("//\n// the text is on the second line\n"), "the text is on the second line");
  EXPECT_EQ(first_comment("/// doxygen style\n"), "doxygen style");
  EXPECT_EQ(first_comment("#include <cuda_runtime.h>\n\n// after the includes\n"), "after the includes");
}

TEST(LadderRungs, TheIdeaIsTheFirstSentenceAcrossLines) {
  EXPECT_EQ(first_comment("// Rung 1: one thread per element of C. It reads its row of A and\n// column of B.\n"),
            "Rung 1: one thread per element of C.");
  EXPECT_EQ(first_comment("// Rung 2: each block stages its inputs (the tile plus a halo\n// of k - 1) in shared "
                          "memory, e.g. cuBLAS-style, at 0.5 us. Next.\n"),
            "Rung 2: each block stages its inputs (the tile plus a halo of k - 1) in shared memory, e.g. cuBLAS-style, "
            "at 0.5 us.")
      << "'e.g.' and '0.5' do not end a sentence";
  EXPECT_EQ(first_comment("// no full stop at all\n//\n// a new paragraph\n"), "no full stop at all")
      << "an empty comment line ends the idea";
  EXPECT_EQ(first_comment("// no full stop\nint code;  // not part of it\n"), "no full stop");
  const std::string long_line = "// Rung 9: " + std::string(60, 'x') + " " + std::string(80, 'y') + ", " +
                                std::string(80, 'z') + " tail.\n";
  const std::string idea = first_comment(long_line);
  EXPECT_EQ(idea, "Rung 9: " + std::string(60, 'x') + " " + std::string(80, 'y') + "…") << "cut at a word, no comma";
}

TEST(LadderRungs, FirstCommentBlockComments) {
  EXPECT_EQ(first_comment("/* Rung 2: tiles in shared memory.\n   Second line. */\n"),
            "Rung 2: tiles in shared memory.");
  EXPECT_EQ(first_comment("/*\n * Rung 3: on the next line.\n * More\n */\n"), "Rung 3: on the next line.");
  EXPECT_EQ(first_comment("/* Rung 4: a sentence that goes\n   on. Then another. */\n"), "Rung 4: a sentence that goes on.");
  EXPECT_EQ(first_comment("/** one line */ int x;\n"), "one line");
  EXPECT_EQ(first_comment("/**/\n// then a line comment\n"), "then a line comment");
}

TEST(LadderRungs, NoCommentIsNoIdea) {
  EXPECT_EQ(first_comment(""), "");
  EXPECT_EQ(first_comment("\n\n"), "");
  EXPECT_EQ(first_comment("#include <cuda_runtime.h>\n__global__ void k() {}  // a comment in the code\n"), "")
      << "code before any comment: the file opens with none";
  EXPECT_EQ(first_comment("int x;\n// later\n"), "");
}

TEST(LadderRungs, NamedByTheirFilesUnlessTwoShareAName) {
  TempDir dir;
  write_file(dir / "1_naive.cu", "// Rung 1: naive\n");
  write_file(dir / "alice" / "solve.cu", "/* Alice's version */\n");
  write_file(dir / "bob" / "solve.cu", "__global__ void k() {}\n");
  auto rungs = read_rungs({dir / "1_naive.cu", dir / "alice" / "solve.cu"});
  ASSERT_EQ(rungs.size(), 2u);
  EXPECT_EQ(rungs[0].name, "1_naive");
  EXPECT_EQ(rungs[0].idea, "Rung 1: naive");
  EXPECT_EQ(rungs[1].name, "solve");
  EXPECT_EQ(rungs[1].idea, "Alice's version");
  rungs = read_rungs({dir / "alice" / "solve.cu", dir / "bob" / "solve.cu"});
  EXPECT_EQ(rungs[0].name, (dir / "alice" / "solve.cu").string());
  EXPECT_EQ(rungs[1].name, (dir / "bob" / "solve.cu").string());
  EXPECT_EQ(rungs[1].idea, "");
  EXPECT_THROW(read_rungs({dir / "missing.cu"}), Error);
  EXPECT_THROW(read_rungs({dir / "alice"}), Error);
}

// ---- the table ----

constexpr const char* kSpec = R"({
  "id": "vadd", "title": "Vector Add", "difficulty": "easy", "summary": "C = A + B",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "B", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["N"]},
    {"name": "N", "role": "scalar", "dtype": "int32"}
  ],
  "tolerance": {"atol": 1e-6, "rtol": 1e-6},
  "flops": "N",
  "tests": [{"name": "t1", "scalars": {"N": 7}}],
  "benchmarks": [{"name": "small", "scalars": {"N": 1000000}}, {"name": "large", "scalars": {"N": 4000000}}]
})";

Challenge vadd() { return parse_challenge(kSpec, "/tmp/challenges/vadd/spec.json"); }

Timing timing(double median_ms) {
  Timing t;
  t.timer = "cupti";
  t.samples = 10;
  t.median_ms = t.min_ms = t.max_ms = t.mean_ms = median_ms;
  t.converged = true;
  return t;
}

// A benchmark case timed at median_ms, with the reference at reference_ms (0: not timed).
CaseResult benchmark(const std::string& name, double n, double median_ms, double reference_ms,
                     const std::string& bound = "") {
  CaseResult c;
  c.name = name;
  c.kind = "benchmark";
  c.verdict = Verdict::accepted;
  c.flops = n;
  c.bytes = 12 * n;
  c.timing = timing(median_ms);
  if (reference_ms > 0) c.reference_timing = timing(reference_ms);
  c.sol_bound = bound;
  if (!bound.empty()) c.sol_percent = 50;
  return c;
}

JudgeReport accepted(double small_ms, double large_ms, double small_ref_ms, double large_ref_ms,
                     const std::string& bound = "") {
  JudgeReport r;
  r.challenge = "vadd";
  r.mode = Mode::submit;
  r.device = DeviceInfo{};
  r.device->name = "Fake GPU 9000";
  r.build.ok = true;
  r.verdict = Verdict::accepted;
  CaseResult test;
  test.name = "t1";
  test.kind = "test";
  test.verdict = Verdict::accepted;
  r.cases = {test, benchmark("small", 1e6, small_ms, small_ref_ms, bound),
             benchmark("large", 4e6, large_ms, large_ref_ms, bound)};
  r.score_ms = std::sqrt(small_ms * large_ms);
  return r;
}

JudgeReport rejected(Verdict v, const std::string& failed_case, const std::string& message) {
  JudgeReport r;
  r.challenge = "vadd";
  r.mode = Mode::submit;
  r.build.ok = v != Verdict::compile_error;
  if (v == Verdict::compile_error) r.build.diagnostics = "3_broken.cu(4): error: expected a \";\"\n";
  r.verdict = v;
  r.failed_case = failed_case;
  r.message = message;
  return r;
}

std::vector<Rung> rungs(const std::vector<std::string>& names) {
  std::vector<Rung> out;
  for (const auto& n : names) out.push_back({"/tmp/submissions/vadd/" + n + ".cu", n, "the idea of " + n});
  return out;
}

Calibration calibration() {
  Calibration c;
  c.gpu_name = "Fake GPU 9000";
  c.copy_gbps = 3000;
  c.fp32_fma_gflops = 60000;
  c.sgemm_gflops = 50000;
  c.tf32_gflops = 400000;
  c.fp16_gflops = 700000;
  c.bf16_gflops = 710000;
  c.int8_gops = 1400000;
  return c;
}

// Three rungs: 1 accepted, 2 a wrong answer, 3 accepted and twice as fast as 1 on `small`, four times on `large`,
// whose reference was not timed.
Ladder three_rungs() {
  return make_ladder(vadd(), rungs({"1_naive", "2_wrong", "3_fast"}),
                     {accepted(4, 8, 2, 4), rejected(Verdict::wrong_answer, "t1", "C: 3 of 7 elements wrong"),
                      accepted(2, 2, 2, 0)});
}

TEST(Ladder, SpeedupsSkipARejectedRungInTheMiddle) {
  const Ladder l = three_rungs();
  EXPECT_EQ(l.challenge, "vadd");
  EXPECT_EQ(l.gpu_name, "Fake GPU 9000");
  EXPECT_EQ(l.cases, (std::vector<std::string>{"small", "large"}));
  EXPECT_EQ(l.first, "1_naive");
  ASSERT_EQ(l.rows.size(), 3u);
  EXPECT_EQ(l.accepted(), 2u);
  EXPECT_EQ(l.no_device(), nullptr);

  const LadderRow& one = l.rows[0];
  EXPECT_EQ(one.rung.idea, "the idea of 1_naive");
  ASSERT_EQ(one.cells.size(), 2u);
  EXPECT_DOUBLE_EQ(one.cells[0].median_ms, 4);
  EXPECT_DOUBLE_EQ(one.cells[0].vs_previous, 0) << "nothing before rung 1";
  EXPECT_DOUBLE_EQ(one.cells[0].vs_first, 1);
  EXPECT_DOUBLE_EQ(one.cells[0].vs_reference, 0.5) << "reference 2 ms / rung 4 ms";
  EXPECT_DOUBLE_EQ(one.cells[1].vs_reference, 0.5);
  EXPECT_EQ(one.previous, "");

  const LadderRow& two = l.rows[1];
  EXPECT_EQ(two.verdict, Verdict::wrong_answer);
  EXPECT_EQ(two.failed_case, "t1");
  EXPECT_EQ(two.message, "C: 3 of 7 elements wrong");
  EXPECT_TRUE(two.cells.empty());

  const LadderRow& three = l.rows[2];
  EXPECT_EQ(three.previous, "1_naive") << "the nearest earlier accepted rung";
  ASSERT_EQ(three.cells.size(), 2u);
  EXPECT_DOUBLE_EQ(three.cells[0].vs_previous, 2);
  EXPECT_DOUBLE_EQ(three.cells[0].vs_first, 2);
  EXPECT_DOUBLE_EQ(three.cells[0].vs_reference, 1);
  EXPECT_DOUBLE_EQ(three.cells[1].vs_previous, 4);
  EXPECT_DOUBLE_EQ(three.cells[1].vs_first, 4);
  EXPECT_DOUBLE_EQ(three.cells[1].reference_ms, 0);
  EXPECT_DOUBLE_EQ(three.cells[1].vs_reference, 0) << "no reference time: unknown, not infinite";
  EXPECT_DOUBLE_EQ(three.score_ms, 2);
}

TEST(Ladder, WithoutCalibrationAChallengeThatCountsFlopsIsComputeBound) {
  const Ladder l = three_rungs();
  EXPECT_EQ(l.bound, Bound::compute);
  EXPECT_FALSE(l.ceiling) << "no calibration, no ceiling";
  // 1e6 flops in 4 ms: 0.25 GFLOP/s.
  EXPECT_DOUBLE_EQ(l.rows[0].cells[0].rate, 0.25);
  EXPECT_DOUBLE_EQ(l.rows[2].cells[1].rate, 2);
  EXPECT_DOUBLE_EQ(l.rows[0].cells[0].sol_percent, 0);

  Challenge none = vadd();
  none.flops = Expr::parse("0");
  EXPECT_EQ(ladder_bound(none, {}), Bound::memory) << "no flops: bytes are what it does";
}

TEST(Ladder, CalibratedTheSpeedOfLightBoundDecidesAndTheCeilingFollows) {
  JudgeReport a = accepted(4, 8, 2, 4, "memory"), b = accepted(2, 4, 2, 4, "memory");
  a.calibration = b.calibration = calibration();
  const Ladder l = make_ladder(vadd(), rungs({"1_naive", "2_float4"}), {a, b});
  EXPECT_EQ(l.bound, Bound::memory);
  // 12e6 bytes in 4 ms: 3 GB/s.
  EXPECT_DOUBLE_EQ(l.rows[0].cells[0].rate, 3);
  EXPECT_DOUBLE_EQ(l.rows[1].cells[0].rate, 6);
  EXPECT_DOUBLE_EQ(l.rows[1].cells[0].sol_percent, 50);
  ASSERT_TRUE(l.ceiling);
  EXPECT_EQ(l.ceiling->name, "copy bandwidth");
  EXPECT_DOUBLE_EQ(l.ceiling->rate, 3000);

  JudgeReport c = accepted(4, 8, 2, 4, "compute");
  c.calibration = calibration();
  const Ladder compute = make_ladder(vadd(), rungs({"1_naive"}), {c});
  EXPECT_EQ(compute.bound, Bound::compute);
  ASSERT_TRUE(compute.ceiling);
  EXPECT_EQ(compute.ceiling->name, "cuBLAS FP32 GEMM");
  EXPECT_DOUBLE_EQ(compute.ceiling->rate, 50000);
}

TEST(Ladder, TheComputeCeilingFollowsTheInputsPrecision) {
  Challenge half = vadd();
  for (auto& p : half.params)
    if (p.role == Role::input) p.dtype = DType::float16;
  auto ceiling = ladder_ceiling(half, Bound::compute, calibration());
  ASSERT_TRUE(ceiling);
  EXPECT_EQ(ceiling->name, "cuBLAS FP16 GEMM");
  EXPECT_DOUBLE_EQ(ceiling->rate, 700000);
  Calibration partial = calibration();
  partial.sgemm_gflops = 0;
  EXPECT_FALSE(ladder_ceiling(vadd(), Bound::compute, partial)) << "a figure the calibration lacks draws no line";
}

TEST(Ladder, FirstIsTheFirstAcceptedRung) {
  const Ladder l = make_ladder(vadd(), rungs({"1_broken", "2_ok", "3_faster"}),
                               {rejected(Verdict::compile_error, "", "1_broken.cu does not compile for sm_90"),
                                accepted(4, 8, 0, 0), accepted(1, 2, 0, 0)});
  EXPECT_EQ(l.first, "2_ok");
  EXPECT_EQ(l.rows[0].diagnostics, "3_broken.cu(4): error: expected a \";\"\n");
  EXPECT_DOUBLE_EQ(l.rows[1].cells[0].vs_first, 1);
  EXPECT_DOUBLE_EQ(l.rows[2].cells[0].vs_first, 4);
  EXPECT_DOUBLE_EQ(l.rows[2].cells[1].vs_previous, 4);
}

TEST(Ladder, JsonShape) {
  const json j = to_json(three_rungs());
  EXPECT_EQ(j.at("challenge"), "vadd");
  EXPECT_EQ(j.at("gpu"), "Fake GPU 9000");
  EXPECT_EQ(j.at("bound"), "compute");
  EXPECT_EQ(j.at("unit"), "GFLOP/s");
  EXPECT_TRUE(j.at("ceiling").is_null());
  EXPECT_EQ(j.at("cases"), json({"small", "large"}));
  EXPECT_EQ(j.at("first"), "1_naive");
  EXPECT_EQ(j.at("accepted"), 2);
  EXPECT_EQ(j.at("all_accepted"), false);
  const json& rungs = j.at("rungs");
  ASSERT_EQ(rungs.size(), 3u);
  EXPECT_EQ(rungs[0].at("rung"), "1_naive");
  EXPECT_EQ(rungs[0].at("file"), "/tmp/submissions/vadd/1_naive.cu");
  EXPECT_EQ(rungs[0].at("idea"), "the idea of 1_naive");
  EXPECT_EQ(rungs[0].at("verdict"), "accepted");
  EXPECT_EQ(rungs[0].at("accepted"), true);
  EXPECT_TRUE(rungs[0].at("previous").is_null());
  EXPECT_EQ(rungs[1].at("verdict"), "wrong_answer");
  EXPECT_EQ(rungs[1].at("failed_case"), "t1");
  EXPECT_EQ(rungs[1].at("message"), "C: 3 of 7 elements wrong");
  EXPECT_TRUE(rungs[1].at("cases").empty());
  EXPECT_TRUE(rungs[1].at("score_ms").is_null());
  EXPECT_EQ(rungs[2].at("previous"), "1_naive");
  const json& large = rungs[2].at("cases").at(1);
  EXPECT_EQ(large.at("name"), "large");
  EXPECT_DOUBLE_EQ(large.at("median_ms").get<double>(), 2);
  EXPECT_DOUBLE_EQ(large.at("rate").get<double>(), 2);
  EXPECT_DOUBLE_EQ(large.at("vs_previous").get<double>(), 4);
  EXPECT_DOUBLE_EQ(large.at("vs_first").get<double>(), 4);
  EXPECT_TRUE(large.at("reference_ms").is_null());
  EXPECT_TRUE(large.at("vs_reference").is_null());
  EXPECT_TRUE(large.at("sol_percent").is_null());
  for (const auto& key : {"name", "median_ms", "rate", "sol_percent", "reference_ms", "vs_previous", "vs_first",
                          "vs_reference"})
    EXPECT_TRUE(rungs[0].at("cases").at(0).contains(key)) << key;
}

TEST(Ladder, JsonReporterAddsTheChartAndIsOneDocument) {
  std::ostringstream out;
  make_json_reporter()->ladder(three_rungs(), "ladder.svg", out);
  const json j = json::parse(out.str());
  EXPECT_EQ(j.at("chart"), "ladder.svg");
  EXPECT_EQ(j.at("rungs").size(), 3u);
  std::ostringstream none;
  make_json_reporter()->ladder(three_rungs(), "", none);
  EXPECT_TRUE(json::parse(none.str()).at("chart").is_null());
}

TEST(Ladder, ConsoleShowsEachRungItsIdeaAndRatios) {
  std::ostringstream out;
  make_console_reporter(false)->ladder(three_rungs(), "ladder.svg", out);
  const std::string s = out.str();
  for (const char* needle : {"vadd on Fake GPU 9000", "compute-bound: rates in GFLOP/s", "1_naive  the idea of 1_naive",
                             "2_wrong  the idea of 2_wrong", "✗ Wrong answer in case t1: C: 3 of 7 elements wrong",
                             "x prev", "x first", "x ref", "2.00x", "4.00x", "0.50x", "x first: over 1_naive",
                             "✗ 1 of 3 rungs not accepted: 2_wrong", "chart written to ladder.svg"})
    EXPECT_NE(s.find(needle), std::string::npos) << "missing \"" << needle << "\"\n" << s;
  EXPECT_EQ(s.find("\x1b["), std::string::npos) << "no colour unless asked";
}

TEST(Ladder, ConsoleSaysPlainlyThatNoDeviceIsPresent) {
  const Ladder l = make_ladder(
      vadd(), rungs({"1_naive", "2_broken"}),
      {rejected(Verdict::no_device, "",
                "1_naive.cu compiles for sm_90, but no CUDA device is present, so nothing was run"),
       rejected(Verdict::compile_error, "", "2_broken.cu does not compile for sm_90")});
  ASSERT_NE(l.no_device(), nullptr);
  std::ostringstream out;
  make_console_reporter(false)->ladder(l, "", out);
  const std::string s = out.str();
  EXPECT_NE(s.find("✗ No CUDA device is present, so no rung was run: 1 of 2 rungs compile"), std::string::npos) << s;
  EXPECT_NE(s.find("✗ Compile error: 2_broken.cu does not compile"), std::string::npos) << s;
  EXPECT_NE(s.find("error: expected a"), std::string::npos) << "the compiler's first lines\n" << s;
  EXPECT_EQ(s.find("x prev"), std::string::npos) << "nothing timed, no timing columns\n" << s;
}

// ---- the chart ----

// A minimal XML reader for the chart: elements with their attributes and direct text, in document order. Fails the
// test on anything that is not well-formed (unbalanced or mismatched tags, an unquoted attribute, a bare '&').
struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;
  int depth = 0;
  std::string attr(const std::string& key) const {
    auto at = attributes.find(key);
    return at == attributes.end() ? "" : at->second;
  }
  double number(const std::string& key) const { return std::stod(attr(key)); }
};

std::string unescape(std::string s) {
  for (const auto& [entity, c] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&apos;", "'"}, {"&amp;", "&"}})
    for (auto at = s.find(entity); at != std::string::npos; at = s.find(entity, at + 1))
      s.replace(at, entity.size(), c);
  return s;
}

void check_text(const std::string& text) {
  for (std::size_t at = text.find('&'); at != std::string::npos; at = text.find('&', at + 1)) {
    const auto semi = text.find(';', at);
    EXPECT_TRUE(semi != std::string::npos && semi - at <= 6) << "bare '&' in: " << text;
  }
}

std::vector<Element> parse_xml(const std::string& doc) {
  std::vector<Element> elements;
  std::vector<std::size_t> open;  // indices into elements
  std::size_t at = 0;
  while (at < doc.size()) {
    const auto lt = doc.find('<', at);
    const std::string text = doc.substr(at, lt == std::string::npos ? std::string::npos : lt - at);
    check_text(text);
    if (!open.empty()) elements[open.back()].text += unescape(text);
    if (lt == std::string::npos) break;
    if (doc.compare(lt, 5, "<?xml") == 0) {
      EXPECT_EQ(lt, 0u) << "the XML declaration comes first";
      at = doc.find("?>", lt) + 2;
      continue;
    }
    if (doc.compare(lt, 9, "<![CDATA[") == 0) {
      const auto end = doc.find("]]>", lt);
      EXPECT_NE(end, std::string::npos) << "unterminated CDATA";
      at = end + 3;
      continue;
    }
    const auto gt = doc.find('>', lt);
    if (gt == std::string::npos) {
      ADD_FAILURE() << "unterminated tag at " << lt;
      break;
    }
    std::string tag = doc.substr(lt + 1, gt - lt - 1);
    at = gt + 1;
    if (tag[0] == '/') {
      if (open.empty()) {
        ADD_FAILURE() << "</" << tag << "> closes nothing";
        break;
      }
      EXPECT_EQ(tag.substr(1), elements[open.back()].name) << "mismatched closing tag";
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    if (self_closing) tag.pop_back();
    Element e;
    e.depth = static_cast<int>(open.size());
    std::size_t i = tag.find_first_of(" \n");
    e.name = tag.substr(0, i);
    while (i != std::string::npos && i < tag.size()) {
      i = tag.find_first_not_of(" \n", i);
      if (i == std::string::npos) break;
      const auto eq = tag.find('=', i);
      if (eq == std::string::npos || eq + 1 >= tag.size() || tag[eq + 1] != '"') {
        ADD_FAILURE() << "unquoted attribute in <" << tag << ">";
        break;
      }
      const auto close = tag.find('"', eq + 2);
      const std::string value = tag.substr(eq + 2, close - eq - 2);
      check_text(value);
      e.attributes[tag.substr(i, eq - i)] = unescape(value);
      i = close + 1;
    }
    elements.push_back(e);
    if (!self_closing) open.push_back(elements.size() - 1);
  }
  EXPECT_TRUE(open.empty()) << open.size() << " elements left open, the first <" << elements[open.front()].name << ">";
  return elements;
}

std::vector<Element> select(const std::vector<Element>& all, const std::string& name, const std::string& css_class) {
  std::vector<Element> out;
  for (const auto& e : all)
    if (e.name == name && e.attr("class") == css_class) out.push_back(e);
  return out;
}

bool has_text(const std::vector<Element>& all, const std::string& text) {
  for (const auto& e : all)
    if (e.name == "text" && e.text == text) return true;
  return false;
}

// Bars of 3, 6, 12 and 24 GB/s under a ceiling of 40 GB/s: tall enough that pixel rounding is small beside them.
Ladder calibrated_memory_ladder() {
  JudgeReport a = accepted(4, 8, 2, 4, "memory"), c = accepted(1, 2, 2, 4, "memory");
  a.calibration = c.calibration = calibration();
  a.calibration->copy_gbps = c.calibration->copy_gbps = 40;
  return make_ladder(vadd(), rungs({"1_naive", "2_wrong", "3_float4"}),
                     {a, rejected(Verdict::wrong_answer, "t1", "C: 3 of 7 elements wrong"), c});
}

TEST(LadderChart, AStandaloneSvgWithOneBarPerAcceptedRungAndCase) {
  const Ladder l = calibrated_memory_ladder();
  const std::string svg = ladder_chart_svg(l);
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0), 0u) << svg.substr(0, 200);
  const std::vector<Element> all = parse_xml(svg);
  ASSERT_FALSE(all.empty());
  const Element& root = all.front();
  EXPECT_EQ(root.name, "svg");
  EXPECT_EQ(root.attr("xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_GT(root.number("width"), 0);
  EXPECT_GT(root.number("height"), 0);
  EXPECT_EQ(root.attr("viewBox"), "0 0 " + root.attr("width") + " " + root.attr("height"));
  EXPECT_EQ(select(all, "style", "").size(), 1u) << "its own stylesheet";
  EXPECT_NE(svg.find("svg.chart .bar {"), std::string::npos);

  const auto bars = select(all, "rect", "bar");
  ASSERT_EQ(bars.size(), 4u) << "two accepted rungs, two cases each\n" << svg;
  std::map<std::pair<std::string, std::string>, Element> by;
  for (const auto& b : bars) by[{b.attr("data-rung"), b.attr("data-case")}] = b;
  EXPECT_EQ(by.count({"2_wrong", "small"}), 0u);
  // Heights are proportional to the rates and every bar stands on the same baseline (zero).
  const double baseline = bars[0].number("y") + bars[0].number("height");
  double per_unit = 0;
  for (const auto& b : bars) {
    EXPECT_NEAR(b.number("y") + b.number("height"), baseline, 0.11);
    const double rate = b.number("data-rate");
    const auto& row = l.rows[b.attr("data-rung") == "1_naive" ? 0 : 2];
    EXPECT_DOUBLE_EQ(rate, row.cells[b.attr("data-case") == "small" ? 0 : 1].rate);
    if (per_unit == 0) per_unit = b.number("height") / rate;
    EXPECT_NEAR(b.number("height") / rate, per_unit, 0.2 / rate) << b.attr("data-rung");  // 0.1 px rounding
  }
  const double fast = by[{"3_float4", "small"}].number("height"), naive = by[{"1_naive", "small"}].number("height");
  EXPECT_NEAR(fast, 4 * naive, 0.5) << "four times the rate, four times the height";

  // The ceiling: a horizontal line at the copy bandwidth, on the same scale as the bars, and named.
  const auto ceiling = select(all, "polyline", "ceiling");
  ASSERT_EQ(ceiling.size(), 1u) << svg;
  std::istringstream points(ceiling[0].attr("points"));
  double x0, y0, x1, y1;
  char comma;
  points >> x0 >> comma >> y0 >> x1 >> comma >> y1;
  EXPECT_DOUBLE_EQ(y0, y1) << "horizontal";
  EXPECT_LT(x0, x1);
  EXPECT_NEAR((baseline - y0) / 40, per_unit, 0.3 / 40);
  EXPECT_TRUE(has_text(all, "copy bandwidth 40 GB/s")) << svg;

  // Axis titles, each rung's name as a category tick, the rejected rung's verdict in its place, the cases' legend.
  const auto titles = select(all, "text", "axis-label");
  ASSERT_EQ(titles.size(), 2u);
  EXPECT_EQ(titles[0].text, "rung");
  EXPECT_EQ(titles[1].text, "GB/s (higher is faster)");
  for (const char* name : {"1_naive", "2_wrong", "3_float4"}) EXPECT_TRUE(has_text(all, name)) << name;
  EXPECT_TRUE(has_text(all, "✗ Wrong answer"));
  EXPECT_TRUE(has_text(all, "■ small"));
  EXPECT_TRUE(has_text(all, "■ large"));
  EXPECT_TRUE(has_text(all, "vadd on Fake GPU 9000")) << "the caption";
}

TEST(LadderChart, OneCaseWhenChosen) {
  const Ladder l = calibrated_memory_ladder();
  const std::vector<Element> all = parse_xml(ladder_chart_svg(l, {"large"}));
  const auto bars = select(all, "rect", "bar");
  ASSERT_EQ(bars.size(), 2u);
  for (const auto& b : bars) EXPECT_EQ(b.attr("data-case"), "large");
  EXPECT_TRUE(has_text(all, "vadd on Fake GPU 9000 · case large"));
  EXPECT_FALSE(has_text(all, "■ large")) << "one case needs no legend";
  try {
    ladder_chart_svg(l, {"huge"});
    FAIL() << "an unknown case is an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'huge'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("small, large"), std::string::npos) << e.what();
  }
}

TEST(LadderChart, UncalibratedAndNothingAcceptedStillDraws) {
  const Ladder l = make_ladder(vadd(), rungs({"1_naive"}), {rejected(Verdict::no_device, "", "no CUDA device")});
  const std::vector<Element> all = parse_xml(ladder_chart_svg(l));
  EXPECT_TRUE(select(all, "rect", "bar").empty());
  EXPECT_TRUE(select(all, "polyline", "ceiling").empty());
  EXPECT_TRUE(has_text(all, "1_naive"));
  EXPECT_TRUE(has_text(all, "✗ No CUDA device"));
  EXPECT_EQ(select(all, "text", "axis-label")[1].text, "GFLOP/s (higher is faster)");
}

TEST(LadderChart, NamesAreEscaped) {
  Ladder l = three_rungs();
  l.rows[0].rung.name = "1_<b>&\"q\"";
  const std::string svg = ladder_chart_svg(l);
  const std::vector<Element> all = parse_xml(svg);
  EXPECT_TRUE(has_text(all, "1_<b>&\"q\""));
  EXPECT_EQ(select(all, "rect", "bar")[0].attr("data-rung"), "1_<b>&\"q\"");
}

}  // namespace
}  // namespace judge
