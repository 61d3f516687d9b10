#include "judge/core/run/profile.hpp"

#include <fstream>
#include <sstream>

#include <unistd.h>

#include "judge/core/base/error.hpp"

namespace judge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// ncu replays each profiled kernel once per group of counters (tens of passes), saving and restoring the memory it
// may write in between: solve() calls take seconds where they took milliseconds. The kernels the judge launches
// itself are not profiled, only intercepted, so everything else stays about as fast.
constexpr double kNcuSlowdown = 30;

std::string read_and_remove(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  std::error_code ec;
  fs::remove(file, ec);
  return text.str();
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += (s.empty() ? "" : "\n") + l;
  return s;
}

}  // namespace

std::string default_profile_case(const Challenge& c) {
  if (!c.benchmarks.empty()) return c.benchmarks.front().name;
  if (!c.tests.empty()) return c.tests.front().name;
  JUDGE_THROW(Error, "challenge '{}' has no cases to profile", c.id);
}

fs::path profile_report_path(const fs::path& requested, const std::string& challenge, const std::string& case_name) {
  fs::path p = requested.empty() ? fs::path(fmt::format("{}-{}.ncu-rep", challenge, case_name)) : requested;
  if (p.extension() != ".ncu-rep") p += ".ncu-rep";
  return fs::absolute(p);
}

ProfileReport profile_submission(const Challenge& ch, const fs::path& source, const ProfileOptions& o) {
  ProfileReport p;
  p.case_name = o.case_name.empty() ? default_profile_case(ch) : o.case_name;
  require_case(ch, p.case_name);  // before anything is built: the mistake costs nothing
  p.ncu = find_ncu();
  p.max_kernels = o.max_kernels;

  fs::path report = profile_report_path(o.report, ch.id, p.case_name);
  std::error_code ec;
  fs::remove(report, ec);  // it is overwritten anyway; gone, a report found afterwards is this run's
  fs::create_directories(report.parent_path(), ec);
  fs::create_directories(o.judge.cache_dir / "jobs", ec);
  fs::path log = o.judge.cache_dir / "jobs" / fmt::format("profile-{}-{}.ncu.log", ::getpid(), random_seed());

  JudgeOptions jo = o.judge;
  jo.mode = Mode::run;
  jo.cases = {p.case_name};
  jo.calls = 1;
  jo.sanitize.reset();
  jo.wrapper = JudgeOptions::Wrapper{ncu_profile_prefix({p.ncu, report, log, o.max_kernels}), kNcuSlowdown};
  p.run = judge_submission(ch, source, jo);
  NcuLog ncu_log = read_ncu_log(read_and_remove(log) + "\n" + p.run.output);

  // Built, and a GPU to run on, yet the worker never spoke: ncu did not start it (an option this release lacks, a
  // GPU it may not use...). That is ncu's failure, not a verdict on the submission.
  bool ncu_ran = p.run.build.ok && p.run.device;
  if (ncu_ran && p.run.worker_start_s <= 0) {
    if (ncu_log.no_permission) throw Error(ncu_permission_message());
    JUDGE_THROW(Error, "Nsight Compute ({}) did not start the judge's worker:\n{}", p.ncu,
                ncu_log.errors.empty() ? p.run.message + "\n" + p.run.output : joined(ncu_log.errors));
  }
  if (!p.run.accepted()) {
    fs::remove(report, ec);  // a wrong answer's profile would only mislead
    return p;
  }
  if (ncu_log.no_permission) throw Error(ncu_permission_message());
  std::string said = ncu_log.errors.empty() ? "" : "; ncu said:\n" + joined(ncu_log.errors);
  if (ncu_log.no_kernels)
    JUDGE_THROW(Error,
                "Nsight Compute profiled no kernel inside solve() on case {}: solve() launched none on its own thread "
                "(kernels launched from other threads, and copies, are not profiled){}",
                p.case_name, said);
  if (!fs::exists(report)) JUDGE_THROW(Error, "Nsight Compute wrote no report at {}{}", report.string(), said);
  p.kernels = parse_ncu_raw_csv(import_ncu_report(p.ncu, report));
  if (p.kernels.empty())
    JUDGE_THROW(Error, "the Nsight Compute report {} has no kernels in it", report.string());
  p.report = report;
  return p;
}

json to_json(const ProfileReport& p) {
  json kernels = json::array();
  for (const auto& k : p.kernels) kernels.push_back(to_json(k));
  json j = {{"challenge", p.run.challenge},
            {"case", p.case_name},
            {"verdict", p.run.verdict},
            {"accepted", p.run.accepted()},
            {"seed", p.run.seed},
            {"ncu", p.ncu},
            {"report", p.report.string()},
            {"kernels", kernels},
            {"max_kernels", p.max_kernels},
            {"more_kernels_possible", static_cast<int>(p.kernels.size()) >= p.max_kernels}};
  if (p.run.device) j["device"] = *p.run.device;
  return j;
}

}  // namespace judge
