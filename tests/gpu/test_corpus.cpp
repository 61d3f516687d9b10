// Every file of tests/corpus gets the verdict its header names, through the real CLI and worker on the GPU. The
// header is the file's leading `//` lines:
//
//   // expect: VERDICT              required; `a|b` accepts either (for races that may surface one of two ways)
//   // expect-message: fragment     optional; must occur in the report's message
//   // judge-args: --timeout 2      optional; extra arguments for the judge
//   // judge-command: submit        optional; `run` (default: tests only) or `submit` (tests + timed benchmarks,
//                                   then the leaderboard is checked: a row for an accepted run, none otherwise)
//   // expect-timer: cupti-concurrent  optional, submit only; every benchmark must have been timed with this timer
//                                   (when the run used CUPTI at all)
//   // expect-output-lacks: TEXT    optional, repeatable; the report's output, message and build diagnostics must not
//                                   contain TEXT (`{seed}` stands for the report's seed in decimal)
//   // expect-charged: trusted      optional, submit only (`trusted`, `gpu` or `honest`); when the run is accepted,
//                                   every timed benchmark's timing.charged must be this; `honest`: whichever clock,
//                                   the time charged is at least half what the judge's own clock measured (a decoy's
//                                   microseconds were never believed, while CUPTI may have seen the real work)
//
// Besides, every entry runs among canaries (class Canaries below): a home directory, a classmate's leaderboard row
// and cached build, a private copy of the calibration, a process that is not the judge's, and the GPU lock. After the
// judge, each must be as it was: a hostile submission that reached any of them did harm, whatever its verdict.
//
// The entries' builds are made ahead, all at once (CorpusBuilds, a ctest fixture), and each entry copies its own into
// its private cache, so nvcc does not run inside the entry's slot of the GPU; see prebuilt_build() for which entries
// still compile in their own test.
//
// Each entry prints one line, `corpus: <entry> expected=<..> got=<..> <seconds>s build=<ahead|own|rebuilt>`, from which
// the corpus table is built (build: made ahead by CorpusBuilds, in its own test, or made ahead but built again), and
// records its wall time as the test property "seconds".
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/core/base/sha256.hpp"
#include "judge/core/challenge/spec.hpp"
#include "judge/core/measure/calibration.hpp"
#include "judge/core/measure/result.hpp"
#include "judge/core/store/leaderboard.hpp"
#include "support/build_ahead.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::testing::TempDir;
using nlohmann::json;

// Slack on top of the per-call timeout for everything else a judge call does: compiling, creating the context,
// generating inputs, the reference, timing the benchmarks.
constexpr double kSlackSeconds = 60;

// The header keys this file reads. A line shaped like a directive with any other key is a typo that would silently
// drop a check, so the header test rejects it.
const std::set<std::string> kDirectives = {"expect",       "expect-message", "expect-output-lacks", "expect-charged",
                                           "expect-timer", "judge-args",     "judge-command", "expect-stress-failed"};

struct Entry {
  fs::path file;
  std::string challenge;
  std::string expect_text;          // as written, e.g. "output_not_written|suspicious_timing"
  std::vector<std::string> expect;  // the alternatives
  std::string message;
  std::vector<std::string> args;
  std::string command = "run";
  bool has_command = false;
  std::string timer;
  std::vector<std::string> lacks;   // texts the report's output, message and diagnostics must not contain
  std::string charged;              // "trusted" or "gpu": what every timed benchmark of an accepted run was charged
  std::vector<std::string> stress_failed;  // stress cases the report must list as failed (beside any verdict)
  std::vector<std::string> unknown_directives;

  std::string id() const { return challenge + "/" + file.filename().string(); }
  bool accepts(const std::string& verdict) const {
    return std::find(expect.begin(), expect.end(), verdict) != expect.end();
  }
};

void PrintTo(const Entry& e, std::ostream* os) { *os << e.file.string(); }

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split_alternatives(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, '|');) out.push_back(trim(part));
  return out;
}

Entry parse_entry(const fs::path& file, const std::string& challenge) {
  static const std::regex directive(R"(^// ((?:expect|judge)(?:-[a-z]+)*):(?:[ \t]|$))");
  Entry e;
  e.file = file;
  e.challenge = challenge;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line) && line.rfind("//", 0) == 0) {
    auto value = [&](const std::string& key) { return trim(line.substr(key.size())); };
    std::smatch m;
    if (std::regex_search(line, m, directive) && !kDirectives.count(m[1].str()))
      e.unknown_directives.push_back(trim(line));
    if (line.rfind("// expect: ", 0) == 0) {
      e.expect_text = value("// expect: ");
      e.expect = split_alternatives(e.expect_text);
    }
    if (line.rfind("// expect-message: ", 0) == 0) e.message = value("// expect-message: ");
    if (line.rfind("// judge-args: ", 0) == 0) {
      std::istringstream ss(value("// judge-args: "));
      for (std::string a; ss >> a;) e.args.push_back(a);
    }
    if (line.rfind("// expect-timer: ", 0) == 0) e.timer = value("// expect-timer: ");
    if (line.rfind("// judge-command: ", 0) == 0) {
      e.command = value("// judge-command: ");
      e.has_command = true;
    }
    if (line.rfind("// expect-output-lacks:", 0) == 0) e.lacks.push_back(value("// expect-output-lacks:"));
    if (line.rfind("// expect-charged:", 0) == 0) e.charged = value("// expect-charged:");
    if (line.rfind("// expect-stress-failed:", 0) == 0) e.stress_failed.push_back(value("// expect-stress-failed:"));
  }
  return e;
}

