#include "judge/core/run/sanitizer.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "judge/core/base/error.hpp"
#include "judge/core/build/build.hpp"

namespace judge {

namespace fs = std::filesystem;

namespace {

constexpr std::array<std::pair<SanitizerTool, std::string_view>, 4> kTools{{
    {SanitizerTool::memcheck, "memcheck"},
    {SanitizerTool::racecheck, "racecheck"},
    {SanitizerTool::initcheck, "initcheck"},
    {SanitizerTool::synccheck, "synccheck"},
}};

// The prefix we ask for (--prefix) and read: the one compute-sanitizer's reports have always shown.
constexpr std::string_view kPrefix = "=========";

// compute-sanitizer's ordinary timeout for a single process (10 s) to connect to the target is short for a worker
// that loads cuBLAS and CUPTI on a busy machine; a worker that really hangs is killed by the judge's deadlines.
constexpr int kLaunchTimeoutS = 60;
// Enough to show a few distinct errors (the same bad line in every thread comes first), small enough that the
// report stays readable and within the judge's bound on captured output. The summary still counts them all.
constexpr int kPrintLimit = 32;
// Padding after every cudaMalloc, so that an overrun lands in memory memcheck knows to be invalid instead of in the
// next allocation. As wide as the worker's own guard regions (GuardedBuffer::kGuardBytes): an overrun the guards
// would catch as a write, the sanitizer catches as a read or a write, with the line that did it.
constexpr int kPaddingBytes = 64 * 1024;

bool executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::string trim(std::string_view s) {
  std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  std::size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

int to_int(std::string digits) {
  digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());  // "1,024"
  try {
    return std::stoi(digits);
  } catch (const std::exception&) {
    return 0;
  }
}

std::string file_name(const std::string& path) { return fs::path(path).filename().string(); }

// ---- One report line ----------------------------------------------------------------------------------------------

// The text after the prefix if the line is the sanitizer's, else nullopt. `indented` says whether the text started
// with blanks (a detail line of the report above it).
std::optional<std::string> sanitizer_text(std::string_view line, bool& indented) {
  if (!starts_with(line, kPrefix)) return std::nullopt;
  std::size_t n = kPrefix.size();
  if (n == line.size()) return std::string();
  if (line[n] != ' ') return std::nullopt;  // "==========": not ours
  std::string_view rest = line.substr(n + 1);
  indented = !rest.empty() && (rest[0] == ' ' || rest[0] == '\t');
  return trim(rest);
}

struct Frame {
  std::string function;
  std::string file;  // as printed: a bare name unless the sanitizer ran with --strip-paths no
  int line = 0;
  bool call_stack = false;  // "at ..." or "Device Frame: ...", as opposed to one side of a race
};

// A code site as the sanitizer prints it, in the forms its releases and tools use:
//   add(float *)+0x70 in solve.cu:12        (current)
//   unaligned_kernel():0x160 in memcheck_demo.cu:6
//   0x278 in /path/task1.cu:113:MatMulKernel(Matrix, Matrix, Matrix)   (older releases)
//   0x90 in IncrementTwice(unsigned int*)   (no line information)
//   add(float *)+0x70                       (no line information)
// optionally followed by " [508 hazards]" (racecheck).
Frame parse_site(std::string site) {
  static const std::regex file_line(R"(^([^:\s][^:]*):([0-9]+)(?::(.+))?$)");
  static const std::regex hex(R"(^0x[0-9a-fA-F]+$)");
  static const std::regex offset(R"((\+|:)0x[0-9a-fA-F]+$)");
  Frame f;
  if (!site.empty() && site.back() == ']') {
    std::size_t open = site.rfind(" [");
    if (open != std::string::npos) site = trim(site.substr(0, open));
  }
  std::size_t in = site.rfind(" in ");
  std::smatch m;
  if (in == std::string::npos) {
    f.function = site;
  } else {
    std::string left = trim(site.substr(0, in));
    std::string right = trim(site.substr(in + 4));
    if (std::regex_match(right, m, file_line)) {
      f.file = m[1];
      f.line = to_int(m[2]);
      f.function = m[3].matched ? trim(m[3].str()) : left;
    } else {
      f.function = std::regex_match(left, hex) ? right : left;  // else `right` is a module ("in memcheck_demo")
    }
  }
  f.function = std::regex_replace(f.function, offset, "");
  if (std::regex_match(f.function, hex)) f.function.clear();
  return f;
}

// Where a line names a code site, the site; else nullopt. `access` receives "Write access", "Read Thread (1,0,0)"...
// when the site is one side of a race.
std::optional<Frame> frame_of(const std::string& text, std::string* access = nullptr) {
  static const std::regex device_frame(R"(^Device Frame:\s*(.+)$)");
  static const std::regex race_side(R"(^(?:.*\s)?(\w+ access|\w+ Thread \([0-9, ]*\)) at (.+)$)");
  std::smatch m;
  if (starts_with(text, "at ")) {
    Frame f = parse_site(text.substr(3));
    f.call_stack = true;
    return f;
  }
  if (std::regex_match(text, m, device_frame)) {
    Frame f = parse_site(m[1]);
    f.call_stack = true;
    return f;
  }
  if (std::regex_match(text, m, race_side)) {
    if (access) *access = m[1];
    return parse_site(m[2]);
  }
  return std::nullopt;
}

// ---- Reports ------------------------------------------------------------------------------------------------------

struct Block {
  std::string header;
  std::vector<std::string> details;  // trimmed text of the detail lines
  std::string raw;
};

bool is_detail_text(const std::string& t) {
  // Detail lines are indented; these openings also recognise them where the indentation was lost (copied reports).
  static constexpr std::string_view kOpenings[] = {
      "at ",          "by thread",     "Address ",       "Access at",     "and ",
      "Device Frame", "Host Frame",    "Saved host",     "Current Value", "Incoming Value",
      "Read Thread",  "Write Thread",  "Not written",    "[...]",         "Sync mask"};
  for (std::string_view o : kOpenings)
    if (starts_with(t, o)) return true;
  return false;
}

// Lines of the sanitizer that are not reports of their own: the banner, and the consequences of a worker that
// exited non-zero (the judge reports that itself, from the exit status).
bool is_chatter(const std::string& t) {
  return t == "COMPUTE-SANITIZER" || starts_with(t, "LEAK SUMMARY:") || t == "Target application returned an error" ||
         t == "Error: process didn't terminate successfully";
}

// Racecheck's analysis header names the first access ("... between Write access at SITE"); the kind keeps the
// access type, not the site.
std::string kind_of(const Block& b) {
  static const std::regex site_in_header(R"( at .*$)");
  static const std::regex other_side(R"(^and (\w+ access) at )");
  std::string kind = b.header;
  if (frame_of(b.header)) kind = std::regex_replace(kind, site_in_header, "");
  std::smatch m;
  for (const std::string& d : b.details)
    if (std::regex_search(d, m, other_side)) {
      std::string side = " and " + m[1].str();
      if (kind.find(side) == std::string::npos) kind += side;
    }
  if (kind.size() > 2 && kind.compare(kind.size() - 2, 2, " :") == 0) kind.resize(kind.size() - 2);  // hazard reports
  return kind;
}

std::string kernel_of(const std::vector<Frame>& frames) {
  std::string kernel;
  for (const Frame& f : frames)  // the outermost frame of the call stack is the kernel
    if (f.call_stack && !f.function.empty()) kernel = f.function;
  if (kernel.empty())
    for (const Frame& f : frames)
      if (!f.function.empty()) {
        kernel = f.function;
        break;
      }
  if (starts_with(kernel, "[clone ")) {  // "[clone myKernel(int *)] outlineSync()": a function outlined from myKernel
    std::size_t close = kernel.find(']');
    if (close != std::string::npos) kernel = kernel.substr(7, close - 7);
  }
  return kernel;
}

std::string site_text(const Frame& f) {
  return f.file.empty() ? f.function : fmt::format("{}:{}", f.file, f.line);
}

SanitizerFinding finding_of(const Block& b, const std::string& source_name) {
  SanitizerFinding r;
  r.kind = kind_of(b);
  r.raw = b.raw;
  std::vector<Frame> frames;
  std::vector<std::string> detail;
  // A line names at most one site. A side of a race also gets a detail line, without the kernel's long signature.
  auto take_frame = [&](const std::string& text) {
    std::string access;
    std::optional<Frame> f = frame_of(text, &access);
    if (!f) return false;
    frames.push_back(*f);
    if (!access.empty()) {
      std::string hazards;  // " [508 hazards]"
      if (std::size_t open = text.rfind(" ["); open != std::string::npos && text.back() == ']')
        hazards = text.substr(open);
      detail.push_back(
          fmt::format("{}{} at {}{}", starts_with(text, "and ") ? "and " : "", access, site_text(*f), hazards));
    }
    return true;
  };
  take_frame(b.header);
  for (const std::string& d : b.details) {
    if (take_frame(d) || starts_with(d, "Host Frame") || starts_with(d, "Saved host") || d == "[...]") continue;
    detail.push_back(d);
  }
  for (std::size_t i = 0; i < detail.size(); ++i) r.detail += (i ? "\n" : "") + detail[i];

  r.kernel = kernel_of(frames);
  const Frame* first_with_line = nullptr;
  const Frame* user = nullptr;
  for (const Frame& f : frames) {
    if (f.file.empty()) continue;
    if (!first_with_line) first_with_line = &f;
    if (!user && file_name(f.file) == source_name) user = &f;
  }
  if (const Frame* at = user ? user : first_with_line) r.location = fmt::format("{}:{}", at->file, at->line);
  if (user) r.line = user->line;
  for (const Frame& f : frames)
    if (user && file_name(f.file) == source_name && f.line != r.line &&
        std::find(r.related_lines.begin(), r.related_lines.end(), f.line) == r.related_lines.end())
      r.related_lines.push_back(f.line);
  return r;
}

// "ERROR SUMMARY: 2 errors", "ERROR SUMMARY: 33 errors were not printed. Use --print-limit ...",
// "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)". True when the line was one of them.
bool read_summary(const std::string& t, SanitizerReport& r, bool& saw_error_summary) {
  static const std::regex error_summary(R"(^ERROR SUMMARY:\s*([0-9][0-9,]*) errors?(.*)$)");
  static const std::regex race_summary(
      R"(^RACECHECK SUMMARY:\s*[0-9][0-9,]* hazards? displayed \(([0-9][0-9,]*) errors?, ([0-9][0-9,]*) warnings?\))");
  std::smatch m;
  if (std::regex_match(t, m, error_summary)) {
    if (m[2].str().find("not printed") != std::string::npos) {
      r.not_printed = to_int(m[1]);
    } else {
      r.errors = to_int(m[1]);
      r.summary_line = t;
      saw_error_summary = true;
    }
    r.complete = true;
    return true;
  }
  if (std::regex_search(t, m, race_summary)) {
    if (!saw_error_summary) {
      r.errors = to_int(m[1]);
      r.summary_line = t;
    }
    r.warnings = to_int(m[2]);
    r.complete = true;
    return true;
  }
  return starts_with(t, "ERROR SUMMARY:") || starts_with(t, "RACECHECK SUMMARY:");  // a shape we do not know
}

// ---- Text for people ----------------------------------------------------------------------------------------------

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

// Lines line-1 .. line+1 of the source, the line itself marked; nothing if the source has no such line (it changed
// since the build).
void append_snippet(std::string& out, const std::vector<std::string>& source, int line) {
  if (line < 1 || static_cast<std::size_t>(line) > source.size()) return;
  int last = std::min<int>(line + 1, static_cast<int>(source.size()));
  int width = static_cast<int>(std::to_string(last).size());
  for (int n = std::max(1, line - 1); n <= last; ++n)
    out += fmt::format("   {} {:>{}} | {}\n", n == line ? '>' : ' ', n, width, source[n - 1]);
}

}  // namespace

std::string_view to_string(SanitizerTool tool) {
  for (const auto& [t, name] : kTools)
    if (t == tool) return name;
  return "memcheck";  // unreachable for valid enumerators
}

std::optional<SanitizerTool> parse_sanitizer_tool(std::string_view name) {
  for (const auto& [t, n] : kTools)
    if (n == name) return t;
  return std::nullopt;
}

std::string find_compute_sanitizer() {
  if (const char* e = std::getenv("JUDGE_COMPUTE_SANITIZER"); e && *e) {
    if (executable_file(e)) return e;
    JUDGE_THROW(Error,
                "JUDGE_COMPUTE_SANITIZER is set to {}, which is not an executable file: point it at the CUDA "
                "Toolkit's compute-sanitizer, or unset it to let the judge look on PATH and beside nvcc",
                e);
  }
  std::vector<fs::path> candidates;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty()) candidates.push_back(fs::path(dir) / "compute-sanitizer");
  }
  try {
    fs::path bin = fs::path(find_nvcc()).parent_path();
    candidates.push_back(bin / "compute-sanitizer");
    candidates.push_back(bin.parent_path() / "compute-sanitizer" / "compute-sanitizer");
  } catch (const Error&) {
    // no nvcc: the fixed locations below may still have it
  }
  candidates.emplace_back("/usr/local/cuda/bin/compute-sanitizer");
  candidates.emplace_back("/usr/local/cuda/compute-sanitizer/compute-sanitizer");
  for (const fs::path& c : candidates)
    if (executable_file(c)) return c.string();
  throw Error(
      "cannot find compute-sanitizer, which --sanitize runs your code under: install the CUDA Toolkit's "
      "compute-sanitizer (NVIDIA's package cuda-sanitizer-<major>-<minor>), put it on PATH, or set "
      "JUDGE_COMPUTE_SANITIZER to its path");
}

