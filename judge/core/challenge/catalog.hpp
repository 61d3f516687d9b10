#pragma once
// The challenges on disk: every folder of the challenges directory that holds a spec.json. Nothing is listed by
// hand; adding a folder adds a challenge.
#include <filesystem>
#include <string>
#include <vector>

#include "judge/core/challenge/spec.hpp"

namespace judge {

struct CatalogEntry {
  std::filesystem::path dir;
  std::optional<Challenge> challenge;  // empty when the spec failed to load
  std::string error;                   // why it failed
};

// Every challenge folder, sorted by id; a broken spec is an entry with its error, not a failure of the whole list.
std::vector<CatalogEntry> scan_challenges(const std::filesystem::path& root);

// The challenge `id`, loaded. Throws Error naming the directory and suggesting close ids when there is none, and
// SpecError when its spec is broken.
Challenge find_challenge(const std::filesystem::path& root, const std::string& id);

}  // namespace judge