std::vector<Entry> corpus() {
  std::vector<Entry> out;
  fs::path root = judge::testing::source_dir() / "tests" / "corpus";
  for (const auto& dir : fs::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path())) {
      if (f.path().extension() != ".cu") continue;
      out.push_back(parse_entry(f.path(), dir.path().filename().string()));
    }
  }
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.file < b.file; });
  return out;
}

// The limit of one solve() call for this entry: `--timeout S` among its arguments, else the challenge's.
double call_timeout_s(const Entry& e) {
  for (std::size_t i = 0; i < e.args.size(); ++i) {
    if (e.args[i] == "--timeout" && i + 1 < e.args.size()) return std::stod(e.args[i + 1]);
    if (e.args[i].rfind("--timeout=", 0) == 0) return std::stod(e.args[i].substr(10));
  }
  return judge::load_challenge(judge::testing::challenges_dir() / e.challenge).timeout_s;
}

// Rows of every leaderboard of the challenge in the database of `env`.
std::vector<json> leaderboard_rows(const std::string& challenge, const std::map<std::string, std::string>& env,
                                   std::string& raw) {
  auto lb = judge::testing::run_command({judge::testing::cli_path().string(), "--json", "leaderboard", challenge},
                                        env, 60);
  raw = lb.output;
  std::vector<json> rows;
  json board = judge::testing::json_of(lb.output);
  if (board.is_discarded() || !board.contains("leaderboards")) return {json{{"unreadable", lb.output}}};
  for (const auto& view : board["leaderboards"])
    for (const auto& row : view.value("ranking", json::array())) rows.push_back(row);
  return rows;
}

// Runs on every machine: a corpus file without a well-formed header would otherwise only be noticed on a GPU.
TEST(CorpusHeaders, EveryFileNamesKnownVerdicts) {
  auto entries = corpus();
  ASSERT_FALSE(entries.empty());
  for (const Entry& e : entries) {
    SCOPED_TRACE(e.file.string());
    if (e.expect.empty()) {
      ADD_FAILURE() << e.file << " has no `// expect:` line in its leading comment";
      continue;
    }
    for (const auto& v : e.expect) {
      EXPECT_TRUE(judge::parse_verdict(v).has_value()) << e.file << ": `" << v << "` is not a verdict";
      EXPECT_NE(v, "not_run") << e.file;
    }
    EXPECT_TRUE(e.command == "run" || e.command == "submit")
        << e.file << ": judge-command must be run or submit, not `" << e.command << "`";
    if (!e.timer.empty()) {
      EXPECT_EQ(e.command, "submit") << e.file << ": expect-timer needs timed benchmarks (judge-command: submit)";
      EXPECT_TRUE(e.timer == "cupti" || e.timer == "cupti-concurrent" || e.timer == "events") << e.file;
    }
    for (const auto& text : e.lacks)
      EXPECT_FALSE(text.empty()) << e.file << ": `// expect-output-lacks:` needs a text";
    for (const auto& name : e.stress_failed) {
      // A stress case of the challenge, by name: a typo would make the check vacuous.
      const judge::Challenge c = judge::load_challenge(judge::testing::challenges_dir() / e.challenge);
      bool found = false;
      for (const auto* list : {&c.tests, &c.benchmarks})
        for (const auto& k : *list) found = found || (k.name == name && k.stress);
      EXPECT_TRUE(found) << e.file << ": expect-stress-failed names `" << name << "`, which is no stress case of "
                         << e.challenge;
    }
    if (!e.charged.empty()) {
      EXPECT_TRUE(e.charged == "trusted" || e.charged == "gpu" || e.charged == "honest")
          << e.file << ": expect-charged must be trusted, gpu or honest, not `" << e.charged << "`";
      EXPECT_EQ(e.command, "submit") << e.file << ": expect-charged needs timed benchmarks (judge-command: submit)";
      // It is checked on an accepted run only: an entry that cannot be accepted would never check it.
      EXPECT_TRUE(e.accepts("accepted")) << e.file << ": expect-charged with an entry that cannot be accepted";
    }
    for (const auto& line : e.unknown_directives) {
      std::string known;
      for (const auto& d : kDirectives) known += (known.empty() ? "" : ", ") + d;
      ADD_FAILURE() << e.file << ": unknown directive `" << line << "` (known: " << known << ")";
    }
    // The must-accept files are named accept_*: such a file may not hedge.
    if (e.file.filename().string().rfind("accept_", 0) == 0)
      EXPECT_EQ(e.expect_text, "accepted") << e.file << " is named accept_* but expects " << e.expect_text;
    EXPECT_TRUE(fs::is_directory(judge::testing::challenges_dir() / e.challenge))
        << e.file << ": the folder must be a challenge id";
  }
}

