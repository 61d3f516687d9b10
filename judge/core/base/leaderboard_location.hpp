#pragma once
// Where a leaderboard lives, as --db and JUDGE_DB name it: a postgresql:// or postgres:// URI (libpq's connection
// URI: user, password, host or a socket directory, port, database, parameters) is a PostgreSQL database shared by
// judges on many machines; anything else is the path of an SQLite file on this one.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace judge {

bool is_postgres_location(std::string_view location);

// The location as messages, the console and reports show it: the password of a URI (in its user part or a
// password= parameter) replaced by "***". An SQLite path is shown as it is.
std::string display_location(const std::string& location);

// The folder on this machine that goes with a leaderboard (results it could not take, the default calibration): the
// SQLite file's own folder, or the judge's data folder ($XDG_DATA_HOME/judge) for a PostgreSQL database.
std::filesystem::path leaderboard_local_dir(const std::string& location);

// Where `judge submit` and `judge batch` save an accepted result the leaderboard could not take, first choice first
// (<local dir>/pending, then <cache>/pending); `judge report` reads them back from there.
std::vector<std::filesystem::path> pending_dirs(const std::string& location);

}  // namespace judge
