#include "judge/core/batch/batch_stage.hpp"

#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "judge/core/base/error.hpp"
#include "judge/core/base/sha256.hpp"

namespace judge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string utc_now(const char* format = "%Y-%m-%dT%H:%M:%SZ") {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) JUDGE_THROW(Error, "cannot read {}", p.string());
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

bool is_header(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".h" || e == ".hpp" || e == ".cuh" || e == ".hh" || e == ".inc";
}

}  // namespace

std::string StageManifest::run_key(std::size_t index) const {
  // The first round's job names the batch; the content hash makes a key that another batch's file cannot take.
  return fmt::format("slurm:{}:{}:{}", rounds.empty() ? "" : rounds.front().job_id, index,
                     submissions[index].sha256.substr(0, 16));
}

void to_json(json& j, const StageManifest& m) {
  json subs = json::array();
  for (const auto& s : m.submissions)
    subs.push_back({{"name", s.name}, {"file", s.file}, {"source", s.source}, {"sha256", s.sha256}});
  json rounds = json::array();
  for (const auto& r : m.rounds) rounds.push_back({{"job_id", r.job_id}, {"tasks", r.tasks}});
  j = {{"version", 1},       {"challenge", m.challenge}, {"created_at", m.created_at}, {"db", m.db},
       {"judge", m.judge},   {"options", m.options},     {"submissions", subs},        {"rounds", rounds}};
}

void from_json(const json& j, StageManifest& m) {
  if (j.value("version", 0) != 1) throw Error("the manifest's version is not 1: written by another judge version");
  m.challenge = j.at("challenge").get<std::string>();
  m.created_at = j.value("created_at", "");
  m.db = j.value("db", "");
  m.judge = j.value("judge", "");
  m.options = j.value("options", json::object());
  m.submissions.clear();
  for (const auto& s : j.at("submissions"))
    m.submissions.push_back({s.at("name").get<std::string>(), s.at("file").get<std::string>(),
                             s.value("source", ""), s.value("sha256", "")});
  m.rounds.clear();
  for (const auto& r : j.at("rounds"))
    m.rounds.push_back({r.value("job_id", ""), r.at("tasks").get<std::vector<std::vector<std::size_t>>>()});
}

std::string to_string(StageState s) {
  switch (s) {
    case StageState::pending: return "pending";
    case StageState::judging: return "judging";
    case StageState::judged: return "judged";
    case StageState::not_judged: return "not_judged";
  }
  return "?";
}

void to_json(json& j, const SubmissionState& s) {
  j = {{"state", to_string(s.state)}, {"round", s.round}, {"task", s.task}, {"node", s.node},
       {"updated_at", s.updated_at}};
  if (s.state == StageState::judged) {
    j["verdict"] = s.verdict;
    j["score_ms"] = s.score_ms;
    j["message"] = s.message;
    j["protections"] = s.protections;
    j["record"] = {{"attempted", s.record.attempted}, {"recorded", s.record.recorded},
                   {"submission_id", s.record.submission_id}, {"rank", s.record.rank},
                   {"ranked", s.record.ranked},       {"database", s.record.database},
                   {"error", s.record.error},         {"saved_to", s.record.saved_to}};
    j["report"] = s.report;
  }
  if (s.state == StageState::not_judged) j["reason"] = s.reason;
}

