#pragma once
// Where things live. Flags win over environment variables, which win over the XDG defaults.
#include <filesystem>
#include <optional>
#include <string>

namespace judge {

// $XDG_DATA_HOME/judge, else ~/.local/share/judge: what the judge keeps (the default leaderboard, calibrations)
std::filesystem::path data_dir();
// $JUDGE_DB, else <data dir>/leaderboard.sqlite. JUDGE_DB may also be a postgresql:// URI (leaderboard_location.hpp).
std::filesystem::path default_database_path();
// $JUDGE_CACHE_DIR, else $XDG_CACHE_HOME/judge, else ~/.cache/judge
std::filesystem::path cache_dir();
// $JUDGE_CHALLENGES, else <exe>/../share/judge/challenges if it exists, else the source tree's challenges/
std::filesystem::path default_challenges_dir();
// $JUDGE_SUBMISSIONS, else <exe>/../share/judge/submissions if it exists, else the source tree's submissions/
// (the example ladders, one folder per challenge)
std::filesystem::path default_submissions_dir();
// judge-worker beside the running executable ($JUDGE_WORKER overrides)
std::filesystem::path worker_path();
// The running executable's path (/proc/self/exe).
std::filesystem::path self_path();
// The login name for leaderboard entries: $JUDGE_USER, $USER, getpwuid, else "anonymous".
std::string default_user_name();

}  // namespace judge
