#include "judge/core/base/process_tree.hpp"

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace judge {

int parent_from_stat(const std::string& stat) {
  const std::size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(stat.substr(close + 1));
  std::string state;
  long parent = -1;
  if (!(rest >> state >> parent) || parent < 0) return -1;
  return static_cast<int>(parent);
}

namespace {

// A /proc/<pid>/stat, or "" when it cannot be read: the process may exit between open() and read(), which then fails
// with ESRCH (an ifstream would throw from its buffer there).
std::string read_stat(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string out;
  char buf[1024];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return out;
}

}  // namespace

std::vector<int> process_tree(int root, const std::filesystem::path& proc) {
  namespace fs = std::filesystem;
  std::multimap<int, int> children;  // parent -> child
  bool root_seen = false;
  std::error_code ec;
  for (fs::directory_iterator it(proc, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const int parent = parent_from_stat(read_stat(it->path() / "stat"));
    if (parent < 0) continue;  // gone since the listing, or not a process
    const int pid = std::atoi(name.c_str());
    if (pid == root) root_seen = true;
    children.emplace(parent, pid);
  }
  std::vector<int> tree;
  if (!root_seen) return tree;
  std::set<int> seen = {root};  // /proc has no cycles; a directory made to look like it might
  tree.push_back(root);
  for (std::size_t i = 0; i < tree.size(); ++i) {
    auto [first, last] = children.equal_range(tree[i]);
    for (auto c = first; c != last; ++c)
      if (seen.insert(c->second).second) tree.push_back(c->second);
  }
  return tree;
}

}  // namespace judge
