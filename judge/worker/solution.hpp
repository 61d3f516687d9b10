#pragma once
// The user's compiled shared object. The build step generated `judge_entry(void* const* args)` in the same
// translation unit as their solve(), so one uniform entry point calls solve() with the challenge's exact signature.
#include <filesystem>

#include "judge/core/base/error.hpp"

namespace judge {

class Solution {
 public:
  using Entry = void (*)(void* const* args);
  // dlopen + dlsym. Throws Error with dlerror()'s text.
  explicit Solution(const std::filesystem::path& library);
  // The library is deliberately never dlclose'd: its static destructors and CUDA module unloading would run
  // against a context the worker is about to tear down. The process ends soon after; the OS reclaims it.
  ~Solution() = default;
  Solution(const Solution&) = delete;
  Solution& operator=(const Solution&) = delete;

  void call(void* const* args) const { entry_(args); }

 private:
  void* handle_ = nullptr;
  Entry entry_ = nullptr;
};

}  // namespace judge