std::vector<std::string> sanitizer_prefix(const std::string& sanitizer, SanitizerTool tool,
                                          const std::string& log_file) {
  std::vector<std::string> argv = {
      sanitizer, "--tool", std::string(to_string(tool)),
      // The parser reads this prefix; naming it keeps the report readable whatever a release's default is.
      "--prefix", std::string(kPrefix),
      // Distinct from the worker's own exit codes, so the judge can tell "ran fine, but errors were found".
      "--error-exitcode", std::to_string(kSanitizerErrorExitCode),
      // The judge reads the worker's exit status itself; the sanitizer need not add an error for it, nor for a
      // worker that stops before initialising CUDA (a bad job, no device): those are the judge's verdicts.
      "--check-exit-code", "no", "--require-cuda-init", "no",
      // solve() runs in the solver, a child of the worker (judge/solver/main.cpp).
      "--target-processes", "all",
      "--launch-timeout", std::to_string(kLaunchTimeoutS),
      "--print-limit", std::to_string(kPrintLimit),
      // Device frames find the user's line when the fault is inside a __device__ function or a CUDA header (the
      // caller's frame is in solve.cu); host frames would show only the worker's internals.
      "--show-backtrace", "device",
      // On an invalid access, end the kernel but keep the context: the worker goes on to report its cases instead
      // of failing every later CUDA call (each of which the sanitizer would report too).
      "--destroy-on-device-error", "kernel",
      // Errors returned by the CUDA calls the program makes (a submission's bad launch shows), not those the
      // runtime makes on its own ("all") nor the driver's internal log ("extended", the default): less noise.
      "--report-api-errors", "explicit"};
  switch (tool) {
    case SanitizerTool::memcheck:
      // No --leak-check: the worker keeps its buffers until it exits, so every run would "leak".
      argv.insert(argv.end(), {"--padding", std::to_string(kPaddingBytes)});
      break;
    case SanitizerTool::racecheck:
      // One line per race with both source lines ("analysis"), not one report per byte and thread pair ("hazard").
      argv.insert(argv.end(), {"--racecheck-report", "analysis"});
      break;
    case SanitizerTool::initcheck:
    case SanitizerTool::synccheck:
      break;
  }
  if (!log_file.empty()) {
    std::string escaped;  // --log-file expands %p, %q{VAR} and %%
    for (char c : log_file) escaped += c == '%' ? std::string("%%") : std::string(1, c);
    argv.insert(argv.end(), {"--log-file", escaped});
  }
  argv.push_back("--");
  return argv;
}

