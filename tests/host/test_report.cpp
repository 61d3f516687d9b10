// Both reporters against hand-made results: the console one says what a user needs (scores, per-case columns, the
// failing case with its mismatches and a replay line, compiler diagnostics verbatim, where a result went), the JSON
// one emits exactly one parseable document per call with stable field names. No GPU, no worker, no nvcc.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/core/present/report.hpp"

namespace {

using judge::CaseResult;
using judge::JudgeReport;
using judge::RecordOutcome;
using judge::Verdict;
using nlohmann::json;

const char* kSpec = R"({
  "id": "madd", "title": "Matrix Add", "difficulty": "easy", "summary": "C = A + 1 for a row-major matrix",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["M", "N"]},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["M", "N"]},
    {"name": "M", "role": "scalar", "dtype": "int32"},
    {"name": "N", "role": "scalar", "dtype": "int32"}
  ],
  "tolerance": {"atol": 1e-5, "rtol": 1e-4},
  "flops": "M*N",
  "tests": [{"name": "t_2x3", "scalars": {"M": 2, "N": 3}, "note": "tiny"}],
  "benchmarks": [{"name": "b_1024", "scalars": {"M": 1024, "N": 1024}}]
})";

judge::Challenge challenge() { return judge::parse_challenge(kSpec, "/tmp/challenges/madd/spec.json"); }

judge::DeviceInfo fake_device() {
  judge::DeviceInfo d;
  d.name = "Fake GPU 9000";
  d.compute_capability = "9.0";
  d.sm_count = 132;
  d.memory_bytes = 80LL << 30;
  return d;
}

JudgeReport base_report(Verdict v) {
  JudgeReport r;
  r.challenge = "madd";
  r.seed = 12345;
  r.device = fake_device();
  r.timer = "cupti";
  r.build.ok = true;
  r.build.seconds = 1.25;
  r.build.source_hash = "abc123";
  r.verdict = v;
  return r;
}

judge::Timing timing(double median_ms, int samples, double noise_pct) {
  judge::Timing t;
  t.timer = "cupti";
  t.samples = samples;
  t.median_ms = median_ms;
  t.min_ms = median_ms * 0.9;
  t.noise_pct = noise_pct;
  return t;
}

// Accepted submit: one test, one benchmark at 2 ms for 2 GFLOP and 4 GB, the reference at 3 ms.
JudgeReport accepted_submit() {
  JudgeReport r = base_report(Verdict::accepted);
  r.mode = judge::Mode::submit;
  CaseResult t;
  t.name = "t_2x3";
  t.kind = "test";
  t.verdict = Verdict::accepted;
  t.scalars = {{"M", 2}, {"N", 3}};
  CaseResult b;
  b.name = "b_1024";
  b.kind = "benchmark";
  b.verdict = Verdict::accepted;
  b.scalars = {{"M", 1024}, {"N", 1024}};
  b.flops = 2e9;
  b.bytes = 4e9;
  b.timing = timing(2.0, 10, 0.3);
  b.reference_timing = timing(3.0, 10, 0.2);
  r.cases = {t, b};
  r.score_ms = 2.0;
  return r;
}

// Wrong answer on a tiny 2x3 case: C[1][1] is off.
JudgeReport wrong_answer() {
  JudgeReport r = base_report(Verdict::wrong_answer);
  CaseResult t;
  t.name = "t_2x3";
  t.kind = "test";
  t.verdict = Verdict::wrong_answer;
  t.message = "C: 1 of 6 elements wrong (max abs error 1)";
  t.scalars = {{"M", 2}, {"N", 3}};
  judge::OutputCheck o;
  o.name = "C";
  o.count = 6;
  o.mismatches = 1;
  o.max_abs_error = 1;
  judge::Mismatch m;
  m.index = 4;
  m.coords = {1, 1};
  m.got = 1.5;
  m.expected = 2.5;
  o.first = {m};
  t.outputs = {o};
  t.inputs_preview = "A = [0, 1, 2, 3, 4, 5]\nexpected C = [1, 2, 3, 4, 5, 6]\ngot      C = [1, 2, 3, 4, 1.5, 6]\n";
  r.cases = {t};
  r.failed_case = "t_2x3";
  r.message = t.message;
  return r;
}

JudgeReport compile_error() {
  JudgeReport r = base_report(Verdict::compile_error);
  r.build.ok = false;
  r.build.diagnostics =
      "solve.cu(3): error: identifier \"blockIdxx\" is undefined\n    int i = blockIdxx.x;\n            ^\n\n"
      "1 error detected in the compilation of \"glue.cu\".";  // no trailing newline: the reporter adds one
  r.message = "solve.cu does not compile for sm_90";
  return r;
}

std::string console(const JudgeReport& r, const RecordOutcome& rec = {}, bool color = false,
                    const std::string& source = "solve.cu") {
  std::ostringstream out;
  judge::make_console_reporter(color)->judge_result(r, source, rec, out);
  return out.str();
}

// Parses the whole text as one JSON document: trailing content (a second document) is a parse error.
json parse_one(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << "not exactly one JSON document:\n" << text;
  return j;
}