void from_json(const json& j, SubmissionState& s) {
  const std::string state = j.at("state").get<std::string>();
  if (state == "pending") s.state = StageState::pending;
  else if (state == "judging") s.state = StageState::judging;
  else if (state == "judged") s.state = StageState::judged;
  else if (state == "not_judged") s.state = StageState::not_judged;
  else throw Error("unknown state '" + state + "'");
  s.round = j.value("round", 0);
  s.task = j.value("task", 0);
  s.node = j.value("node", "");
  s.updated_at = j.value("updated_at", "");
  if (j.contains("verdict")) s.verdict = j.at("verdict").get<Verdict>();
  s.score_ms = j.value("score_ms", 0.0);
  s.message = j.value("message", "");
  if (j.contains("protections")) s.protections = j.at("protections").get<std::vector<Protection>>();
  if (j.contains("record")) {
    const json& r = j.at("record");
    s.record.attempted = r.value("attempted", false);
    s.record.recorded = r.value("recorded", false);
    s.record.submission_id = r.value("submission_id", std::int64_t{0});
    s.record.rank = r.value("rank", 0);
    s.record.ranked = r.value("ranked", 0);
    s.record.database = r.value("database", "");
    s.record.error = r.value("error", "");
    s.record.saved_to = r.value("saved_to", "");
  }
  s.report = j.value("report", json());
  s.reason = j.value("reason", "");
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + fmt::format(".tmp{}", ::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.flush();
    if (!f) JUDGE_THROW(Error, "cannot write {}: is the stage directory writable from here?", tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) JUDGE_THROW(Error, "cannot rename {} to {}: {}", tmp.string(), path.string(), ec.message());
}

std::vector<std::vector<std::size_t>> shard(const std::vector<std::size_t>& indices, int tasks) {
  const std::size_t n = std::min<std::size_t>(indices.size(), static_cast<std::size_t>(std::max(tasks, 1)));
  std::vector<std::vector<std::size_t>> out(n);
  for (std::size_t k = 0; k < indices.size(); ++k) out[k % n].push_back(indices[k]);
  return out;
}

BatchStage BatchStage::create(const fs::path& stage_root, const Challenge& challenge,
                              const std::vector<BatchEntry>& entries, StageManifest manifest) {
  std::error_code ec;
  if (!fs::is_directory(stage_root, ec))
    JUDGE_THROW(Error, "--stage {}: no such directory; give a directory that every Slurm node sees at the same path "
                "(a shared filesystem)", stage_root.string());
  BatchStage s;
  s.dir_ = fs::absolute(stage_root) / fmt::format("batch-{}-{}", utc_now("%Y%m%dT%H%M%SZ"), ::getpid());
  for (const char* sub : {"challenges", "submissions", "state", "logs", "jobs"}) {
    fs::create_directories(std::string(sub) == "jobs" ? s.stage_root() / sub : s.dir_ / sub, ec);
    if (ec)
      JUDGE_THROW(Error, "--stage {}: cannot create {} there ({}); the stage must be writable", stage_root.string(),
                  sub, ec.message());
  }
  fs::copy(challenge.dir, s.challenges_dir() / challenge.id, fs::copy_options::recursive, ec);
  if (ec) JUDGE_THROW(Error, "cannot copy {} to the stage: {}", challenge.dir.string(), ec.message());
  manifest.challenge = challenge.id;
  manifest.created_at = utc_now();
  manifest.submissions.clear();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const fs::path folder = s.dir_ / "submissions" / std::to_string(i);
    fs::create_directories(folder);
    // The headers beside it too: the build compiles the file where it lies, with its neighbours.
    const fs::path from = entries[i].source.parent_path().empty() ? fs::path(".") : entries[i].source.parent_path();
    for (const auto& e : fs::directory_iterator(from, ec))
      if (e.is_regular_file() && is_header(e.path())) fs::copy_file(e.path(), folder / e.path().filename(), ec);
    fs::copy_file(entries[i].source, folder / entries[i].source.filename(), fs::copy_options::overwrite_existing, ec);
    if (ec) JUDGE_THROW(Error, "cannot copy {} to the stage: {}", entries[i].source.string(), ec.message());
    manifest.submissions.push_back({entries[i].name,
                                    (fs::path("submissions") / std::to_string(i) / entries[i].source.filename()).string(),
                                    entries[i].source.string(), sha256_hex(read_text(entries[i].source))});
  }
  s.manifest_ = std::move(manifest);
  s.save_manifest();
  return s;
}

BatchStage BatchStage::open(const fs::path& dir) {
  BatchStage s;
  s.dir_ = dir;
  const fs::path file = dir / "manifest.json";
  try {
    s.manifest_ = json::parse(read_text(file)).get<StageManifest>();
  } catch (const std::exception& e) {
    JUDGE_THROW(Error, "cannot read the batch's manifest {}: {}; is the stage directory visible here?", file.string(),
                e.what());
  }
  return s;
}

fs::path BatchStage::find_job(const fs::path& stage_root, const std::string& job_id) {
  const fs::path index = stage_root / "jobs" / job_id;
  std::ifstream f(index);
  std::string dir;
  if (!f || !std::getline(f, dir) || dir.empty())
    JUDGE_THROW(Error, "no batch of job {} under the stage {} (nothing at {}): give the --stage the job was submitted "
                "with", job_id, stage_root.string(), index.string());
  return dir;
}

fs::path BatchStage::task_log(const std::string& job_id, int task) const {
  return dir_ / "logs" / fmt::format("{}-{}.log", job_id, task);
}

void BatchStage::save_manifest() const { write_file_atomically(dir_ / "manifest.json", json(manifest_).dump(2)); }

