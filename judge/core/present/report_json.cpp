// Machine-readable output: exactly one JSON document per command, on the injected stream.
#include "judge/core/present/report.hpp"

namespace judge {

namespace {

using nlohmann::json;

json challenge_summary(const Challenge& c) {
  return {{"id", c.id},
          {"source", c.source},
          {"title", c.title},
          {"difficulty", c.difficulty},
          {"summary", c.summary},
          {"signature", c.signature()}};
}

json cases_json(const Challenge& c, const std::vector<Case>& cases) {
  json out = json::array();
  for (const auto& k : cases) {
    json scalars = json::object();
    for (const auto& [name, v] : k.scalars) scalars[name] = v;
    json one = {{"name", k.name},
                {"note", k.note},
                {"scalars", scalars},
                {"flops", c.flops_for(k.scalars)},
                {"bytes", c.bytes_for(k.scalars)}};
    if (k.stress) {
      one["stress"] = true;
      one["beyond"] = k.beyond;
    }
    if (k.leetgpu_performance) one["leetgpu_performance"] = true;
    out.push_back(std::move(one));
  }
  return out;
}

class JsonReporter final : public Reporter {
 public:
  void challenge_list(const std::vector<CatalogEntry>& entries, std::ostream& out) override {
    json list = json::array();
    for (const auto& e : entries) {
      if (e.challenge)
        list.push_back(challenge_summary(*e.challenge));
      else
        list.push_back({{"id", e.dir.filename().string()}, {"error", e.error}});
    }
    emit({{"challenges", list}}, out);
  }

  void challenge_detail(const Challenge& c, const std::string& statement, std::ostream& out) override {
    json j = challenge_summary(c);
    json params = json::array();
    for (const auto& p : c.params) {
      json shape = json::array();
      for (const auto& e : p.shape) shape.push_back(e.text());
      json param = {{"name", p.name}, {"role", to_string(p.role)}, {"dtype", to_string(p.dtype)}, {"shape", shape}};
      if (!p.check.empty()) param["check"] = p.check;
      params.push_back(param);
    }
    j["params"] = params;
    j["statement"] = statement;
    j["tolerance"] = {{"exact", c.tolerance.exact}, {"atol", c.tolerance.atol}, {"rtol", c.tolerance.rtol}};
    if (c.tolerance.norm()) j["tolerance"] = {{"rel_norm", c.tolerance.rel_norm}};
    json constraints = json::array();
    for (const auto& e : c.constraints) constraints.push_back(e.text());
    j["constraints"] = constraints;
    j["timeout_s"] = c.timeout_s;
    j["tests"] = cases_json(c, c.tests);
    j["benchmarks"] = cases_json(c, c.benchmarks);
    emit(j, out);
  }

  void initialised(const Challenge& c, const std::string& path, std::ostream& out) override {
    emit({{"challenge", c.id}, {"written", path}}, out);
  }

  void judge_result(const JudgeReport& r, const std::string& source, const RecordOutcome& rec,
                    std::ostream& out) override {
    json j = to_json(r);
    j["source"] = source;
    if (std::string replay = replay_command(r, source); !replay.empty()) j["replay"] = replay;
    // The stress cases apart: how many ran, which failed and how to replay each (their results are in "cases").
    json failed = json::array();
    int stress = 0;
    for (const auto& c : r.cases) {
      if (!c.stress) continue;
      ++stress;
      if (c.verdict == Verdict::accepted) continue;
      failed.push_back({{"case", c.name}, {"verdict", c.verdict}, {"message", c.message}, {"beyond", c.beyond},
                        {"replay", replay_case_command(r, source, c)}});
    }
    if (stress > 0) j["stress"] = {{"cases", stress}, {"failed", failed}, {"decide_verdict", r.strict}};
    if (rec.attempted)
      j["record"] = {{"recorded", rec.recorded}, {"submission_id", rec.submission_id},
                     {"rank", rec.rank},         {"ranked", rec.ranked},
                     {"database", rec.database}, {"error", rec.error},
                     {"saved_to", rec.saved_to}};
    emit(j, out);
  }

  void leaderboard(const std::vector<LeaderboardView>& views, std::ostream& out) override {
    json boards = json::array();
    for (const auto& v : views) {
      json ranking = json::array();
      for (const auto& e : v.ranking) ranking.push_back(to_json(e));
      boards.push_back({{"challenge", v.challenge}, {"gpu", v.gpu_name}, {"ranking", ranking}});
    }
    emit({{"leaderboards", boards}}, out);
  }

  void leaderboard_overview(const std::vector<BoardSummary>& boards, const std::string& database,
                            std::ostream& out) override {
    json rows = json::array();
    for (const auto& b : boards) rows.push_back(to_json(b));
    emit({{"overview", rows}, {"database", database}}, out);
  }

  void calibration(const Calibration& c, bool measured_now, const std::string& stored_in,
                   std::ostream& out) override {
    emit({{"calibration", c}, {"measured_now", measured_now}, {"stored_in", stored_in}}, out);
  }

  void html_report_written(const ReportData& data, const std::string& file, std::ostream& out) override {
    json boards = json::array();
    for (const auto& b : data.boards) {
      json board = {{"challenge", b.challenge},
                    {"gpu", b.gpu_name},
                    {"users", b.ranking.size()},
                    {"submissions", b.runs.size()},
                    {"saved", b.saved.size()},
                    {"roofs", b.calibration.has_value()}};
      if (!b.calibration) board["no_roofs"] = b.calibration_note;
      boards.push_back(std::move(board));
    }
    emit({{"written", file},
          {"database", data.database},
          {"boards", boards},
          {"submissions", data.submission_count()},
          {"notes", data.notes}},
         out);
  }

  void profile(const ProfileReport& p, const std::string& source, std::ostream& out) override {
    json j = to_json(p);
    j["source"] = source;
    emit(j, out);
  }

  void ladder(const Ladder& ladder, const std::string& chart_file, std::ostream& out) override {
    json j = to_json(ladder);
    j["chart"] = chart_file.empty() ? json(nullptr) : json(chart_file);
    emit(j, out);
  }

  void error(const std::string& message, std::ostream& out) override { emit({{"error", message}}, out); }

 private:
  static void emit(const json& j, std::ostream& out) {
    out << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  }
};

}  // namespace

std::unique_ptr<Reporter> make_json_reporter() { return std::make_unique<JsonReporter>(); }

}  // namespace judge