// The header parser itself, on a made-up header: the new directives are read, repeated ones kept, typos caught.
TEST(CorpusHeaders, ParsesDirectives) {
  TempDir tmp;
  fs::path file = tmp / "x.cu";
  judge::testing::write_file(file,
                             "// expect: accepted\n"
                             "// judge-command: submit\n"
                             "// expect-output-lacks: SEED-FOUND\n"
                             "// expect-output-lacks: {seed}\n"
                             "// expect-charged: trusted\n"
                             "// expect-ouptut-lacks: typo\n"
                             "// judge both reads prose like this and ignores it\n"
                             "#include <cuda_runtime.h>\n"
                             "// expect-output-lacks: after the header, not read\n");
  Entry e = parse_entry(file, "vector_add");
  EXPECT_EQ(e.expect_text, "accepted");
  EXPECT_EQ(e.command, "submit");
  EXPECT_EQ(e.lacks, (std::vector<std::string>{"SEED-FOUND", "{seed}"}));
  EXPECT_EQ(e.charged, "trusted");
  ASSERT_EQ(e.unknown_directives.size(), 1u);
  EXPECT_EQ(e.unknown_directives[0], "// expect-ouptut-lacks: typo");
}

// The GPU's calibration, measured once for the whole suite, alone on the GPU (SharedCalibration, a fixture of these
// tests: tests/gpu/test_calibration.cpp). Each entry gets a private copy of it (see Canaries), so a submission that
// rewrote it would spoil nothing else.
std::string calibration_file() { return judge::testing::shared_calibration_file(); }
using judge::testing::gpu_name;

std::string random_hex(std::size_t chars) {
  static std::random_device rd;
  static const char* digits = "0123456789abcdef";
  std::string s;
  while (s.size() < chars) {
    unsigned v = rd();
    for (int i = 0; i < 8 && s.size() < chars; ++i, v >>= 4) s += digits[v & 15];
  }
  return s;
}

// Every regular file under `dir` (relative path -> content), and every directory (relative path -> "<dir>").
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::string rel = fs::relative(it->path(), dir).string();
    if (it->is_symlink(ec))
      out[rel] = "<symlink " + fs::read_symlink(it->path(), ec).string() + ">";
    else if (it->is_directory(ec))
      out[rel] = "<dir>";
    else if (it->is_regular_file(ec)) {
      try {
        out[rel] = judge::testing::read_file(it->path());
      } catch (const std::exception&) {
        out[rel] = "<unreadable>";
      }
    } else {
      out[rel] = "<special>";
    }
  }
  return out;
}

// What changed between two snapshots, one line per path; empty when nothing did.
std::string snapshot_diff(const std::map<std::string, std::string>& before,
                          const std::map<std::string, std::string>& after) {
  std::string out;
  for (const auto& [path, content] : before) {
    auto it = after.find(path);
    if (it == after.end())
      out += "  removed: " + path + "\n";
    else if (it->second != content)
      out += "  changed: " + path + "\n";
  }
  for (const auto& [path, content] : after)
    if (!before.count(path)) out += "  new: " + path + "\n";
  return out;
}

