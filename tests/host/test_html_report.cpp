// The `judge report` page from a fixture database written through the Leaderboard API: one section per challenge
// and GPU with its ranking and history chart, one details block per submission with its cases table and roofline
// (one point per benchmark case, the reference beside it, roofs only where the GPU was calibrated), user strings
// escaped, saved results shown apart, the ladder section only when there are ladders, and nothing fetched.
#include "judge/core/present/html_report.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace judge {
namespace {

namespace fs = std::filesystem;
using ::judge::testing::TempDir;
using ::judge::testing::write_file;

constexpr const char* kVaddSpec = R"({
  "id": "vadd", "title": "Vector Add One", "difficulty": "easy", "summary": "C = A + 1",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["N"]},
    {"name": "N", "role": "scalar", "dtype": "int32"}
  ],
  "tolerance": {"atol": 1e-6, "rtol": 1e-6},
  "flops": "N",
  "tests": [{"name": "t1", "scalars": {"N": 7}}],
  "benchmarks": [{"name": "b1", "scalars": {"N": 1000000}}, {"name": "b2", "scalars": {"N": 4000000}}]
})";

constexpr const char* kGpuA = "GPU A";  // calibrated
constexpr const char* kGpuB = "GPU B";  // never calibrated
constexpr const char* kEvilUser = "<script>alert(1)</script>";

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

// The text of the board section about challenge on gpu (empty when there is none).
std::string section(const std::string& page, const std::string& challenge, const std::string& gpu) {
  const std::string open = "<section class=\"board\"";
  for (auto at = page.find(open); at != std::string::npos; at = page.find(open, at + 1)) {
    const auto end = page.find("</section>", at);
    std::string s = page.substr(at, end - at);
    if (s.find("data-challenge=\"" + challenge + "\" data-gpu=\"" + gpu + "\"") != std::string::npos) return s;
  }
  return "";
}

class HtmlReport : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(challenges_ / "vadd" / "spec.json", kVaddSpec);
    Calibration c;
    c.gpu_name = kGpuA;
    c.compute_capability = "9.0";
    c.measured_at = "2025-04-30T08:00:00Z";
    c.copy_gbps = 3000;
    c.fp32_fma_gflops = 60000;
    c.sgemm_gflops = 50000;
    c.tf32_gflops = 370000;
    c.fp16_gflops = 740000;
    c.bf16_gflops = 745000;
    c.int8_gops = 1490000;
    CalibrationStore(calibration_file_).save(c);
  }

  // A vadd run: b1 and b2 at the given medians, their rates from the spec's flops (N) and bytes (8N), the
  // reference at ref_ms on both (0: not timed).
  void record(Leaderboard& board, const std::string& user, const std::string& gpu, const std::string& when,
              double b1_ms, double b2_ms, double ref_ms = 0) {
    SubmissionRecord s;
    s.challenge = "vadd";
    s.user = user;
    s.gpu_name = gpu;
    s.compute_capability = "9.0";
    s.created_at = when;
    s.source = "// " + user + " " + when;
    s.score_ms = std::sqrt(b1_ms * b2_ms);
    for (auto [name, n, ms] : {std::tuple{"b1", 1e6, b1_ms}, std::tuple{"b2", 4e6, b2_ms}})
      s.cases.push_back({name, ms, ms * 0.95, 0.4, 20, n / (ms * 1e6), 8 * n / (ms * 1e6), ref_ms});
    board.record(s);
    cases_ += s.cases.size();
    if (ref_ms > 0) references_ += s.cases.size();
  }

  // Five runs on GPU A by three users (one of them named like a script), one run on GPU B.
  void fill(Leaderboard& board) {
    record(board, "alice", kGpuA, "2025-05-01T09:00:00.000Z", 0.02, 0.06, 0.005);
    record(board, "alice", kGpuA, "2025-05-03T10:30:00.000Z", 0.006, 0.015, 0.005);
    record(board, "bob", kGpuA, "2025-05-02T14:00:00.000Z", 0.008, 0.02, 0.005);
    record(board, kEvilUser, kGpuA, "2025-05-04T18:00:00.000Z", 0.05, 0.2, 0.005);
    record(board, "bob", kGpuA, "2025-05-05T08:00:00.000Z", 0.007, 0.018);
    record(board, "carol", kGpuB, "2025-05-02T11:00:00.000Z", 0.01, 0.03, 0.008);
  }

  ReportData gather(const Leaderboard* board, const ReportScope& scope = {}) {
    return gather_report(board, db_.string(), CalibrationStore(calibration_file_), challenges_, {pending_}, scope);
  }

  static std::string render(const ReportData& data) {
    std::ostringstream out;
    write_html_report(data, out);
    return out.str();
  }

  TempDir dir_;
  fs::path challenges_ = dir_ / "challenges";
  fs::path db_ = dir_ / "data" / "leaderboard.sqlite";
  fs::path pending_ = dir_ / "data" / "pending";
  fs::path calibration_file_ = dir_ / "data" / "calibration.json";
  std::size_t cases_ = 0;
  std::size_t references_ = 0;
};

