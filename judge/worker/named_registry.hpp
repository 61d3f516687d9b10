#pragma once
// A process-wide table of functions by name, filled during static initialisation: the custom generators
// (JUDGE_GENERATOR, generate.hpp) and the named checkers (JUDGE_CHECKER, check.hpp), built in or beside a challenge's
// reference. Names are global, so a second registration of a name (a challenge-local one that chose a name already
// taken) would silently replace the first: it aborts, naming where to look, since static initialisation has no other
// way to report. Looking up an unknown name throws an Error that lists the known ones.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "judge/core/base/error.hpp"

namespace judge {

template <class Fn>
class NamedRegistry {
 public:
  // kind: "generator"; built_in: the folder of the built-in ones ("judge/worker/generators/"); macro: how a
  // challenge registers its own ("JUDGE_GENERATOR").
  NamedRegistry(const char* kind, const char* built_in, const char* macro)
      : kind_(kind), built_in_(built_in), macro_(macro) {}
  NamedRegistry(const NamedRegistry&) = delete;
  NamedRegistry& operator=(const NamedRegistry&) = delete;

  void add(const std::string& name, Fn fn) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.count(name) != 0) {
      std::fprintf(stderr, "judge: two %ss are registered as '%s' (%s*.cu and reference/*.cu): rename one\n", kind_,
                   name.c_str(), built_in_);
      std::abort();
    }
    entries_[name] = std::move(fn);
  }

  bool has(const std::string& name) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.count(name) > 0;
  }

  Fn find(const std::string& name) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(name);
    if (it != entries_.end()) return it->second;
    std::string known;
    for (const auto& entry : entries_) known += (known.empty() ? "" : ", ") + entry.first;
    JUDGE_THROW(Error, "no {} named '{}' is registered (built in: {}; challenge-specific: {} in reference/<id>.cu); "
                "known: {}", kind_, name, built_in_, macro_, known.empty() ? "none" : known);
  }

 private:
  const char* kind_;
  const char* built_in_;
  const char* macro_;
  mutable std::mutex mutex_;
  std::map<std::string, Fn> entries_;
};

}  // namespace judge
