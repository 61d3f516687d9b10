// `judge ladder`: every rung of an optimisation ladder (submissions/<challenge>/N_name.cu, or the files named), in
// order, judged as `judge submit` judges (all tests, then the timed benchmarks) but never recorded; then the rungs
// side by side, and with --chart their chart as an SVG file. A rung that is not accepted keeps its place with its
// verdict, and the ladder goes on. With --from it judges nothing and shows ladders stored by an earlier `--json` run
// (no GPU needed); --markdown prints them as the tables of submissions/README.md.
#include <algorithm>
#include <fstream>

#include <fmt/ranges.h>

#include "judge/cli/cli.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/present/ladder_chart.hpp"
#include "judge/core/present/ladder_markdown.hpp"
#include "judge/core/run/ladder.hpp"
#include "judge/core/run/ladder_rungs.hpp"

namespace judge::cli {

namespace {

namespace fs = std::filesystem;

struct LadderOptions {
  std::string challenge;
  std::vector<std::string> files;  // empty: the challenge's folder under `submissions`
  std::string submissions;         // empty: default_submissions_dir()
  std::string chart;               // the SVG file to write; empty: none
  std::vector<std::string> cases;  // the benchmark cases charted; empty: all
  std::vector<std::string> from;   // stored runs to show instead of judging
  bool markdown = false;           // print Markdown tables instead of the console table
  std::string charts_from;         // with --markdown --from: link each stored run's chart as <this>/<name>.svg
  BuildFlags build;
  TimingFlags timing;
};

std::vector<fs::path> rung_files(const LadderOptions& o, const Challenge& c) {
  if (!o.files.empty()) return {o.files.begin(), o.files.end()};
  const fs::path root = o.submissions.empty() ? default_submissions_dir() : fs::path(o.submissions);
  return find_rungs(root / c.id);
}

[[noreturn]] void cannot_write_chart(const std::string& file) {
  JUDGE_THROW(Error, "cannot write the chart to {}: check that its folder exists and is writable", file);
}

void write_chart(const std::string& file, const std::string& svg) {
  std::ofstream chart(file, std::ios::binary | std::ios::trunc);
  chart << svg;
  if (!chart.flush()) cannot_write_chart(file);
}

// --from: the stored ladders, shown as a run shows them; nothing is judged.
int show_stored(const GlobalOptions& g, const LadderOptions& o) {
  return guarded(g, [&](Reporter& rep) {
    if (!o.challenge.empty() || !o.files.empty())
      JUDGE_THROW(Error, "--from shows stored ladders and judges nothing: give either a challenge (and its rungs) or "
                         "--from FILE.json, not both");
    if (!o.chart.empty() && o.from.size() != 1)
      JUDGE_THROW(Error, "--chart draws one ladder: give one --from file with it (got {})", o.from.size());
    std::vector<Ladder> ladders;
    for (const auto& file : o.from) {
      std::ifstream in(file, std::ios::binary);
      if (!in) JUDGE_THROW(Error, "--from {}: cannot read the file", file);
      nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
      if (j.is_discarded())
        JUDGE_THROW(Error, "--from {}: not JSON (store a run with `judge ladder <c> --json`)", file);
      ladders.push_back(ladder_from_json(j, file));
    }
    if (!o.chart.empty()) write_chart(o.chart, ladder_chart_svg(ladders.front(), o.cases));
    if (o.markdown) {
      // A stored run's chart is the SVG beside it (bench/ladder-runs/h100/x.json -> x.svg), linked as the Markdown
      // file sees it: --charts-from names that folder relative to the Markdown file.
      std::vector<std::string> links;
      for (const auto& file : o.from) {
        const fs::path svg = fs::path(file).replace_extension(".svg");
        links.push_back(!o.charts_from.empty() && fs::exists(svg)
                            ? (fs::path(o.charts_from) / svg.filename()).generic_string()
                            : std::string());
      }
      std::cout << ladder_markdown(ladders, links);
    } else if (g.json && ladders.size() > 1) {
      nlohmann::json all = nlohmann::json::array();
      for (const auto& l : ladders) all.push_back(to_json(l));
      std::cout << all.dump(2) << "\n";
    } else {
      for (const auto& l : ladders) rep.ladder(l, o.chart, std::cout);
    }
    return kExitOk;
  });
}

int run_ladder(const GlobalOptions& g, const LadderOptions& o) {
  if (!o.from.empty()) return show_stored(g, o);
  return guarded(g, [&](Reporter& rep) {
    if (o.challenge.empty())
      JUDGE_THROW(Error, "which ladder? give a challenge (`judge ladder matrix_multiplication`), or --from a stored "
                         "run");
    Challenge c = find_challenge(challenges_root(g), o.challenge);
    // Everything that can be wrong with the command is said before the first rung runs, not after the last.
    for (const auto& name : o.cases)
      if (std::none_of(c.benchmarks.begin(), c.benchmarks.end(), [&](const Case& b) { return b.name == name; })) {
        std::vector<std::string> names;
        for (const auto& b : c.benchmarks) names.push_back(b.name);
        JUDGE_THROW(Error, "--case {}: {} has no benchmark case of that name; its benchmark cases are {}", name, c.id,
                    fmt::join(names, ", "));
      }
    const std::vector<Rung> rungs = read_rungs(rung_files(o, c));
    if (!o.chart.empty() && !std::ofstream(o.chart, std::ios::binary | std::ios::app)) cannot_write_chart(o.chart);

    JudgeOptions jo = judge_options(o.build);
    add_timing(g, o.timing, jo);
    jo.lock_holder = fmt::format("judge ladder by {}", default_user_name());
    ProgressLine line(std::cout);
    std::vector<JudgeReport> reports;
    for (std::size_t i = 0; i < rungs.size(); ++i) {
      show_progress(g, line, jo, fmt::format("rung {}/{} {}: ", i + 1, rungs.size(), rungs[i].name));
      reports.push_back(judge_submission(c, rungs[i].file, jo));
      line.finish();
    }
    const Ladder ladder = make_ladder(c, rungs, reports);
    if (!o.chart.empty()) write_chart(o.chart, ladder_chart_svg(ladder, o.cases));
    if (o.markdown)
      std::cout << ladder_markdown({ladder});
    else
      rep.ladder(ladder, o.chart, std::cout);
    return ladder.accepted() == ladder.rows.size() ? kExitOk : kExitRejected;
  });
}

}  // namespace

void setup_ladder(CLI::App& app, const GlobalOptions& g) {
  auto o = std::make_shared<LadderOptions>();
  auto* l = app.add_subcommand("ladder", "Judge each rung of an optimisation ladder as submit does (never recorded) "
                                         "and compare them: rate, speed of light, speedups; --chart draws it");
  l->add_option("challenge", o->challenge, "Challenge id (see `judge list`); not with --from");
  l->add_option("files", o->files,
                "The rungs, in this order (default: submissions/<challenge>/N_name.cu, by N)")
      ->check(CLI::ExistingFile);
  l->add_option("--submissions", o->submissions,
                "Folder of the ladders, one subfolder per challenge (default: $JUDGE_SUBMISSIONS, else the "
                "repository's submissions/)");
  l->add_option("--chart", o->chart, "Write the ladder's chart to this SVG file: a bar per rung, the GPU's ceiling");
  l->add_option("--case", o->cases, "Chart only this benchmark case (repeatable; default: every case, bars grouped)");
  l->add_option("--from", o->from,
                 "Show a ladder stored by `judge ladder <c> --json` instead of judging (repeatable; no GPU needed)")
      ->check(CLI::ExistingFile);
  l->add_flag("--markdown", o->markdown,
              "Print the ladder as a Markdown table, the form of submissions/README.md (regenerate it from "
              "bench/ladder-runs/ with scripts/ladder-readme.sh)");
  l->add_option("--charts-from", o->charts_from,
                 "With --markdown --from: open each table with the stored run's chart (its .svg beside the .json), "
                 "linked from this folder, as the Markdown file sees it (e.g. ../bench/ladder-runs/h100)");
  add_build_flags(l, o->build);
  add_timing_flags(l, o->timing);
  l->callback([o, &g] { exit_code() = run_ladder(g, *o); });
}

}  // namespace judge::cli