TEST_F(HtmlReport, OneSectionPerChallengeAndGpuWithRankingAndHistory) {
  Leaderboard board(db_);
  fill(board);
  const ReportData data = gather(&board);
  ASSERT_EQ(data.boards.size(), 2u);
  EXPECT_EQ(data.submission_count(), 6u);
  const std::string page = render(data);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(page, "<section class=\"board\""), 2u);

  const std::string a = section(page, "vadd", kGpuA);
  ASSERT_FALSE(a.empty()) << page;
  EXPECT_NE(a.find("Vector Add One"), std::string::npos) << "the title comes from the spec";
  EXPECT_EQ(count(a, "<table class=\"ranking\">"), 1u);
  // Three users ranked: alice (her second run), bob, then the script-named one.
  const auto ranking = a.substr(a.find("<table class=\"ranking\">"));
  const auto alice = ranking.find(">alice<"), bob = ranking.find(">bob<"), evil = ranking.find("&lt;script&gt;");
  ASSERT_NE(alice, std::string::npos);
  ASSERT_NE(bob, std::string::npos);
  ASSERT_NE(evil, std::string::npos);
  EXPECT_LT(alice, bob);
  EXPECT_LT(bob, evil);
  // The history: one point per run, by user, on a time axis.
  EXPECT_EQ(count(a, "class=\"history-point\""), 5u);
  EXPECT_EQ(count(a, "class=\"history-point\" data-user=\"alice\""), 2u);
  EXPECT_NE(a.find("recorded (UTC)"), std::string::npos);
  EXPECT_NE(a.find(">2025-05-03</text>"), std::string::npos) << a;
  // Every run, each with its cases table; the leader's best run is open.
  EXPECT_EQ(count(a, "<details class=\"submission\""), 5u);
  EXPECT_EQ(count(a, "<table class=\"cases\">"), 5u);
  EXPECT_EQ(count(a, "\" open>"), 1u);
  EXPECT_NE(a.find("id=\"submission-2\" data-submission=\"2\" open>"), std::string::npos) << a;
  EXPECT_NE(a.find("<td class=\"mono\">N=4000000</td>"), std::string::npos) << "sizes come from the spec";
}

TEST_F(HtmlReport, RooflineHasOnePointPerCaseTheReferenceBesideItAndTheCalibratedRoofs) {
  Leaderboard board(db_);
  fill(board);
  const std::string page = render(gather(&board));
  EXPECT_EQ(count(page, "class=\"case-point\""), cases_);
  EXPECT_EQ(count(page, "class=\"reference-point\""), references_);
  EXPECT_EQ(count(page, "class=\"case-point\" data-case=\"b1\""), cases_ / 2);
  EXPECT_EQ(count(page, "class=\"roofline\""), 6u);
  EXPECT_NE(page.find("arithmetic intensity (FLOP/byte)"), std::string::npos);
  EXPECT_NE(page.find("achieved rate (FLOP/s)"), std::string::npos);

  const std::string a = section(page, "vadd", kGpuA);
  EXPECT_NE(a.find(">copy 3 TB/s</text>"), std::string::npos) << a;
  EXPECT_NE(a.find(">FP32 FMA 60 TFLOP/s</text>"), std::string::npos) << "the roof vadd is measured against";
  EXPECT_NE(a.find(">TF32 tensor 370 TFLOP/s</text>"), std::string::npos);
  EXPECT_NE(a.find(">FP16/BF16 tensor 745 TFLOP/s</text>"), std::string::npos) << "equal rates share one roof";
  EXPECT_NE(a.find(">INT8 tensor 1.49 POP/s</text>"), std::string::npos) << "integer operations, not flops";
  EXPECT_EQ(a.find("No roofs"), std::string::npos);
  // SOL as `judge submit` prints it: b1 of alice's first run moves 8 MB in 20 µs; at 3000 GB/s that takes 2.67 µs.
  EXPECT_NE(a.find("<td class=\"num\">13%</td>"), std::string::npos);

  const std::string b = section(page, "vadd", kGpuB);
  EXPECT_EQ(count(b, "class=\"case-point\""), 2u) << "the points are drawn without roofs";
  EXPECT_EQ(count(b, "<polyline class=\"roof"), 0u);
  EXPECT_EQ(count(b, "class=\"roof-label"), 0u);
  EXPECT_NE(b.find("No roofs: no calibration of GPU B is stored in " + calibration_file_.string()),
            std::string::npos)
      << b;
  EXPECT_NE(b.find("(<code>judge calibrate</code> on that GPU measures its ceilings)"), std::string::npos) << b;
}

