#include "judge/worker/solution.hpp"

#include <dlfcn.h>

namespace judge {

Solution::Solution(const std::filesystem::path& library) {
  handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) JUDGE_THROW(Error, "cannot load the compiled submission {}: {}", library.string(), dlerror());
  dlerror();
  void* sym = dlsym(handle_, "judge_entry");
  if (!sym)
    JUDGE_THROW(Error, "the compiled submission {} has no judge_entry (was it built by the judge?): {}",
                library.string(), dlerror());
  entry_ = reinterpret_cast<Entry>(sym);
}

}  // namespace judge
