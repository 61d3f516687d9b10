#include "judge/core/base/nvcc.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <unistd.h>

#include "judge/core/base/error.hpp"

namespace judge {

namespace {

bool executable(const std::filesystem::path& p) { return ::access(p.c_str(), X_OK) == 0; }

}  // namespace

std::string find_nvcc() {
  if (const char* e = std::getenv("JUDGE_NVCC"); e && *e) return e;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty() && executable(std::filesystem::path(dir) / "nvcc"))
        return (std::filesystem::path(dir) / "nvcc").string();
  }
  if (executable(JUDGE_NVCC)) return JUDGE_NVCC;
  if (executable("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  throw Error(
      "cannot find nvcc: install the CUDA Toolkit, put its bin/ on PATH, or set JUDGE_NVCC to the compiler's path");
}

}  // namespace judge
