#pragma once
// Sanitize: run the functional cases under NVIDIA's compute-sanitizer and turn its report into findings that point
// at the user's source lines. The judge only builds the command line (the sanitizer goes in front of the worker)
// and reads the text the sanitizer prints; nothing here touches CUDA.
//
// compute-sanitizer prefixes each of its lines with "=========" (it also accepts the text of the program under test
// on the same stream: those lines carry no prefix and are ignored). A report is a header line ("Invalid __global__
// write of size 4 bytes", "Error: Race reported between ...", "Uninitialized __global__ memory read ...", "Barrier
// error detected. ..."), indented detail lines ("at kernel+0x70 in solve.cu:12", "by thread (31,0,0) in block
// (0,0,0)", "Address ... is out of bounds", "Device Frame: ..."), and a bare "=========" line; the run ends with
// "ERROR SUMMARY: N errors" (racecheck: "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)").
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace judge {

enum class SanitizerTool { memcheck, racecheck, initcheck, synccheck };

std::string_view to_string(SanitizerTool tool);
std::optional<SanitizerTool> parse_sanitizer_tool(std::string_view name);

// compute-sanitizer's exit code when the worker succeeded but the tool found errors (--error-exitcode). The worker
// itself exits with 0, 1, 2 or 64, so this one cannot be mistaken for one of its own.
inline constexpr int kSanitizerErrorExitCode = 86;

// The compute-sanitizer to use: $JUDGE_COMPUTE_SANITIZER (which must then be an executable file), else
// compute-sanitizer on PATH, else beside nvcc (find_nvcc(): its bin/, or the toolkit's compute-sanitizer/), else
// /usr/local/cuda/bin/compute-sanitizer, else /usr/local/cuda/compute-sanitizer/compute-sanitizer.
// Throws Error saying how to install it or point the judge at it when there is none.
std::string find_compute_sanitizer();

// The argv to put in front of the worker's: {sanitizer, --tool <tool>, options..., "--"}. The options are chosen
// for a judge (see sanitizer.cpp for each one and why). With a log_file, the sanitizer writes its report there
// instead of to stdout, away from whatever the submission prints and from the bound on captured output.
std::vector<std::string> sanitizer_prefix(const std::string& sanitizer, SanitizerTool tool,
                                          const std::string& log_file = "");

struct SanitizerFinding {
  std::string kind;      // "Invalid __global__ write of size 4 bytes", "Error: Race reported between Write access
                         // and Read access", "Barrier error detected. Divergent thread(s) in block."
  std::string kernel;    // the kernel (outermost device frame), e.g. "add(const float *, const float *, float *, int)"
  std::string location;  // "solve.cu:12": the frame in the user's file, else the first frame with a file:line
  int line = 0;          // location's line when it is in the user's file, else 0
  std::vector<int> related_lines;  // other lines of the user's file the report names (the other side of a race,
                                   // the call site of a device function)
  std::string detail;    // thread/block/address lines, newline-separated
  std::string raw;       // the report as printed (its first occurrence), prefix included
  int occurrences = 1;   // identical reports (same kind, kernel and location: usually other threads) folded in
};

struct SanitizerReport {
  int errors = 0;       // from "ERROR SUMMARY: N errors" (racecheck: the errors of its summary)
  int warnings = 0;     // racecheck: the warnings of its summary
  int not_printed = 0;  // errors the sanitizer counted but did not print (--print-limit)
  bool complete = false;  // a summary line was read: the sanitizer ran to its end
  std::vector<SanitizerFinding> findings;  // distinct findings in the order reported, at most max_findings
  std::size_t omitted = 0;                 // distinct findings beyond max_findings
  std::string summary_line;                // "ERROR SUMMARY: 2 errors"
  bool clean() const { return errors == 0 && warnings == 0 && findings.empty() && omitted == 0; }
};

// Reads compute-sanitizer's output (lines of the program under test may be interleaved). source_file_name is the
// user's file (a path or a bare name; frames are matched on the file name, which the sanitizer prints without
// directories by default).
SanitizerReport parse_sanitizer_output(const std::string& output, const std::string& source_file_name,
                                       std::size_t max_findings = 5);

// Human text: per finding its kind, kernel, location, details and the user's line there (from source_text, marked
// with '>', one line of context either side), then what was left out.
std::string format_findings(const SanitizerReport& report, const std::string& source_text);

}  // namespace judge