TEST_F(HtmlReport, UserStringsAreEscapedAndThePageNeedsNothingFromOutside) {
  Leaderboard board(db_);
  fill(board);
  const std::string page = render(gather(&board));
  EXPECT_EQ(page.find(kEvilUser), std::string::npos) << "a user name reached the page unescaped";
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_GE(count(page, "&lt;script&gt;alert(1)&lt;/script&gt;"), 4u) << "ranking, legend, point, details";
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_EQ(page.find("url(http"), std::string::npos);
  EXPECT_EQ(page.find("href=\"http"), std::string::npos);
  EXPECT_EQ(count(page, "http"), count(page, "xmlns=\"http://www.w3.org/2000/svg\"")) << "nothing fetched";
}

TEST_F(HtmlReport, ScopeKeepsOneChallengeOrGpu) {
  Leaderboard board(db_);
  fill(board);
  ReportScope scope;
  scope.gpu = kGpuB;
  ReportData data = gather(&board, scope);
  ASSERT_EQ(data.boards.size(), 1u);
  EXPECT_EQ(data.boards[0].gpu_name, kGpuB);
  EXPECT_EQ(data.boards[0].runs.size(), 1u);
  scope = {};
  scope.challenge = "other";
  EXPECT_TRUE(gather(&board, scope).boards.empty());
}

TEST_F(HtmlReport, AnEmptyDatabaseSaysSo) {
  Leaderboard board(db_);
  const ReportData data = gather(&board);
  EXPECT_TRUE(data.boards.empty());
  const std::string page = render(data);
  EXPECT_NE(page.find("No accepted submissions in <code>" + db_.string() + "</code> yet"), std::string::npos)
      << page;
  EXPECT_EQ(page.find("<section"), std::string::npos);
}

TEST_F(HtmlReport, SavedResultsAreShownApartAndUnreadableOnesNoted) {
  SubmissionRecord s;
  s.challenge = "vadd";
  s.user = "dave";
  s.gpu_name = kGpuA;
  s.score_ms = 0.01;
  s.cases = {{"b1", 0.01, 0.009, 0.5, 10, 100, 800, 0.005}, {"b2", 0.01, 0.009, 0.5, 10, 400, 3200, 0}};
  write_file(pending_ / "vadd-20250506T120000Z-0123456789ab.json", to_json(s).dump(2));
  write_file(pending_ / "vadd-20250506T130000Z-ba9876543210.json", "{ not json");
  const ReportData data = gather(nullptr);
  ASSERT_EQ(data.boards.size(), 1u);
  ASSERT_EQ(data.boards[0].saved.size(), 1u);
  EXPECT_EQ(data.boards[0].saved[0].record.created_at, "2025-05-06T12:00:00Z") << "from the file's name";
  ASSERT_EQ(data.notes.size(), 1u);
  EXPECT_NE(data.notes[0].find("vadd-20250506T130000Z-ba9876543210.json"), std::string::npos);

  const std::string page = render(data);
  EXPECT_NE(page.find("Saved, not in the database"), std::string::npos);
  EXPECT_NE(page.find("saved in vadd-20250506T120000Z-0123456789ab.json"), std::string::npos);
  EXPECT_EQ(count(page, "class=\"case-point\""), 2u);
  EXPECT_EQ(count(page, "class=\"reference-point\""), 1u);
  EXPECT_EQ(page.find("<table class=\"ranking\">"), std::string::npos) << "saved results are not ranked";
}