std::string text_of(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return {};
  const json& v = j[key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return {};
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The report's texts a submission can get something into: what it printed, the message, the build's diagnostics.
std::vector<std::pair<std::string, std::string>> report_texts(const json& j) {
  std::vector<std::pair<std::string, std::string>> out = {{"output", text_of(j, "output")},
                                                          {"message", text_of(j, "message")}};
  if (j.is_object() && j.contains("build")) out.push_back({"build.diagnostics", text_of(j["build"], "diagnostics")});
  return out;
}

// The report's seed in decimal, or "" when it has none.
std::string seed_of(const json& j) {
  if (!j.is_object() || !j.contains("seed")) return {};
  const json& s = j["seed"];
  if (s.is_number_unsigned()) return std::to_string(s.get<std::uint64_t>());
  if (s.is_number_integer()) return std::to_string(s.get<std::int64_t>());
  if (s.is_string()) return s.get<std::string>();
  return {};
}

// The canaries of one entry, planted in its temporary directory before the judge runs and checked after. Each stands
// for something a hostile submission was once seen to reach (issue 22): the judge's home directory, another user's
// leaderboard row and stored source, another user's cached build, the calibration, another user's worker, the GPU
// timing lock, and the folders of the judge and its challenges. None of them needs the submission to be caught: a
// canary that changed is harm done, whatever the verdict says.
class Canaries {
 public:
  Canaries(const fs::path& root, const Entry& e) : root_(root), entry_(e) {
    marker_ = "CLASSMATE-SECRET-" + random_hex(24);

    // The judge's home: a canary file and the XDG folders under it.
    fs::create_directories(home() / ".local" / "share");
    fs::create_directories(home() / ".cache");
    judge::testing::write_file(home() / "canary.txt", "home canary " + random_hex(32) + "\n");
    home_before_ = snapshot(home());

    // A classmate's accepted run, source and all, on this challenge and this GPU.
    {
      judge::Leaderboard lb(db(), judge::Leaderboard::Access::read_write);
      judge::SubmissionRecord s;
      s.challenge = e.challenge;
      s.user = "classmate";
      s.gpu_name = gpu_name().empty() ? "corpus canary GPU" : gpu_name();
      s.compute_capability = "9.0";
      s.score_ms = 1.0;
      s.source = "// " + marker_ + ": the classmate's own work, for nobody else's eyes\n" +
                 "#include <cuda_runtime.h>\nextern \"C\" void solve() {}\n";
      s.source_hash = judge::sha256_hex(s.source);
      s.judge_version = "corpus-canary";
      judge::CaseRecord c;
      c.name = "canary_case";
      c.median_ms = c.min_ms = 1.0;
      c.samples = 5;
      s.cases.push_back(c);
      auto recorded = lb.record(s);
      auto stored = lb.get(recorded.id);
      if (!stored) throw std::runtime_error("the classmate's canary row cannot be read back");
      classmate_ = *stored;
    }

    // The classmate's cached build: a glue.cu quoting the source, a library of known bytes, and the manifest the
    // judge would have written for it (build_manifest.hpp), so that it looks like any other build.
    const std::string key = random_hex(64);
    const std::string library = std::string("\x7f" "ELF", 4) + random_hex(4096);
    classmate_build_ = cache() / "builds" / key.substr(0, 32);
    judge::testing::write_file(classmate_build_ / "glue.cu",
                               "// " + marker_ + "\n// generated glue of the classmate's build\n"
                               "#include \"solution.cu\"\n");
    judge::testing::write_file(classmate_build_ / "solution.so", library);
    judge::testing::write_file(classmate_build_ / "manifest.json",
                               json{{"key", key},
                                    {"library_sha256", judge::sha256_hex(library)},
                                    {"library_bytes", library.size()}}
                                   .dump(2));
    build_before_ = snapshot(classmate_build_);

    // A private copy of the calibration: the judge reads it as it would the shared one, and a submission that
    // rewrote it would spoil nothing but this entry.
    if (fs::exists(calibration_file())) {
      calibration_ = root_ / "calibration.json";
      fs::copy_file(calibration_file(), calibration_);
      calibration_before_ = judge::testing::read_file(calibration_);
    } else {
      calibration_ = calibration_file();
    }

    // Another user's worker: a copy of sleep named judge-worker, which must outlive the judge's run.
    fs::path sleeper = root_ / "judge-worker";
    fs::copy_file("/bin/sleep", sleeper);
    fs::permissions(sleeper, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                 fs::perms::others_read | fs::perms::others_exec);
    std::string path = sleeper.string(), seconds = "600";
    char* argv[] = {path.data(), seconds.data(), nullptr};
    const pid_t parent = ::getpid();
    sibling_ = ::fork();
    if (sibling_ == 0) {
      // Async-signal-safe calls only. It dies with this test, holds none of its descriptors (ctest's output pipe
      // among them), and leaves this process group, as another user's worker would not share it.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(126);
      int devnull = ::open("/dev/null", O_RDWR);
      if (devnull < 0) ::_exit(126);
      ::dup2(devnull, 0);
      ::dup2(devnull, 1);
      ::dup2(devnull, 2);
      ::close_range(3, ~0u, 0);
      ::setpgid(0, 0);
      ::execv(argv[0], argv);
      ::_exit(127);
    }
  }

  ~Canaries() {
    if (sibling_ > 0) {
      ::kill(sibling_, SIGKILL);
      int status = 0;
      ::waitpid(sibling_, &status, 0);
    }
  }
  Canaries(const Canaries&) = delete;
  Canaries& operator=(const Canaries&) = delete;

  fs::path home() const { return root_ / "home"; }
  fs::path cache() const { return root_ / "cache"; }
  fs::path db() const { return root_ / "db.sqlite"; }

  // The judge's environment: its records, its home and the CUDA JIT cache all in the temporary directory.
  std::map<std::string, std::string> env() const {
    return {{"JUDGE_CACHE_DIR", cache().string()},
            {"JUDGE_DB", db().string()},
            {"JUDGE_CALIBRATION", calibration_.string()},
            {"HOME", home().string()},
            {"XDG_DATA_HOME", (home() / ".local" / "share").string()},
            {"XDG_CACHE_HOME", (home() / ".cache").string()},
            // The driver's JIT cache would otherwise go to $HOME/.nv: not a file the submission wrote, but a new
            // file in HOME all the same.
            {"CUDA_CACHE_PATH", (root_ / "cuda-cache").string()}};
  }

  // Checks every canary (gtest failures). `report` may be discarded JSON; `submit_accepted`: one row by "corpus" is
  // expected on the leaderboard.
  void check(const json& report, bool submit_accepted) {
    check_marker(report);
    check_home();
    check_build();
    check_leaderboard(submit_accepted);
    check_calibration();
    check_sibling();
    check_pwned();
    check_locks();
  }

 private:
  void check_marker(const json& report) {
    if (report.is_discarded()) return;
    for (const auto& [where, text] : report_texts(report))
      EXPECT_EQ(text.find(marker_), std::string::npos)
          << "the classmate's secret (from their stored source or cached glue.cu) is in the report's " << where
          << ": the submission read another user's work";
  }

  void check_home() {
    auto after = snapshot(home());
    EXPECT_EQ(snapshot_diff(home_before_, after), "")
        << "the judge's home directory " << home() << " changed during the run (the judge itself keeps nothing "
        << "there: its records are elsewhere by environment)";
  }

  void check_build() {
    EXPECT_EQ(snapshot_diff(build_before_, snapshot(classmate_build_)), "")
        << "the classmate's cached build " << classmate_build_ << " changed: a submission wrote into the cache";
  }

  void check_leaderboard(bool submit_accepted) {
    std::vector<judge::SubmissionRecord> rows;
    try {
      judge::Leaderboard lb(db(), judge::Leaderboard::Access::read_only);
      std::set<std::string> challenges;
      for (const auto& b : lb.overview()) challenges.insert(b.challenge);
      for (const auto& c : challenges)
        for (auto& s : lb.history(c)) rows.push_back(std::move(s));
    } catch (const std::exception& ex) {
      ADD_FAILURE() << "the leaderboard " << db() << " can no longer be read: " << ex.what();
      return;
    }
    int classmate = 0, corpus = 0;
    for (const auto& s : rows) {
      if (s.user == "classmate") {
        ++classmate;
        EXPECT_EQ(judge::to_json(s).dump(), judge::to_json(classmate_).dump())
            << "the classmate's leaderboard row changed";
      } else if (s.user == "corpus") {
        ++corpus;
        EXPECT_EQ(s.challenge, entry_.challenge) << "the judge recorded the run under another challenge";
      } else {
        ADD_FAILURE() << "a leaderboard row nobody ran: user `" << s.user << "` on " << s.challenge << " ("
                      << judge::to_json(s).dump().substr(0, 400) << ")";
      }
    }
    EXPECT_EQ(classmate, 1) << "the classmate's row is gone or duplicated";
    EXPECT_EQ(corpus, submit_accepted ? 1 : 0)
        << "rows by `corpus`: an accepted submit leaves exactly one, anything else none";
  }

  // The judge may add a GPU that the shared file lacked (it measures it); it may not change what was there.
  void check_calibration() {
    if (calibration_ == calibration_file()) return;  // no shared file to copy: the judge measured into it
    std::string after;
    try {
      after = judge::testing::read_file(calibration_);
    } catch (const std::exception& ex) {
      ADD_FAILURE() << "the calibration " << calibration_ << " is gone: " << ex.what();
      return;
    }
    if (after == calibration_before_) return;
    json b = json::parse(calibration_before_, nullptr, false), a = json::parse(after, nullptr, false);
    if (b.is_discarded() || a.is_discarded() || !b.is_object() || !a.is_object()) {
      ADD_FAILURE() << "the calibration " << calibration_ << " was rewritten:\n" << after.substr(0, 2000);
      return;
    }
    for (const auto& [gpu, c] : b.items())
      EXPECT_TRUE(a.contains(gpu) && a[gpu] == c)
          << "the calibration of " << gpu << " changed during the run: "
          << (a.contains(gpu) ? a[gpu].dump() : std::string("removed"));
  }

  void check_sibling() {
    ASSERT_GT(sibling_, 0) << "the sibling canary could not be started";
    int status = 0;
    pid_t r = ::waitpid(sibling_, &status, WNOHANG);
    if (r == sibling_) {
      sibling_ = -1;  // reaped: nothing left to kill
      ADD_FAILURE() << "another user's process (a judge-worker, pid " << r << ") died during the run: "
                    << (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                            : "exit " + std::to_string(WEXITSTATUS(status)));
    }
  }

  // Files named pwned* where a submission has no business writing. Found ones are reported and removed, so that one
  // failure does not spill into the next entries.
  void check_pwned() {
    auto look = [](const fs::path& dir, bool recursive) {
      std::vector<fs::path> found;
      std::error_code ec;
      auto keep = [&](const fs::path& p) {
        if (p.filename().string().rfind("pwned", 0) == 0) found.push_back(p);
      };
      if (recursive)
        for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
          keep(it->path());
      else
        for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
          keep(it->path());
      for (const auto& p : found) {
        ADD_FAILURE() << "a submission wrote " << p;
        fs::remove_all(p, ec);
      }
    };
    look(root_, true);  // the temporary directory: HOME, the cache, the database's folder
    look(judge::testing::challenges_dir() / entry_.challenge, false);
    look(judge::testing::source_dir() / "tests" / "corpus" / entry_.challenge, false);
    look(judge::testing::cli_path().parent_path(), false);
    look(judge::testing::worker_path().parent_path(), false);
    std::error_code ec;
    look(fs::current_path(ec), false);  // the judge's working directory
    look(fs::temp_directory_path(ec), false);
  }

  // Nobody holds a GPU lock once the judge is done: every lock file can be taken (allowing 5 s for the judge's own
  // processes to be gone).
  void check_locks() {
    fs::path dir = cache() / "gpu-locks";
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return;
    for (const auto& f : fs::directory_iterator(dir, ec)) {
      int fd = ::open(f.path().c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) {
        ADD_FAILURE() << "cannot open the GPU lock " << f.path() << ": " << std::strerror(errno);
        continue;
      }
      bool taken = false;
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      while (!(taken = ::flock(fd, LOCK_EX | LOCK_NB) == 0) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (taken) ::flock(fd, LOCK_UN);
      ::close(fd);
      std::string holder;
      try {
        holder = judge::testing::read_file(f.path());
      } catch (const std::exception&) {
      }
      EXPECT_TRUE(taken) << "the GPU lock " << f.path() << " is still held 5 s after the judge ended (a survivor "
                         << "holds it); it says: " << holder.substr(0, 400);
    }
  }

  fs::path root_;
  const Entry& entry_;
  std::string marker_;
  std::map<std::string, std::string> home_before_, build_before_;
  judge::SubmissionRecord classmate_;
  fs::path classmate_build_;
  fs::path calibration_;  // the private copy, or the shared file where there was none to copy
  std::string calibration_before_;
  pid_t sibling_ = -1;
};

// The corpus entries' builds, made ahead (a ctest fixture, like the examples': tests/CMakeLists.txt): every entry that
// may be built outside its own test is compiled into the shared corpus cache, one nvcc per core, and the index there
// says which build directory is whose. Left to build in their own test, under their canaries, where a compile-time
// attack would act: an entry that expects compile_error, and one whose judge-args change the build (--arch,
// --nvcc-flag, --device). An entry the fixture cannot build is listed here and builds in its own test, which judges
// it. The fixture fails when nvcc cannot be run; CorpusPrebuilt checks that the judge uses what it made.
bool builds_in_its_own_test(const Entry& e) {
  if (e.accepts("compile_error")) return true;
  for (const auto& a : e.args)
    if (a.rfind("--arch", 0) == 0 || a.rfind("--nvcc-flag", 0) == 0 || a.rfind("--device", 0) == 0) return true;
  return false;
}

fs::path corpus_index() { return judge::testing::shared_corpus_cache() / "index.json"; }

// The entry's build that CorpusBuilds made, copied into `cache` (the entry's own) where the judge will find it by its
// content; the build directory's name, or "" when there is none (the fixture did not run, left this entry to build
// in its own test, or built another version of its source). The copy is the entry's: what the submission does to it
// touches no other entry.
std::string prebuilt_build(const Entry& e, const fs::path& cache) {
  if (builds_in_its_own_test(e)) return {};
  json index;
  try {
    index = json::parse(judge::testing::read_file(corpus_index()), nullptr, false);
  } catch (const std::exception&) {
    return {};
  }
  if (!index.is_object() || !index.contains(e.id())) return {};
  const json& made = index[e.id()];
  if (made.value("source_sha256", "") != judge::sha256_hex(judge::testing::read_file(e.file))) return {};
  const std::string dir = made.value("dir", "");
  const fs::path from = judge::testing::shared_corpus_cache() / "builds" / dir;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(from, ec)) return {};
  fs::create_directories(cache / "builds");
  fs::copy(from, cache / "builds" / dir, fs::copy_options::recursive);
  return dir;
}

TEST(CorpusBuilds, EveryEntryIsBuiltAheadIntoTheSharedCache) {
  JUDGE_REQUIRE_GPU();
  // Behind the examples' builds for the cores (its nvcc runs inherit this): the examples are the suite's longest
  // stretch after their builds, held up by the timing lock, while the corpus entries have time to spare.
  errno = 0;
  if (::nice(10) == -1 && errno != 0) std::cout << "corpus-builds: nice: " << std::strerror(errno) << std::endl;
  const fs::path cache = judge::testing::shared_corpus_cache();
  const std::string arch = judge::testing::device_build_arch();
  std::vector<Entry> entries;
  std::vector<judge::testing::AheadBuild> builds;
  for (const Entry& e : corpus())
    if (!builds_in_its_own_test(e)) {
      entries.push_back(e);
      builds.push_back({e.challenge, e.file});
    }
  ASSERT_FALSE(builds.empty());
  const auto results = judge::testing::build_ahead(builds, cache, arch);
  json index = json::object();
  int failed = 0;
  for (std::size_t i = 0; i < builds.size(); ++i) {
    EXPECT_TRUE(results[i].error.empty()) << builds[i].file << ": " << results[i].error;
    if (results[i].build.ok) {
      index[entries[i].id()] = {{"dir", results[i].build.library.parent_path().filename().string()},
                                {"source_sha256", results[i].build.source_hash}};
    } else if (results[i].error.empty()) {
      ++failed;
      std::cout << "corpus-builds: " << entries[i].id() << " does not compile here; it builds in its own test"
                << std::endl;
    }
  }
  std::cout << "corpus-builds: " << index.size() << " of " << builds.size() << " entries built ahead for " << arch
            << ", " << failed << " did not compile" << std::endl;
  ASSERT_GT(index.size(), 0u);
  const fs::path partial = corpus_index().string() + ".partial";
  judge::testing::write_file(partial, index.dump(1));
  fs::rename(partial, corpus_index());
}

// The judge finds a copied build: CorpusBuilds builds what `judge run` would build, or every entry would pay for nvcc
// again without a word. Checked through the CLI on the first must-accept entry built ahead, with a private cache as
// the entries have.
TEST(CorpusPrebuilt, TheJudgeUsesTheCopiedBuild) {
  JUDGE_REQUIRE_GPU();
  std::vector<Entry> entries = corpus();
  TempDir tmp;
  auto accept = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
    return e.file.filename().string().rfind("accept_", 0) == 0 && !prebuilt_build(e, tmp / e.id()).empty();
  });
  ASSERT_NE(accept, entries.end()) << "no accept_* entry was built ahead (did CorpusBuilds run? " << corpus_index()
                                   << ")";
  auto r = judge::testing::run_command({judge::testing::cli_path().string(), "--json", "run", accept->challenge,
                                        accept->file.string()},
                                       {{"JUDGE_CACHE_DIR", (tmp / accept->id()).string()},
                                        {"JUDGE_CALIBRATION", calibration_file()}},
                                       call_timeout_s(*accept) + kSlackSeconds);
  const json j = judge::testing::json_of(r.output);
  ASSERT_FALSE(j.is_discarded()) << r.output;
  EXPECT_TRUE(j["build"].value("cached", false))
      << accept->id() << ": the judge did not use the build made ahead (" << j["build"].value("cache_note", "")
      << "); it built " << j["build"].value("command", "");
  EXPECT_EQ(j.value("verdict", ""), "accepted") << j.value("message", "");
}