SanitizerReport parse_sanitizer_output(const std::string& output, const std::string& source_file_name,
                                       std::size_t max_findings) {
  SanitizerReport report;
  const std::string source_name = file_name(source_file_name);
  std::vector<SanitizerFinding> distinct;
  std::optional<Block> block;
  bool saw_error_summary = false;

  auto close = [&] {
    if (!block) return;
    SanitizerFinding f = finding_of(*block, source_name);
    block.reset();
    for (SanitizerFinding& d : distinct)
      if (d.kind == f.kind && d.kernel == f.kernel && d.location == f.location) {
        ++d.occurrences;
        return;
      }
    distinct.push_back(std::move(f));
  };

  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    bool indented = false;
    std::optional<std::string> text = sanitizer_text(line, indented);
    if (!text) continue;  // the program's own output
    if (text->empty()) {  // the bare prefix line that ends a report
      close();
      continue;
    }
    if (read_summary(*text, report, saw_error_summary)) {
      close();
      continue;
    }
    if (indented || is_detail_text(*text)) {
      if (block) {
        block->details.push_back(*text);
        block->raw += "\n" + line;
      }
      continue;
    }
    close();
    if (is_chatter(*text)) continue;
    block = Block{*text, {}, line};
  }
  close();

  if (distinct.size() > max_findings) {
    report.omitted = distinct.size() - max_findings;
    distinct.resize(max_findings);
  }
  report.findings = std::move(distinct);
  return report;
}