TEST_F(HtmlReport, CasesWithoutFlopsAreListedNotPlotted) {
  Leaderboard board(db_);
  SubmissionRecord s;
  s.challenge = "vcopy";  // no spec: the id stands for the title
  s.user = "erin";
  s.gpu_name = kGpuA;
  s.score_ms = 1;
  s.cases = {{"c1", 1, 1, 0.1, 10, 0, 2000, 1.2}, {"c2", 1, 1, 0.1, 10, 50, 1000, 0}};
  board.record(s);
  const std::string page = render(gather(&board));
  EXPECT_EQ(count(page, "class=\"case-point\""), 1u);
  EXPECT_EQ(count(page, "class=\"note case-unplotted\" data-case=\"c1\""), 1u) << page;
  EXPECT_NE(page.find("<h2>vcopy<span class=\"id\">vcopy</span>"), std::string::npos);
}

// Stress cases sit under a heading of their own, after the graded ones, each with what it goes past and, when it
// failed, its verdict; a failed one (no time) is not plotted.
TEST_F(HtmlReport, StressCasesAreShownApartWithWhatTheyGoPast) {
  Leaderboard board(db_);
  SubmissionRecord s;
  s.challenge = "vadd";
  s.user = "dora";
  s.gpu_name = kGpuA;
  s.score_ms = 1;
  s.cases = {{"b1", 1, 1, 0.1, 10, 1, 8, 0}};
  judge::CaseRecord passed{"huge", 2, 2, 0.1, 10, 1, 8, 0};
  passed.stress = true;
  passed.beyond = "N = 5000 is past the statement's N <= 1000";
  judge::CaseRecord failed{"huger", 0, 0, 0, 0, 0, 0, 0};
  failed.stress = true;
  failed.beyond = "N = 9000 is past the statement's N <= 1000 <script>";
  failed.verdict = "wrong_answer";
  s.cases.push_back(passed);
  s.cases.push_back(failed);
  board.record(s);
  const std::string page = render(gather(&board));
  const auto head = page.find("stress cases: beyond the statement's promises");
  ASSERT_NE(head, std::string::npos) << page;
  EXPECT_LT(page.find("data-case=\"b1\""), head);
  EXPECT_GT(page.find("data-case=\"huge\""), head);
  EXPECT_NE(page.find("N = 5000 is past the statement&#39;s N &lt;= 1000"), std::string::npos) << page;
  EXPECT_NE(page.find("✗ Wrong answer</strong> · N = 9000"), std::string::npos) << page;
  EXPECT_EQ(page.find("<script>"), std::string::npos);
  EXPECT_EQ(count(page, "class=\"case-point\""), 2u) << "b1 and the stress case that passed, not the failed one";
}

TEST_F(HtmlReport, LadderSectionOnlyWhenThereAreLadders) {
  Leaderboard board(db_);
  fill(board);
  ReportData data = gather(&board);
  EXPECT_TRUE(data.ladders.empty()) << "nothing stores ladder results yet";
  EXPECT_EQ(render(data).find("id=\"ladders\""), std::string::npos);

  data.ladders.push_back({"vadd", kGpuA, 0.005, {{"1_naive", 0.03}, {"2_float4", 0.008}, {"3_<fused>", 0.006}}});
  const std::string page = render(data);
  EXPECT_NE(page.find("<section class=\"ladders\" id=\"ladders\">"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"#ladders\">"), std::string::npos);
  EXPECT_EQ(count(page, "class=\"rung-point\""), 3u);
  EXPECT_NE(page.find("data-rung=\"3_&lt;fused&gt;\""), std::string::npos);
  EXPECT_NE(page.find(">2_float4</text>"), std::string::npos);
  EXPECT_NE(page.find("reference 5.0 µs"), std::string::npos);
}