class Corpus : public ::testing::TestWithParam<Entry> {};

TEST_P(Corpus, GetsItsVerdict) {
  JUDGE_REQUIRE_GPU();
  const Entry& e = GetParam();
  ASSERT_FALSE(e.expect.empty()) << e.file << " has no `// expect:` line";
  TempDir tmp;
  Canaries canaries(tmp.path(), e);
  const std::string prebuilt = prebuilt_build(e, canaries.cache());
  std::map<std::string, std::string> env = canaries.env();
  std::vector<std::string> argv = {judge::testing::cli_path().string(), "--json", e.command, e.challenge,
                                   e.file.string()};
  if (e.command == "submit")
    argv.insert(argv.end(), {"--name", "corpus", "--budget", "0.5", "--min-samples", "5"});
  argv.insert(argv.end(), e.args.begin(), e.args.end());

  const double limit = call_timeout_s(e) + kSlackSeconds;
  auto start = std::chrono::steady_clock::now();
  auto r = judge::testing::run_command(argv, env, limit + 10);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  auto j = judge::testing::json_of(r.output);
  std::string got = j.is_discarded() ? "(no JSON)" : j.value("verdict", "(none)");
  std::ostringstream summary;
  const bool cached = !j.is_discarded() && j.contains("build") && j["build"].value("cached", false);
  summary << "corpus: " << e.id() << " expected=" << e.expect_text << " got=" << got << " " << std::fixed
          << std::setprecision(1) << took << "s build=" << (cached ? "ahead" : prebuilt.empty() ? "own" : "rebuilt");
  std::cout << summary.str() << std::endl;
  RecordProperty("seconds", std::to_string(took));
  RecordProperty("verdict", got);

  // The canaries first: they hold whatever the report says, or whether there is one.
  {
    SCOPED_TRACE("canaries of " + e.id());
    canaries.check(j, e.command == "submit" && got == "accepted");
  }

  EXPECT_LE(took, limit) << e.id() << ": the judge call took " << took << " s, more than the call timeout + "
                         << kSlackSeconds << " s";
  ASSERT_FALSE(j.is_discarded()) << r.output;
  EXPECT_TRUE(e.accepts(got)) << "expected " << e.expect_text << ", got " << got << "\n"
                              << j.dump(2, ' ', false, json::error_handler_t::replace).substr(0, 8000);
  EXPECT_EQ(r.exit_code, got == "accepted" ? 0 : 1);
  if (!e.message.empty())
    EXPECT_NE(j.value("message", "").find(e.message), std::string::npos)
        << "message lacks `" << e.message << "`: " << j.value("message", "");

  // What the submission must not have got into the report.
  const std::string seed = seed_of(j);
  for (std::string text : e.lacks) {
    if (text.find("{seed}") != std::string::npos) {
      // A seed of a few digits would turn up in any output by chance: only a real 64-bit seed is a test.
      if (seed.size() < 6) {
        ADD_FAILURE_AT(e.file.string().c_str(), 1)
            << "the report's seed (`" << seed << "`) is missing or too short to look for: `" << text
            << "` cannot be checked";
        continue;
      }
      for (std::size_t at; (at = text.find("{seed}")) != std::string::npos;) text.replace(at, 6, seed);
    }
    for (const auto& [where, content] : report_texts(j)) {
      auto at = content.find(text);
      EXPECT_EQ(at, std::string::npos)
          << "the report's " << where << " contains `" << text << "`: "
          << content.substr(at == std::string::npos ? 0 : (at > 200 ? at - 200 : 0), 600);
    }
  }

  for (const auto& name : e.stress_failed) {
    bool listed = false;
    for (const auto& f : j.value("stress", json::object()).value("failed", json::array()))
      listed = listed || f.value("case", "") == name;
    EXPECT_TRUE(listed) << "stress case " << name << " is not reported as failed: "
                        << j.value("stress", json::object()).dump();
  }

  if (!e.charged.empty() && got == "accepted") {
    int benchmarks = 0;
    for (const auto& c : j.value("cases", json::array())) {
      if (c.value("kind", "") != "benchmark" || !c.contains("timing")) continue;
      ++benchmarks;
      if (e.charged == "honest") {
        const double charged = c["timing"].value("median_ms", 0.0);
        const double trusted = c["timing"].value("trusted_median_ms", 0.0);
        EXPECT_GT(trusted, 0) << "benchmark " << c.value("name", "") << " has no trusted time: " << c["timing"].dump();
        EXPECT_GE(charged, 0.5 * trusted) << "benchmark " << c.value("name", "")
                                          << " was charged far less than the judge's own clock measured: "
                                          << c["timing"].dump();
      } else {
        EXPECT_EQ(c["timing"].value("charged", ""), e.charged)
            << "benchmark " << c.value("name", "") << " was charged by the wrong clock: " << c["timing"].dump();
      }
    }
    EXPECT_GT(benchmarks, 0) << "no timed benchmark in the report";
  }

  if (!e.timer.empty() && j.value("timer", "") == "cupti") {
    int benchmarks = 0;
    for (const auto& c : j.value("cases", json::array())) {
      if (c.value("kind", "") != "benchmark" || !c.contains("timing")) continue;
      ++benchmarks;
      EXPECT_EQ(c["timing"].value("timer", ""), e.timer) << "benchmark " << c.value("name", "");
    }
    EXPECT_GT(benchmarks, 0) << "no timed benchmark in the report";
  }

  if (e.command == "submit") {
    // The leaderboard keeps accepted runs and nothing else: beside the classmate's canary row, one row by `corpus`
    // for an accepted run, none for a rejected one.
    std::string raw;
    auto rows = leaderboard_rows(e.challenge, env, raw);
    int corpus_rows = 0, classmate_rows = 0;
    for (const auto& row : rows) {
      std::string user = row.value("user", "");
      if (user == "corpus")
        ++corpus_rows;
      else if (user == "classmate")
        ++classmate_rows;
      else
        ADD_FAILURE() << "a leaderboard row by `" << user << "`: " << raw;
    }
    EXPECT_EQ(classmate_rows, 1) << raw;
    if (got == "accepted") {
      EXPECT_TRUE(j.contains("record") && j["record"].value("recorded", false))
          << (j.contains("record") ? j["record"].dump() : "no record in the report");
      EXPECT_EQ(corpus_rows, 1) << "an accepted submission must leave exactly one row: " << raw;
    } else {
      EXPECT_EQ(corpus_rows, 0) << "a rejected submission (" << got << ") left a leaderboard row: " << raw;
    }
  }
}

std::string name_of(const ::testing::TestParamInfo<Entry>& info) {
  std::string n = info.param.challenge + "_" + info.param.file.stem().string();
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Files, Corpus, ::testing::ValuesIn(corpus()), name_of);

}  // namespace