std::string format_findings(const SanitizerReport& report, const std::string& source_text) {
  const std::vector<std::string> source = split_lines(source_text);
  std::string out;
  if (report.findings.empty() && report.omitted == 0) {
    if (!report.complete) return "compute-sanitizer printed no report: it did not run to its end\n";
    if (report.errors == 0 && report.warnings == 0) return "compute-sanitizer found no errors\n";
  }
  if (!report.summary_line.empty()) out += "compute-sanitizer: " + report.summary_line + "\n";
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    const SanitizerFinding& f = report.findings[i];
    out += fmt::format("\n{}. {}", i + 1, f.kind);
    if (f.occurrences > 1) out += fmt::format(" ({} times)", f.occurrences);
    out += "\n";
    if (!f.kernel.empty()) out += "   in " + f.kernel + "\n";
    if (!f.location.empty()) out += "   at " + f.location + "\n";
    std::istringstream detail(f.detail);
    std::string d;
    while (std::getline(detail, d)) out += "   " + d + "\n";
    if (f.line > 0) append_snippet(out, source, f.line);
    const std::string file = f.location.substr(0, f.location.rfind(':'));  // related lines are in the same file
    for (int related : f.related_lines) {
      out += fmt::format("   {}:{}\n", file, related);
      append_snippet(out, source, related);
    }
  }
  if (report.omitted > 0)
    out += fmt::format("\n... and {} more distinct report{} (not shown)\n", report.omitted,
                       report.omitted == 1 ? "" : "s");
  if (report.not_printed > 0)
    out += fmt::format("({} more error{} counted but not printed by compute-sanitizer)\n", report.not_printed,
                       report.not_printed == 1 ? " was" : "s were");
  if (!report.complete) out += "(compute-sanitizer did not run to its end: the report may be incomplete)\n";
  return out;
}

}  // namespace judge