// Each run says what kept it from the judge's records: the protections on by name, those off with why, everything
// escaped; a run recorded before judges kept this says "not recorded", never that it had none.
TEST_F(HtmlReport, EachRunShowsItsProtectionsEscapedOrThatNoneWereRecorded) {
  Leaderboard board(db_);
  record(board, "alice", kGpuA, "2025-05-01T09:00:00.000Z", 0.02, 0.06);  // no protections: an older judge's run
  SubmissionRecord s;
  s.challenge = "vadd";
  s.user = "bob";
  s.gpu_name = kGpuA;
  s.created_at = "2025-05-02T09:00:00.000Z";
  s.score_ms = 0.01;
  s.cases = {{"b1", 0.01, 0.009, 0.5, 10, 100, 800, 0}};
  s.protections = {{"landlock", true, "ABI <6> & \"signals\""},
                   {"seccomp", true, ""},
                   {"uid <drop>", false, "judge not running as root: <b>solver</b> keeps uid 1000 & 'more'"},
                   {"pid+mount namespaces (bubblewrap)", false, "not installed"}};
  const auto bob = board.record(s).id;
  const std::string page = render(gather(&board));

  auto details = [&](std::int64_t id) {
    const auto at = page.find("<details class=\"submission\" id=\"submission-" + std::to_string(id) + "\"");
    return at == std::string::npos ? std::string() : page.substr(at, page.find("</details>", at) - at);
  };
  const std::string with = details(bob), without = details(1);
  ASSERT_FALSE(with.empty()) << page;
  ASSERT_FALSE(without.empty()) << page;
  EXPECT_NE(without.find("<p class=\"protections not-recorded\">Sandbox: not recorded"), std::string::npos)
      << without;
  EXPECT_EQ(count(page, "class=\"protections not-recorded\""), 1u);

  EXPECT_NE(with.find("<p class=\"protections\" data-off=\"2\">Sandbox: "), std::string::npos) << with;
  EXPECT_NE(with.find("title=\"ABI &lt;6&gt; &amp; &quot;signals&quot;\">landlock</span>"), std::string::npos)
      << with;
  EXPECT_NE(with.find(">seccomp</span>"), std::string::npos) << with;
  EXPECT_NE(with.find(" · off: <span class=\"protection off\">uid &lt;drop&gt;</span> (judge not running as root: "
                      "&lt;b&gt;solver&lt;/b&gt; keeps uid 1000 &amp; &#39;more&#39;)"),
            std::string::npos)
      << with;
  EXPECT_NE(with.find("<span class=\"protection off\">pid+mount namespaces (bubblewrap)</span> (not installed)"),
            std::string::npos)
      << with;
  EXPECT_EQ(page.find("<b>solver"), std::string::npos) << "a reason reached the page unescaped";
  EXPECT_EQ(page.find("uid <drop>"), std::string::npos);
  // Before the cases table, in the run's own block.
  EXPECT_LT(with.find("class=\"protections\""), with.find("<table class=\"cases\">"));

  // All on: no "off" part.
  ReportData data = gather(&board);
  for (auto& b : data.boards)
    for (auto& run : b.runs)
      if (run.id == bob) run.protections = {{"landlock", true, ""}};
  const std::string all_on = render(data);
  EXPECT_NE(all_on.find("data-off=\"0\">Sandbox: <span class=\"protection on\" title=\"\">landlock</span></p>"),
            std::string::npos)
      << all_on;
}

TEST_F(HtmlReport, SavedResultsShowTheirProtections) {
  SubmissionRecord s;
  s.challenge = "vadd";
  s.user = "dave";
  s.gpu_name = kGpuA;
  s.score_ms = 0.01;
  s.cases = {{"b1", 0.01, 0.009, 0.5, 10, 100, 800, 0}};
  s.protections = {{"landlock", true, ""}, {"uid drop", false, "not root"}};
  write_file(pending_ / "vadd-20250506T120000Z-0123456789ab.json", to_json(s).dump(2));
  const std::string page = render(gather(nullptr));
  EXPECT_NE(page.find("data-off=\"1\">Sandbox: "), std::string::npos) << page;
  EXPECT_NE(page.find("<span class=\"protection off\">uid drop</span> (not root)"), std::string::npos) << page;
}

TEST_F(HtmlReport, ABrokenCalibrationFileCostsTheRoofsOnly) {
  write_file(calibration_file_, "[]");
  Leaderboard board(db_);
  fill(board);
  const ReportData data = gather(&board);
  ASSERT_EQ(data.boards.size(), 2u);
  EXPECT_FALSE(data.boards[0].calibration);
  EXPECT_NE(data.boards[0].calibration_note.find(calibration_file_.string()), std::string::npos);
  EXPECT_EQ(count(render(data), "class=\"case-point\""), cases_);
}

}  // namespace
}  // namespace judge
