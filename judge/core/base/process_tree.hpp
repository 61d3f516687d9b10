#pragma once
// A process and its descendants, read from /proc. The worker attributes device memory to the solver by process
// (NVML lists memory per PID): the solver under bubblewrap is the sandbox's child, not the process the worker
// started, so the whole tree is the solver.
#include <filesystem>
#include <string>
#include <vector>

namespace judge {

// `root` and every process below it, root first, each parent before its children. Empty when `root` does not exist.
// `proc` is where procfs is mounted (a test passes a directory of its own). A process that exits while the tree is
// read is left out.
std::vector<int> process_tree(int root, const std::filesystem::path& proc = "/proc");

// The parent of `pid` from the text of /proc/<pid>/stat ("pid (comm) state ppid ..."), or -1 when the text is not
// that. The command name may hold spaces and parentheses, so the fields are counted from the last ')'.
int parent_from_stat(const std::string& stat);

}  // namespace judge