int BatchStage::add_round(const std::vector<std::size_t>& indices, int tasks) {
  StageRound r;
  r.tasks = shard(indices, tasks);
  manifest_.rounds.push_back(r);
  const int round = static_cast<int>(manifest_.rounds.size()) - 1;
  save_manifest();
  for (std::size_t t = 0; t < r.tasks.size(); ++t)
    for (std::size_t i : r.tasks[t]) {
      SubmissionState st;
      st.round = round;
      st.task = static_cast<int>(t);
      write_state(i, st);
    }
  return round;
}

void BatchStage::set_job_id(int round, const std::string& job_id) {
  manifest_.rounds.at(static_cast<std::size_t>(round)).job_id = job_id;
  save_manifest();
  write_file_atomically(stage_root() / "jobs" / job_id, dir_.string() + "\n");
}

SubmissionState BatchStage::state(std::size_t index) const {
  const fs::path file = dir_ / "state" / fmt::format("{}.json", index);
  try {
    return json::parse(read_text(file)).get<SubmissionState>();
  } catch (const std::exception& e) {
    JUDGE_THROW(Error, "cannot read the state of {} ({}): {}", manifest_.submissions.at(index).name, file.string(),
                e.what());
  }
}

void BatchStage::write_state(std::size_t index, const SubmissionState& s) const {
  SubmissionState copy = s;
  copy.updated_at = utc_now();
  write_file_atomically(dir_ / "state" / fmt::format("{}.json", index), json(copy).dump(2));
}

std::string StageTask::describe() const {
  if (!slurm) return forgotten ? "ended (no longer known to Slurm)" : "submitted";
  switch (slurm::phase_of(slurm->state)) {
    case slurm::Phase::queued: return "queued" + (slurm->reason.empty() ? "" : " (" + slurm->reason + ")");
    case slurm::Phase::running: return "running" + (slurm->node.empty() ? "" : " on " + slurm->node);
    case slurm::Phase::done: return "done";
    case slurm::Phase::ended: return "ended " + slurm::describe_end(*slurm);
  }
  return slurm->state;
}

bool StageTask::finished() const {
  if (!slurm) return forgotten;
  const auto p = slurm::phase_of(slurm->state);
  return p == slurm::Phase::done || p == slurm::Phase::ended;
}

bool StageStatus::finished() const {
  for (const auto& t : tasks)
    if (!t.finished()) return false;
  return true;
}

std::size_t StageStatus::count(StageState s) const {
  std::size_t n = 0;
  for (const auto& st : submissions) n += st.state == s;
  return n;
}

StageStatus stage_status(const BatchStage& stage,
                         const std::map<std::string, std::optional<std::vector<slurm::TaskInfo>>>& slurm_jobs,
                         bool settle) {
  const StageManifest& m = stage.manifest();
  StageStatus out;
  for (std::size_t i = 0; i < m.submissions.size(); ++i) out.submissions.push_back(stage.state(i));
  for (std::size_t r = 0; r < m.rounds.size(); ++r) {
    const StageRound& round = m.rounds[r];
    const auto known = slurm_jobs.find(round.job_id);
    for (std::size_t t = 0; t < round.tasks.size(); ++t) {
      StageTask task;
      task.round = static_cast<int>(r);
      task.task = static_cast<int>(t);
      task.job_id = round.job_id;
      task.submissions = round.tasks[t].size();
      for (std::size_t i : round.tasks[t]) {
        const auto& st = out.submissions[i];
        // Judged in this round (a later round does not hold what an earlier one judged).
        task.judged += st.state == StageState::judged && st.round == task.round && st.task == task.task;
      }
      // Not asked about: still going, as far as we know (never settle on a guess).
      if (known != slurm_jobs.end() && !round.job_id.empty()) {
        if (known->second) {
          for (const auto& info : *known->second)
            if (info.task == task.task) task.slurm = info;
        }
        task.forgotten = !task.slurm;
      }
      if (task.finished()) {
        // Whatever this task still held is not judged: say how the task ended.
        const std::string reason =
            task.slurm ? fmt::format("task {} of job {} ended {}", task.task, round.job_id,
                                     task.slurm->state == "COMPLETED" ? "COMPLETED without judging it"
                                                                      : slurm::describe_end(*task.slurm))
                       : fmt::format("task {} of job {} ended without judging it (Slurm no longer knows the job)",
                                     task.task, round.job_id);
        for (std::size_t i : round.tasks[t]) {
          auto& st = out.submissions[i];
          if (st.round != task.round || st.task != task.task) continue;
          if (st.state != StageState::pending && st.state != StageState::judging) continue;
          st.state = StageState::not_judged;
          st.reason = reason;
          if (settle) stage.write_state(i, st);
        }
      }
      out.tasks.push_back(task);
    }
  }
  return out;
}

}  // namespace judge