json as_json(const JudgeReport& r, const RecordOutcome& rec = {}) {
  std::ostringstream out;
  judge::make_json_reporter()->judge_result(r, "solve.cu", rec, out);
  return parse_one(out.str());
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_TRUE(contains((haystack), (needle))) << "missing \"" << (needle) << "\" in:\n" << (haystack)
#define EXPECT_NOT_CONTAINS(haystack, needle) \
  EXPECT_FALSE(contains((haystack), (needle))) << "unexpected \"" << (needle) << "\" in:\n" << (haystack)

// ---- console ----

TEST(ConsoleReport, AcceptedSubmitShowsScoreAndPerCaseColumns) {
  std::string s = console(accepted_submit());
  EXPECT_CONTAINS(s, "madd · solve.cu");
  EXPECT_CONTAINS(s, "Fake GPU 9000 (sm_90, 132 SMs, 80 GiB)");
  EXPECT_CONTAINS(s, "timer cupti");
  EXPECT_CONTAINS(s, "seed 12345");
  EXPECT_CONTAINS(s, "build  ok in 1.25 s");
  for (const char* column : {"median", "GFLOP/s", "GB/s", "vs ref", "samples"}) EXPECT_CONTAINS(s, column);
  EXPECT_CONTAINS(s, "2 ms");     // median
  EXPECT_CONTAINS(s, "1000.0");   // 2 GFLOP in 2 ms
  EXPECT_CONTAINS(s, "2000.0");   // 4 GB in 2 ms
  EXPECT_CONTAINS(s, "1.50x");    // reference 3 ms / 2 ms
  EXPECT_CONTAINS(s, "10 ±0.3%");
  EXPECT_CONTAINS(s, "M=1024 N=1024");
  EXPECT_CONTAINS(s, "✓ Accepted · score 2 ms");
  EXPECT_NOT_CONTAINS(s, "replay");
  EXPECT_NOT_CONTAINS(s, "recorded");  // nothing attempted
}

TEST(ConsoleReport, SaysWhichCasesWereTimedWithConcurrentTracing) {
  JudgeReport r = accepted_submit();
  EXPECT_NOT_CONTAINS(console(r), "concurrent tracing");
  r.cases[1].timing->timer = "cupti-concurrent";
  std::string s = console(r);
  EXPECT_CONTAINS(s, "b_1024 ran kernels on more than one stream");
  EXPECT_CONTAINS(s, "concurrent tracing");
}

// The kernels table under the timing table: from CUPTI's records of the benchmark, ptxas's report and the SM's
// limits; in --json as "kernels". Without records (events timer), the console says why there is no table.
JudgeReport with_kernels() {
  JudgeReport r = accepted_submit();
  r.device->sm.cc_major = 9;
  r.device->sm.warp_size = 32;
  r.device->sm.max_threads_per_block = 1024;
  r.device->sm.max_threads_per_sm = 2048;
  r.device->sm.max_blocks_per_sm = 32;
  r.device->sm.regs_per_block = r.device->sm.regs_per_sm = 65536;
  r.device->sm.smem_per_block = 49152;
  r.device->sm.smem_per_block_optin = 232448;
  r.device->sm.smem_per_sm = 233472;
  r.device->sm.reserved_smem_per_block = 1024;
  r.build.ptxas = judge::parse_ptxas_report(
      "ptxas info    : Compiling entry function '_Z6madd_kPKfPfii' for 'sm_90a'\n"
      "ptxas info    : Function properties for _Z6madd_kPKfPfii\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 128 registers, used 1 barriers, 16384 bytes smem\n");
  judge::KernelLaunch k;
  k.name = "_Z6madd_kPKfPfii";
  k.grid = {4096, 1, 1};
  k.block = {256, 1, 1};
  k.registers = 128;
  k.static_smem = 16384;
  k.launches_per_call = 1;
  k.gpu_ms_per_call = 1.9;
  judge::KernelLaunch tail;  // a library's kernel: not in ptxas's report
  tail.name = "cleanup_tail";
  tail.grid = {1, 1, 1};
  tail.block = {64, 1, 1};
  tail.registers = 16;
  tail.launches_per_call = 1;
  tail.gpu_ms_per_call = 0.1;
  r.cases[1].kernels = {k, tail};
  return r;
}

TEST(ConsoleReport, KernelsTableUnderTheTimingTable) {
  std::string s = console(with_kernels());
  EXPECT_CONTAINS(s, "kernels launched by solve() while timed");
  EXPECT_CONTAINS(s, "madd_k");
  EXPECT_NOT_CONTAINS(s, "_Z6madd_k") << "demangled";
  EXPECT_CONTAINS(s, "95%");  // 1.9 of the 2 ms the kernels ran
  EXPECT_CONTAINS(s, "cleanup_tail");
  EXPECT_CONTAINS(s, "16 KiB");
  EXPECT_CONTAINS(s, "25% (16/64 warps, registers)");
  EXPECT_CONTAINS(s, "fits 2 blocks per SM, held there by registers");
  EXPECT_LT(s.find("samples"), s.find("kernels launched")) << "under the timing table";
  EXPECT_NOT_CONTAINS(console(accepted_submit()), "kernels launched") << "no records, no table";
  JudgeReport events = accepted_submit();
  events.timer = "events";
  EXPECT_CONTAINS(console(events), "no kernel resources");
}

TEST(JsonReport, KernelsCarryResourcesOccupancyAndSpills) {
  json j = as_json(with_kernels(), RecordOutcome{});
  ASSERT_TRUE(j.contains("kernels")) << j.dump(2);
  ASSERT_EQ(j["kernels"].size(), 2u);
  const json& k = j["kernels"][0];  // most time first
  EXPECT_DOUBLE_EQ(k.at("time_percent").get<double>(), 95.0);
  EXPECT_FALSE(j["kernels"][1].contains("ptxas")) << "not compiled from solve.cu";
  EXPECT_EQ(k.at("name"), "_Z6madd_kPKfPfii");
  EXPECT_EQ(k.at("display_name"), "madd_k");
  EXPECT_EQ(k.at("block_threads"), 256);
  EXPECT_EQ(k.at("registers"), 128);
  EXPECT_EQ(k.at("static_smem"), 16384);
  EXPECT_EQ(k.at("ptxas").at("spill_store_bytes"), 0);
  EXPECT_EQ(k.at("occupancy").at("blocks_per_sm"), 2);
  EXPECT_DOUBLE_EQ(k.at("occupancy").at("percent").get<double>(), 25.0);
  EXPECT_EQ(k.at("occupancy").at("limited_by"), "registers");
  EXPECT_EQ(j.at("cases").at(1).at("kernels").at(0).at("grid"), json({4096, 1, 1})) << "per case, with the grid";
  EXPECT_FALSE(as_json(accepted_submit(), RecordOutcome{}).contains("kernels"));
}

TEST(ConsoleReport, AcceptedRunHasNoScoreAndNoTimingColumns) {
  JudgeReport r = accepted_submit();
  r.mode = judge::Mode::run;
  r.cases.resize(1);  // the test only
  std::string s = console(r);
  EXPECT_CONTAINS(s, "✓ Accepted");
  EXPECT_NOT_CONTAINS(s, "score");
  EXPECT_NOT_CONTAINS(s, "GFLOP/s");
}

TEST(ConsoleReport, MissingReferenceTimingShowsADash) {
  JudgeReport r = accepted_submit();
  r.cases[1].reference_timing.reset();
  std::string s = console(r);
  EXPECT_NOT_CONTAINS(s, "1.50x");
  EXPECT_CONTAINS(s, " - ");
}

TEST(ConsoleReport, WrongAnswerShowsCaseMismatchesInputsAndReplay) {
  std::string s = console(wrong_answer());
  EXPECT_CONTAINS(s, "✗ Wrong answer in case t_2x3");
  EXPECT_CONTAINS(s, "  C: 1 of 6 elements wrong (max abs error 1)");
  EXPECT_CONTAINS(s, "first mismatches of C (1 of 6 wrong)");
  EXPECT_CONTAINS(s, "C[1][1] (index 4): got 1.5, expected 2.5");
  EXPECT_CONTAINS(s, "the whole case:");
  EXPECT_CONTAINS(s, "    A = [0, 1, 2, 3, 4, 5]\n");
  EXPECT_CONTAINS(s, "    got      C = [1, 2, 3, 4, 1.5, 6]\n");
  EXPECT_CONTAINS(s, "judge run madd solve.cu --seed 12345 --case t_2x3");
  EXPECT_NOT_CONTAINS(s, "Accepted");
}

TEST(ConsoleReport, LastPreviewLineWithoutNewlineIsShown) {
  // The worker ends every preview line with '\n' today; a preview that does not must not lose its last line.
  // (Regression: report_console.cpp printed only newline-terminated lines of inputs_preview.)
  JudgeReport r = wrong_answer();
  r.cases[0].inputs_preview = "A = [0, 1]\ngot C = [7, 8]";
  std::string s = console(r);
  EXPECT_CONTAINS(s, "    A = [0, 1]\n");
  EXPECT_CONTAINS(s, "    got C = [7, 8]\n");
}

TEST(ConsoleReport, ReplayWithoutAFailedCaseHasNoCaseFlag) {
  JudgeReport r = base_report(Verdict::crashed);
  r.message = "the process was killed by SIGSEGV (segmentation fault) during loading the submission";
  std::string s = console(r);
  EXPECT_CONTAINS(s, "✗ Crashed\n");
  EXPECT_CONTAINS(s, "SIGSEGV");
  EXPECT_CONTAINS(s, "replay: judge run madd solve.cu --seed 12345\n");
  EXPECT_NOT_CONTAINS(s, "--case");
}

TEST(ConsoleReport, ReplayQuotesPathsThatNeedIt) {
  std::string s = console(wrong_answer(), {}, false, "my dir/it's.cu");
  EXPECT_CONTAINS(s, "replay: judge run madd 'my dir/it'\\''s.cu' --seed 12345 --case t_2x3");
}

TEST(ConsoleReport, ReplayNamesTheFailedCallOnlyWhenItIsALaterOne) {
  JudgeReport r = wrong_answer();
  r.cases[0].failed_call = 1;
  EXPECT_CONTAINS(console(r), "replay: judge run madd solve.cu --seed 12345 --case t_2x3\n");
  r.cases[0].failed_call = 7;
  EXPECT_CONTAINS(console(r), "replay: judge run madd solve.cu --seed 12345 --case t_2x3 --call 7\n");
  EXPECT_EQ(judge::replay_command(r, "solve.cu"), "judge run madd solve.cu --seed 12345 --case t_2x3 --call 7");
  // The JSON document carries the same line.
  EXPECT_EQ(as_json(r).at("replay"), "judge run madd solve.cu --seed 12345 --case t_2x3 --call 7");
  EXPECT_EQ(as_json(r).at("cases")[0].at("failed_call"), 7);
}

TEST(ConsoleReport, NothingToReplayForAcceptedCompileErrorOrNoDevice) {
  EXPECT_EQ(judge::replay_command(accepted_submit(), "solve.cu"), "");
  EXPECT_EQ(judge::replay_command(compile_error(), "solve.cu"), "");
  JudgeReport none = base_report(Verdict::no_device);
  none.device.reset();
  EXPECT_EQ(judge::replay_command(none, "solve.cu"), "");
  EXPECT_FALSE(as_json(accepted_submit()).contains("replay"));
}

TEST(ConsoleReport, CompileErrorShowsDiagnosticsVerbatimAndNoReplay) {
  JudgeReport r = compile_error();
  std::string s = console(r);
  EXPECT_CONTAINS(s, "build  failed");
  EXPECT_CONTAINS(s, r.build.diagnostics + "\n");
  EXPECT_CONTAINS(s, "✗ Compile error");
  EXPECT_CONTAINS(s, "solve.cu does not compile for sm_90");
  EXPECT_NOT_CONTAINS(s, "replay");
}

TEST(ConsoleReport, NoDeviceHasNoGpuLineAndNoReplay) {
  JudgeReport r = base_report(Verdict::no_device);
  r.device.reset();
  r.message = "solve.cu compiles for sm_90, but no CUDA device is present, so nothing was run";
  std::string s = console(r);
  EXPECT_NOT_CONTAINS(s, "GPU ");
  EXPECT_CONTAINS(s, "✗ No CUDA device");
  EXPECT_CONTAINS(s, "no CUDA device is present");
  EXPECT_NOT_CONTAINS(s, "replay");
}

TEST(ConsoleReport, SubmissionOutputAndDroppedBytes) {
  JudgeReport r = accepted_submit();
  r.output = "debug: hello from solve";  // no trailing newline
  r.output_dropped = 4096;
  std::string s = console(r);
  EXPECT_CONTAINS(s, "the submission printed:\ndebug: hello from solve\n[4096 more bytes not shown]\n");

  r.output_dropped = 0;
  s = console(r);
  EXPECT_NOT_CONTAINS(s, "more bytes not shown");
  r.output.clear();
  s = console(r);
  EXPECT_NOT_CONTAINS(s, "the submission printed");
}

TEST(ConsoleReport, RecordedOutcome) {
  RecordOutcome rec;
  rec.attempted = true;
  rec.recorded = true;
  rec.submission_id = 7;
  rec.rank = 2;
  rec.ranked = 5;
  rec.database = "/tmp/lb.sqlite";
  std::string s = console(accepted_submit(), rec);
  EXPECT_CONTAINS(s, "recorded as submission #7 in /tmp/lb.sqlite (rank 2 of 5 on this GPU when recorded)");
  EXPECT_NOT_CONTAINS(s, "not recorded");
}

TEST(ConsoleReport, NotRecordedOutcomeSaysWhyAndWhereItWasSaved) {
  RecordOutcome rec;
  rec.attempted = true;
  rec.database = "/tmp/lb.sqlite";
  rec.error = "/tmp/lb.sqlite is not a judge leaderboard or is corrupt (file is not a database)";
  rec.saved_to = "/tmp/pending/madd-20250101T000000Z-abc123.json";
  std::string s = console(accepted_submit(), rec);
  EXPECT_CONTAINS(s, "not recorded: " + rec.error);
  EXPECT_CONTAINS(s, "the result was saved to " + rec.saved_to);

  rec.saved_to.clear();
  s = console(accepted_submit(), rec);
  EXPECT_CONTAINS(s, "not recorded: ");
  EXPECT_NOT_CONTAINS(s, "saved to");
}

// What kept the submission from the judge's records, in one line after the verdict; nothing for a run that recorded
// none (as runs stored before protections were).
TEST(ConsoleReport, ProtectionsLineAfterTheVerdictListsWhatWasOnAndWhatWasOffWithWhy) {
  JudgeReport r = accepted_submit();
  r.protections = {{"compile sandbox", true, "bubblewrap"},
                   {"uid drop", true, "the solver runs as uid 65534"},
                   {"stopped between calls", true, "SIGSTOP after each reply"},
                   {"environment", true, "the solver sees none of the judge's variables or paths"},
                   {"landlock", true, "ABI 6"},
                   {"seccomp", true, "filter installed"},
                   {"pid+mount namespaces (bubblewrap)", false, "not installed"}};
  RecordOutcome rec;
  rec.attempted = true;
  rec.recorded = true;
  rec.submission_id = 7;
  rec.rank = 1;
  rec.ranked = 1;
  rec.database = "/tmp/lb.sqlite";
  const std::string s = console(r, rec);
  const std::string line =
      "sandbox: compile sandbox, uid drop, stopped between calls, environment, landlock, seccomp · off: pid+mount "
      "namespaces (bubblewrap) (not installed)\n";
  EXPECT_CONTAINS(s, line);
  EXPECT_LT(s.find("✓ Accepted"), s.find(line)) << s;
  EXPECT_LT(s.find(line), s.find("recorded as submission #7")) << s;
  EXPECT_NOT_CONTAINS(s, "ABI 6");  // the reasons of those on are for `judge doctor`

  // All on: no "off" part. A name reported twice (worker and solver) counts once, off if either says so.
  r.protections = {{"landlock", true, "ABI 6"}, {"seccomp", true, ""}};
  EXPECT_CONTAINS(console(r), "sandbox: landlock, seccomp\n");
  r.protections = {{"uid drop", true, "x"}, {"landlock", true, ""}, {"uid drop", false, "relaxed: a tool runs it"}};
  EXPECT_CONTAINS(console(r), "sandbox: landlock · off: uid drop (relaxed: a tool runs it)\n");
  r.protections = {{"seccomp", false, "not built in"}};
  EXPECT_CONTAINS(console(r), "sandbox: nothing on · off: seccomp (not built in)\n");

  // Rejected runs show it too; a run without any says nothing.
  JudgeReport w = wrong_answer();
  w.protections = {{"landlock", true, ""}};
  EXPECT_CONTAINS(console(w), "sandbox: landlock\n");
  EXPECT_NOT_CONTAINS(console(wrong_answer()), "sandbox:");
  EXPECT_NOT_CONTAINS(console(accepted_submit(), rec), "sandbox:");
}

TEST(JsonReport, ProtectionsAreCarriedWhenRecorded) {
  JudgeReport r = accepted_submit();
  EXPECT_FALSE(as_json(r).contains("protections"));
  r.protections = {{"landlock", true, "ABI 6"}, {"uid drop", false, "not root"}};
  const json j = as_json(r);
  ASSERT_EQ(j.at("protections").size(), 2u);
  EXPECT_EQ(j.at("protections").at(1).at("name"), "uid drop");
  EXPECT_EQ(j.at("protections").at(1).at("on"), false);
  EXPECT_EQ(j.at("protections").at(1).at("why"), "not root");
}

TEST(ConsoleReport, ColorOnlyWhenAsked) {
  const std::string esc = "\x1b[";
  EXPECT_NOT_CONTAINS(console(wrong_answer(), {}, false), esc);
  EXPECT_NOT_CONTAINS(console(accepted_submit(), {}, false), esc);
  EXPECT_CONTAINS(console(wrong_answer(), {}, true), esc);
  EXPECT_CONTAINS(console(accepted_submit(), {}, true), esc);

  std::ostringstream plain, painted;
  judge::make_console_reporter(false)->error("boom", plain);
  judge::make_console_reporter(true)->error("boom", painted);
  EXPECT_EQ(plain.str(), "error: boom\n");
  EXPECT_CONTAINS(painted.str(), esc);
  EXPECT_CONTAINS(painted.str(), "boom");
}

TEST(ConsoleReport, ChallengeListAndBrokenEntry) {
  std::vector<judge::CatalogEntry> entries(2);
  entries[0].dir = "/tmp/challenges/madd";
  entries[0].challenge = challenge();
  entries[1].dir = "/tmp/challenges/zzz_broken";
  entries[1].error = "/tmp/challenges/zzz_broken/spec.json: $: invalid JSON";
  std::ostringstream out;
  judge::make_console_reporter(false)->challenge_list(entries, out);
  std::string s = out.str();
  EXPECT_CONTAINS(s, "id");
  EXPECT_CONTAINS(s, "madd");
  EXPECT_CONTAINS(s, "easy");
  EXPECT_CONTAINS(s, "C = A + 1 for a row-major matrix");
  EXPECT_CONTAINS(s, "zzz_broken");
  EXPECT_CONTAINS(s, "broken spec: /tmp/challenges/zzz_broken/spec.json: $: invalid JSON");
}

TEST(ConsoleReport, ChallengeDetail) {
  std::ostringstream out;
  judge::make_console_reporter(false)->challenge_detail(challenge(), "Add one to every element.", out);
  std::string s = out.str();
  EXPECT_CONTAINS(s, "Matrix Add (easy)");
  EXPECT_CONTAINS(s, "extern \"C\" void solve(const float* A, float* C, int M, int N)");
  EXPECT_CONTAINS(s, "Add one to every element.\n");
  EXPECT_CONTAINS(s, "|out - ref| <= 1e-05 + 0.0001 * |ref|");
  EXPECT_CONTAINS(s, "t_2x3");
  EXPECT_CONTAINS(s, "M=2 N=3");
  EXPECT_CONTAINS(s, "b_1024");
}

TEST(ConsoleReport, Leaderboard) {
  std::ostringstream empty;
  judge::make_console_reporter(false)->leaderboard({}, empty);
  EXPECT_EQ(empty.str(), "no accepted submissions yet\n");

  judge::RankingEntry e;
  e.rank = 1;
  e.user = "ada";
  e.score_ms = 0.0171;
  e.submission_id = 3;
  e.created_at = "2025-01-01T00:00:00.000Z";
  e.attempts = 4;
  std::ostringstream out;
  judge::make_console_reporter(false)->leaderboard({{"madd", "Fake GPU 9000", {e}}}, out);
  std::string s = out.str();
  EXPECT_CONTAINS(s, "madd on Fake GPU 9000");
  EXPECT_CONTAINS(s, "ada");
  EXPECT_CONTAINS(s, "17.1 µs");
  EXPECT_CONTAINS(s, "#3");
}

// ---- JSON ----

TEST(JsonReport, AcceptedSubmitFields) {
  RecordOutcome rec;
  rec.attempted = true;
  rec.recorded = true;
  rec.submission_id = 7;
  rec.rank = 1;
  rec.ranked = 3;
  rec.database = "/tmp/lb.sqlite";
  json j = as_json(accepted_submit(), rec);
  EXPECT_EQ(j.at("challenge"), "madd");
  EXPECT_EQ(j.at("mode"), "submit");
  EXPECT_EQ(j.at("verdict"), "accepted");
  EXPECT_EQ(j.at("accepted"), true);
  EXPECT_EQ(j.at("seed"), 12345u);
  EXPECT_EQ(j.at("source"), "solve.cu");
  EXPECT_DOUBLE_EQ(j.at("score_ms").get<double>(), 2.0);
  EXPECT_EQ(j.at("device").at("name"), "Fake GPU 9000");
  EXPECT_EQ(j.at("device").at("compute_capability"), "9.0");
  EXPECT_EQ(j.at("build").at("ok"), true);
  EXPECT_TRUE(j.at("build").contains("diagnostics"));
  ASSERT_EQ(j.at("cases").size(), 2u);
  const json& b = j.at("cases").at(1);
  EXPECT_EQ(b.at("name"), "b_1024");
  EXPECT_EQ(b.at("kind"), "benchmark");
  EXPECT_EQ(b.at("verdict"), "accepted");
  EXPECT_DOUBLE_EQ(b.at("timing").at("median_ms").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(b.at("gflops").get<double>(), 1000.0);
  EXPECT_DOUBLE_EQ(b.at("gbps").get<double>(), 2000.0);
  EXPECT_DOUBLE_EQ(b.at("speedup").get<double>(), 1.5);
  EXPECT_EQ(j.at("record").at("recorded"), true);
  EXPECT_EQ(j.at("record").at("submission_id"), 7);
  EXPECT_EQ(j.at("record").at("rank"), 1);
  EXPECT_EQ(j.at("record").at("ranked"), 3);
  EXPECT_EQ(j.at("record").at("database"), "/tmp/lb.sqlite");
}

TEST(JsonReport, WrongAnswerFields) {
  json j = as_json(wrong_answer());
  EXPECT_EQ(j.at("verdict"), "wrong_answer");
  EXPECT_EQ(j.at("accepted"), false);
  EXPECT_EQ(j.at("mode"), "run");
  EXPECT_EQ(j.at("failed_case"), "t_2x3");
  EXPECT_EQ(j.at("message"), "C: 1 of 6 elements wrong (max abs error 1)");
  EXPECT_FALSE(j.contains("score_ms"));
  EXPECT_FALSE(j.contains("record")) << "nothing was attempted";
  const json& c = j.at("cases").at(0);
  EXPECT_EQ(c.at("verdict"), "wrong_answer");
  EXPECT_EQ(c.at("inputs_preview"), wrong_answer().cases[0].inputs_preview);
  const json& m = c.at("outputs").at(0).at("first").at(0);
  EXPECT_EQ(m.at("coords"), json::array({1, 1}));
  EXPECT_EQ(m.at("index"), 4);
  EXPECT_DOUBLE_EQ(m.at("got").get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(m.at("expected").get<double>(), 2.5);
}

TEST(JsonReport, CompileErrorCarriesDiagnosticsVerbatim) {
  JudgeReport r = compile_error();
  json j = as_json(r);
  EXPECT_EQ(j.at("verdict"), "compile_error");
  EXPECT_EQ(j.at("build").at("ok"), false);
  EXPECT_EQ(j.at("build").at("diagnostics"), r.build.diagnostics);
  EXPECT_TRUE(j.at("cases").empty());
}

TEST(JsonReport, NoDeviceHasNoDeviceField) {
  JudgeReport r = base_report(Verdict::no_device);
  r.device.reset();
  json j = as_json(r);
  EXPECT_EQ(j.at("verdict"), "no_device");
  EXPECT_FALSE(j.contains("device"));
}

TEST(JsonReport, EveryVerdictIsASnakeCaseString) {
  for (Verdict v : {Verdict::accepted, Verdict::wrong_answer, Verdict::compile_error, Verdict::runtime_error,
                    Verdict::timeout, Verdict::crashed, Verdict::memory_violation, Verdict::input_modified,
                    Verdict::output_not_written, Verdict::suspicious_timing, Verdict::no_device,
                    Verdict::internal_error, Verdict::not_run}) {
    json j = as_json(base_report(v));
    ASSERT_TRUE(j.at("verdict").is_string());
    std::string s = j.at("verdict").get<std::string>();
    EXPECT_EQ(s, judge::to_string(v));
    for (char ch : s) EXPECT_TRUE((ch >= 'a' && ch <= 'z') || ch == '_') << s;
    EXPECT_EQ(j.at("accepted"), v == Verdict::accepted);
  }
}

TEST(JsonReport, OutputAndDroppedBytesEvenWhenNotUtf8) {
  JudgeReport r = accepted_submit();
  r.output = std::string("printed \xff\xfe bytes\n");  // a submission may print anything
  r.output_dropped = 99;
  json j = as_json(r);
  ASSERT_TRUE(j.at("output").is_string());
  EXPECT_EQ(j.at("output").get<std::string>().rfind("printed ", 0), 0u);
  EXPECT_EQ(j.at("output_dropped_bytes"), 99);
}

TEST(JsonReport, NotRecordedOutcome) {
  RecordOutcome rec;
  rec.attempted = true;
  rec.database = "/tmp/lb.sqlite";
  rec.error = "database is locked";
  rec.saved_to = "/tmp/pending/x.json";
  json j = as_json(accepted_submit(), rec);
  EXPECT_EQ(j.at("record").at("recorded"), false);
  EXPECT_EQ(j.at("record").at("error"), "database is locked");
  EXPECT_EQ(j.at("record").at("saved_to"), "/tmp/pending/x.json");
}

TEST(JsonReport, ChallengeListDetailInitLeaderboardAndErrorAreOneDocumentEach) {
  auto rep = judge::make_json_reporter();
  std::vector<judge::CatalogEntry> entries(2);
  entries[0].dir = "/tmp/challenges/madd";
  entries[0].challenge = challenge();
  entries[1].dir = "/tmp/challenges/zzz_broken";
  entries[1].error = "bad spec";

  std::ostringstream list;
  rep->challenge_list(entries, list);
  json l = parse_one(list.str());
  ASSERT_EQ(l.at("challenges").size(), 2u);
  EXPECT_EQ(l["challenges"][0].at("id"), "madd");
  EXPECT_EQ(l["challenges"][0].at("difficulty"), "easy");
  EXPECT_EQ(l["challenges"][0].at("signature"), "extern \"C\" void solve(const float* A, float* C, int M, int N)");
  EXPECT_FALSE(l["challenges"][0].contains("error"));
  EXPECT_EQ(l["challenges"][1].at("id"), "zzz_broken");
  EXPECT_EQ(l["challenges"][1].at("error"), "bad spec");

  std::ostringstream detail;
  rep->challenge_detail(challenge(), "statement text", detail);
  json d = parse_one(detail.str());
  EXPECT_EQ(d.at("statement"), "statement text");
  ASSERT_EQ(d.at("params").size(), 4u);
  EXPECT_EQ(d["params"][0].at("role"), "input");
  EXPECT_EQ(d["params"][0].at("dtype"), "float32");
  EXPECT_EQ(d["params"][0].at("shape"), json::array({"M", "N"}));
  EXPECT_EQ(d.at("tolerance").at("exact"), false);
  EXPECT_DOUBLE_EQ(d.at("tolerance").at("rtol").get<double>(), 1e-4);
  EXPECT_EQ(d.at("tests").at(0).at("name"), "t_2x3");
  EXPECT_DOUBLE_EQ(d.at("tests").at(0).at("flops").get<double>(), 6.0);
  EXPECT_EQ(d.at("benchmarks").at(0).at("scalars").at("M"), 1024);

  std::ostringstream init;
  rep->initialised(challenge(), "work/solve.cu", init);
  json i = parse_one(init.str());
  EXPECT_EQ(i.at("challenge"), "madd");
  EXPECT_EQ(i.at("written"), "work/solve.cu");

  std::ostringstream boards;
  rep->leaderboard({}, boards);
  EXPECT_EQ(parse_one(boards.str()).at("leaderboards"), json::array());

  judge::RankingEntry e;
  e.rank = 1;
  e.user = "ada";
  e.score_ms = 2.0;
  e.submission_id = 3;
  std::ostringstream board;
  rep->leaderboard({{"madd", "Fake GPU 9000", {e}}}, board);
  json b = parse_one(board.str());
  ASSERT_EQ(b.at("leaderboards").size(), 1u);
  EXPECT_EQ(b["leaderboards"][0].at("gpu"), "Fake GPU 9000");
  EXPECT_EQ(b["leaderboards"][0].at("ranking").at(0).at("user"), "ada");
  EXPECT_DOUBLE_EQ(b["leaderboards"][0].at("ranking").at(0).at("score_ms").get<double>(), 2.0);

  std::ostringstream err;
  rep->error("there is no challenge 'x' in /c: run `judge list` to see them all", err);
  json er = parse_one(err.str());
  EXPECT_EQ(er, json({{"error", "there is no challenge 'x' in /c: run `judge list` to see them all"}}));
}

judge::BoardSummary board_summary() {
  judge::BoardSummary b;
  b.challenge = "madd";
  b.gpu_name = "Fake GPU 9000";
  b.leader = "ada";
  b.score_ms = 0.0171;
  b.submission_id = 3;
  b.users = 4;
  b.submissions = 9;
  return b;
}

TEST(ConsoleReport, LeaderboardOverview) {
  std::ostringstream empty;
  judge::make_console_reporter(false)->leaderboard_overview({}, "/data/lb.sqlite", empty);
  EXPECT_CONTAINS(empty.str(), "no accepted submissions yet in /data/lb.sqlite");

  std::ostringstream out;
  judge::make_console_reporter(false)->leaderboard_overview({board_summary()}, "/data/lb.sqlite", out);
  std::string s = out.str();
  EXPECT_CONTAINS(s, "challenge");
  EXPECT_CONTAINS(s, "leader");
  EXPECT_CONTAINS(s, "users");
  std::string row = s.substr(s.find("madd"));
  row = row.substr(0, row.find('\n'));
  for (const char* part : {"Fake GPU 9000", "ada", "17.1 µs", " 4 ", " 9"}) EXPECT_CONTAINS(row, part);
}

TEST(JsonReport, LeaderboardOverview) {
  std::ostringstream empty;
  judge::make_json_reporter()->leaderboard_overview({}, "/data/lb.sqlite", empty);
  json e = parse_one(empty.str());
  EXPECT_EQ(e.at("overview"), json::array());
  EXPECT_EQ(e.at("database"), "/data/lb.sqlite");

  std::ostringstream out;
  judge::make_json_reporter()->leaderboard_overview({board_summary()}, "/data/lb.sqlite", out);
  json row = parse_one(out.str()).at("overview").at(0);
  EXPECT_EQ(row.at("challenge"), "madd");
  EXPECT_EQ(row.at("gpu"), "Fake GPU 9000");
  EXPECT_EQ(row.at("leader"), "ada");
  EXPECT_EQ(row.at("users"), 4);
  EXPECT_EQ(row.at("submissions"), 9);
}

TEST(JsonReport, NeverContainsAnsiEscapes) {
  std::ostringstream out;
  judge::make_json_reporter()->judge_result(wrong_answer(), "solve.cu", {}, out);
  EXPECT_NOT_CONTAINS(out.str(), "\x1b[");
}

// ---- formatting helpers ----

TEST(ReportFormat, DurationPicksTheUnit) {
  EXPECT_EQ(judge::format_duration_ms(0.000812), "812 ns");
  EXPECT_EQ(judge::format_duration_ms(0.0171), "17.1 µs");
  EXPECT_EQ(judge::format_duration_ms(0.5), "500.0 µs");
  EXPECT_EQ(judge::format_duration_ms(2.35), "2.35 ms");
  EXPECT_EQ(judge::format_duration_ms(2.0), "2 ms");
  EXPECT_EQ(judge::format_duration_ms(812.0), "812 ms");
  EXPECT_EQ(judge::format_duration_ms(1200.0), "1.20 s");
  EXPECT_EQ(judge::format_duration_ms(0), "-");
  EXPECT_EQ(judge::format_duration_ms(-1), "-");
}

TEST(ReportFormat, DurationRoundingAtAUnitBoundaryMovesToTheNextUnit) {
  // Regression: 999.9 ms printed as "1e+03 ms" and 0.99999 ms as "1000.0 µs".
  EXPECT_EQ(judge::format_duration_ms(999.9), "1.00 s");
  EXPECT_EQ(judge::format_duration_ms(999.4), "999 ms");
  EXPECT_EQ(judge::format_duration_ms(0.99999), "1 ms");
  EXPECT_EQ(judge::format_duration_ms(0.0009999), "1.0 µs");
}

TEST(ReportFormat, RatePicksThePrefix) {
  EXPECT_EQ(judge::format_rate(8.04e12, "FLOP/s"), "8.04 TFLOP/s");
  EXPECT_EQ(judge::format_rate(512, "B/s"), "512 B/s");
  EXPECT_EQ(judge::format_rate(1500, "B/s"), "1.5 KB/s");
  EXPECT_EQ(judge::format_rate(3.35e9, "B/s"), "3.35 GB/s");
  EXPECT_EQ(judge::format_rate(2e15, "FLOP/s"), "2 PFLOP/s");
  EXPECT_EQ(judge::format_rate(0, "B/s"), "0 B/s");
}

TEST(ReportFormat, RateRoundingAtAPrefixBoundaryMovesToTheNextPrefix) {
  // Regression: 999.7e9 printed as "1e+03 GB/s".
  EXPECT_EQ(judge::format_rate(999.7e9, "B/s"), "1 TB/s");
  EXPECT_EQ(judge::format_rate(999.4e9, "B/s"), "999 GB/s");
}

}  // namespace
