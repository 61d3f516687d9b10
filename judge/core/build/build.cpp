#include "judge/core/build/build.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "judge/core/base/sha256.hpp"
#include "judge/core/build/build_manifest.hpp"
#include "judge/core/sandbox/confine.hpp"
#include "judge/core/sandbox/process.hpp"

namespace judge {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kCompileLimit = std::chrono::minutes(5);

std::string read_text(const fs::path& p, const char* what) {
  std::ifstream in(p, std::ios::binary);
  if (!in) JUDGE_THROW(Error, "cannot read {} {}: does the file exist and is it readable?", what, p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) JUDGE_THROW(Error, "cannot write {}: is the disk full or the directory read-only?", p.string());
}

// nvcc, run to its end; what it prints is the build's diagnostics.
Captured run_nvcc(const std::vector<std::string>& argv) {
  SpawnOptions opt;
  opt.argv = argv;
  opt.output_limit = 1 << 20;
  return run_captured(opt, kCompileLimit);
}

// nvcc on a submission: confined to the toolkit, the system's headers and its private build directory
// (sandbox/confine.hpp), so that an #include or .incbin of any other file fails without quoting it. `sandbox` says
// which protection applied.
Captured run_confined_nvcc(const std::vector<std::string>& argv, const fs::path& private_dir, std::string& sandbox) {
  SpawnOptions opt;
  opt.argv = argv;
  opt.output_limit = 1 << 20;
  CompileConfinement confinement = confine_compile(opt, argv.front(), private_dir);
  sandbox = confinement.sandbox;
  return run_captured(opt, kCompileLimit);
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// The headers beside the source, which it may include: part of what it compiles, so part of the cache key, and
// copied beside it into the build directory, the only place nvcc may read them from. Regular files only: a symlink
// there (to /etc/shadow, say) would have the judge read, with its own rights, what the sandbox keeps from nvcc.
std::vector<fs::path> header_files(const fs::path& source) {
  std::error_code ec;
  std::vector<fs::path> headers;
  for (const auto& entry : fs::directory_iterator(fs::absolute(source).parent_path(), ec)) {
    auto ext = entry.path().extension().string();
    if (entry.symlink_status(ec).type() == fs::file_type::regular &&
        (ext == ".h" || ext == ".hpp" || ext == ".cuh" || ext == ".inl"))
      headers.push_back(entry.path());
  }
  std::sort(headers.begin(), headers.end());
  return headers;
}

std::string local_headers(const fs::path& source) {
  std::string all;
  for (const auto& h : header_files(source)) {
    std::ifstream in(h, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    all += h.filename().string() + '\0' + ss.str() + '\0';
  }
  return all;
}

// A copy of a file of the submission's for nvcc, in `dir`, under its own name. Its first line gives the original's
// path back (#line), so diagnostics, __FILE__ and -lineinfo name the user's file as before, while "..." includes
// still search the copy's directory, where its headers were copied.
fs::path copy_for_nvcc(const fs::path& original, const std::string& text, const fs::path& dir) {
  fs::path copy = dir / original.filename();
  std::string name = fs::absolute(original).lexically_normal().string();
  write_text(copy, "#line 1 \"" + replace_all(replace_all(name, "\\", "\\\\"), "\"", "\\\"") + "\"\n" + text);
  return copy;
}

}  // namespace

std::string nvcc_version(const std::string& nvcc) {
  Captured c = run_nvcc({nvcc, "--version"});
  if (!c.status.ok()) JUDGE_THROW(Error, "`{} --version` failed ({}): {}", nvcc, c.status.describe(), c.output);
  std::istringstream in(c.output);
  std::string line, release;
  while (std::getline(in, line))
    if (line.find("release") != std::string::npos) release = line;
  return release.empty() ? c.output : release;
}

std::vector<std::string> nvcc_arguments(const std::string& arch, const fs::path& glue, const fs::path& output,
                                        const std::vector<std::string>& extra_flags) {
  std::vector<std::string> args = {"-std=c++17", "-O3", "-lineinfo", "-arch=" + arch, "-shared",
                                   "-Xcompiler", "-fPIC", "-cudart", "shared",
                                   // each kernel's registers, spills and shared memory (ptxas_report.hpp)
                                   "--ptxas-options=-v",
                                   // every symbol must resolve now: a missing solve() fails here, not at load
                                   "-Xlinker", "-z,defs", "-Xlinker", std::string("-rpath,") + JUDGE_CUDA_LIBRARY_DIR,
                                   "-lcublas"};
  // The generated solve.h lies beside the glue; a solve.h beside the user's file still comes first ("..." includes
  // search the including file's directory before -I).
  args.push_back("-I" + glue.parent_path().string());
  args.insert(args.end(), extra_flags.begin(), extra_flags.end());
  args.insert(args.end(), {"-o", output.string(), glue.string()});
  return args;
}

BuildResult build_solution(const Challenge& challenge, const BuildRequest& request) {
  auto t0 = Clock::now();
  BuildResult result;
  result.source_text = read_text(request.source, "the submission");
  result.source_hash = sha256_hex(result.source_text);
  std::string nvcc = request.nvcc.empty() ? find_nvcc() : request.nvcc;
  std::string glue = make_glue(challenge, request.source);
  std::string solve_header = make_solve_header(challenge);

  Sha256 key;
  for (const std::string& part :
       {std::string(JUDGE_VERSION), nvcc, nvcc_version(nvcc), request.arch, glue, solve_header, result.source_text,
        local_headers(request.source)})
    key.update(part + '\0');
  // The judge's own flags too: a judge that builds differently must not reuse another's builds.
  for (const auto& a : nvcc_arguments(request.arch, "glue.cu", "solution.so", request.extra_flags))
    key.update(a + '\0');
  std::string digest = key.hex_digest();

  fs::path dir = request.cache_dir / "builds" / digest.substr(0, 32);
  fs::path library = dir / "solution.so";
  std::vector<std::string> argv = {nvcc};
  for (auto& a : nvcc_arguments(request.arch, dir / "glue.cu", library, request.extra_flags)) argv.push_back(a);
  for (const auto& a : argv) result.command += (result.command.empty() ? "" : " ") + a;

  std::error_code ec;
  // A build whose manifest does not vouch for it is removed here and built again below, never loaded.
  if (fs::exists(library, ec) && accept_cached_build(dir, digest, result.library_sha256, result.cache_note)) {
    result.ok = result.cached = true;
    result.library = library;
    result.diagnostics = read_text(dir / "build.log", "the cached build log");
    if (fs::exists(dir / "ptxas.log", ec))
      result.ptxas = parse_ptxas_report(read_text(dir / "ptxas.log", "ptxas's report"));
    result.sandbox = fs::exists(dir / "sandbox.log", ec) ? read_text(dir / "sandbox.log", "the cached build's sandbox")
                                                         : "none: built before the judge sandboxed nvcc";
    result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return result;
  }

  // Build in a private directory, then publish it with one rename so concurrent judges never see half a build.
  fs::create_directories(request.cache_dir / "builds", ec);
  if (ec)
    JUDGE_THROW(Error, "cannot create the build cache {}: {} (set JUDGE_CACHE_DIR to a writable directory)",
                (request.cache_dir / "builds").string(), ec.message());
  // Private to this build: judges are processes, but one judge may build on several threads (`judge batch`).
  static std::atomic<unsigned> builds_started{0};
  fs::path tmp = request.cache_dir / "builds" /
                 fmt::format("{}.tmp-{}-{}", digest.substr(0, 32), ::getpid(), builds_started.fetch_add(1));
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp / "src");
  // nvcc reads only this directory of the judge's: the submission and its headers are copied in (src/, apart from
  // the generated solve.h, which a user's own solve.h beside the source still overrides), and the glue includes the
  // copy.
  fs::path source_copy = copy_for_nvcc(request.source, result.source_text, tmp / "src");
  for (const auto& h : header_files(request.source))
    copy_for_nvcc(h, read_text(h, "the header beside the submission"), tmp / "src");
  write_text(tmp / "glue.cu", make_glue(challenge, source_copy));
  write_text(tmp / "solve.h", solve_header);
  std::vector<std::string> tmp_argv = {nvcc};
  for (auto& a : nvcc_arguments(request.arch, tmp / "glue.cu", tmp / "solution.so", request.extra_flags))
    tmp_argv.push_back(a);
  Captured c = run_confined_nvcc(tmp_argv, tmp, result.sandbox);
  // nvcc names the glue by its path in a private directory that is gone once the build ends; its name is enough.
  NvccOutput output = split_ptxas_report(replace_all(c.output, tmp.string() + "/", ""));
  result.diagnostics = std::move(output.diagnostics);
  result.ptxas = parse_ptxas_report(output.ptxas);
  if (c.timed_out) result.diagnostics += "\n[judge: nvcc did not finish within 5 minutes and was stopped]\n";
  result.ok = c.status.ok() && !c.timed_out;
  if (!result.ok) {
    if (result.diagnostics.find("solve") != std::string::npos) result.diagnostics += signature_hint(challenge);
    fs::remove_all(tmp, ec);
  } else {
    write_text(tmp / "build.log", result.diagnostics);
    write_text(tmp / "ptxas.log", output.ptxas);
    write_text(tmp / "sandbox.log", result.sandbox);
    result.library_sha256 = publish_build(tmp, dir, digest, result.cache_note);
    result.library = library;
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return result;
}

}  // namespace judge
