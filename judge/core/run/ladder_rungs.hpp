#pragma once
// The rungs of an optimisation ladder: submissions/<challenge>/N_name.cu, in the order of N (10_x after 9_x), each
// with its idea, the first sentence of the comment it opens with ("Rung 2: each thread loads and stores 16 bytes").
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace judge {

struct Rung {
  std::filesystem::path file;
  std::string name;  // the file name without its extension: "1_naive" (see read_rungs)
  std::string idea;  // empty when the file opens with no comment
};

// The N_name.cu files of dir, by N (numerically; equal N by name). Other files are not rungs. Throws Error naming
// dir when it is not a directory or holds no rung.
std::vector<std::filesystem::path> find_rungs(const std::filesystem::path& dir);

// The first sentence of the comment a source opens with (its lines joined, up to the first '.' that ends a sentence
// or the first empty comment line; at most 200 characters, cut with an ellipsis): a `//` comment (a run of them),
// or a `/* */` block. Blank lines and preprocessor lines (#include ...) before it are skipped; code before any
// comment means there is none (a comment inside a kernel is not the file's idea). Empty when there is none.
std::string first_comment(std::string_view source);

// The rungs in `files`, in that order, each idea read from its file. Each is named by its file name without the
// extension, unless two files would share a name (alice/solve.cu, bob/solve.cu): then by the paths as given.
// Throws Error naming a file that cannot be read.
std::vector<Rung> read_rungs(const std::vector<std::filesystem::path>& files);

}  // namespace judge
