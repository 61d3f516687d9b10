// The worker's side of the trust boundary (judge/core/run/solver_process.hpp), against a fake solver that misbehaves on
// command (tests/support/fake_solver.cpp): replies that are not the awaited one are ignored, a death is reported
// with its cause, the solver is stopped between commands, and it starts with nothing of the judge's.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <unistd.h>

#include "judge/core/run/solver_process.hpp"
#include "support/test_support.hpp"

namespace {

using nlohmann::json;

judge::SolverOptions fake() {
  judge::SolverOptions o;
  o.executable = JUDGE_FAKE_SOLVER_PATH;
  o.gpu_uuid = "GPU-fake";
  return o;
}

char process_state(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto close = text.rfind(')');
  return close == std::string::npos || close + 2 >= text.size() ? '?' : text[close + 2];
}

TEST(SolverProcess, RequestGetsItsReply) {
  auto solver = judge::SolverProcess::start(fake());
  EXPECT_EQ(solver.timer_name(), "fake");
  judge::SolverReply r = solver.request({{"cmd", "ping"}});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.failure, judge::SolverReply::Failure::none);
  EXPECT_EQ(solver.ignored_lines(), 0);
}

TEST(SolverProcess, ForgedLinesAndRepliesToOtherCommandsAreIgnored) {
  auto solver = judge::SolverProcess::start(fake());
  judge::SolverReply r = solver.request({{"cmd", "forge"}});
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.body.value("real", false)) << r.body.dump();  // not the forged one sent first
  EXPECT_EQ(solver.ignored_lines(), 5);
  EXPECT_TRUE(solver.request({{"cmd", "ping"}}).ok);  // the forged "next" reply was not kept for later either
  EXPECT_EQ(solver.ignored_lines(), 5);
}

TEST(SolverProcess, StoppedBetweenCommands) {
  auto solver = judge::SolverProcess::start(fake());
  EXPECT_EQ(process_state(solver.pid()), 'T') << "stopped after its hello";
  ASSERT_TRUE(solver.request({{"cmd", "ping"}}).ok);
  EXPECT_EQ(process_state(solver.pid()), 'T') << "stopped after a reply";
  solver.resume();
  EXPECT_NE(process_state(solver.pid()), 'T');
}

TEST(SolverProcess, StartsWithNothingOfTheJudges) {
  ::setenv("JUDGE_DB", "/secret/leaderboard.sqlite", 1);
  auto solver = judge::SolverProcess::start(fake());
  ::unsetenv("JUDGE_DB");
  judge::SolverReply r = solver.request({{"cmd", "whoami"}});
  ASSERT_TRUE(r.ok);
  std::string home;
  for (const auto& e : r.body["env"]) {
    const std::string v = e.get<std::string>();
    EXPECT_NE(v.rfind("JUDGE_DB=", 0), 0u) << v;
    if (v.rfind("HOME=", 0) == 0) home = v.substr(5);
  }
  EXPECT_FALSE(home.empty());
  EXPECT_EQ(r.body.value("cwd", ""), home) << "its scratch directory is its home and its working directory";
  // stdin, stdout, stderr and the control socket; the descriptor it was executed from closed on exec.
  std::vector<int> fds = r.body["fds"].get<std::vector<int>>();
  std::vector<int> open;
  for (int fd : fds)
    if (fd <= 3) open.push_back(fd);
  EXPECT_EQ(open, (std::vector<int>{0, 1, 2, 3})) << r.body["fds"].dump();
  EXPECT_LE(fds.size(), 5u) << "only its own descriptors (one more: the one listing /proc/self/fd) " << r.body["fds"];
  if (::geteuid() == 0) EXPECT_EQ(r.body.value("uid", -1), 65534) << "the judge is root: the solver is nobody";
  else EXPECT_EQ(r.body.value("uid", -1), static_cast<int>(::geteuid()));
}

TEST(SolverProcess, DeathBySignalIsNamed) {
  auto solver = judge::SolverProcess::start(fake());
  judge::SolverReply r = solver.request({{"cmd", "segv"}});
  EXPECT_EQ(r.failure, judge::SolverReply::Failure::died);
  EXPECT_NE(r.death.find("SIGSEGV"), std::string::npos) << r.death;
  EXPECT_FALSE(solver.alive());
  auto again = solver.request({{"cmd", "ping"}});
  EXPECT_EQ(again.failure, judge::SolverReply::Failure::died);
}

TEST(SolverProcess, AbortIsNamed) {
  auto solver = judge::SolverProcess::start(fake());
  judge::SolverReply r = solver.request({{"cmd", "abort"}});
  EXPECT_EQ(r.failure, judge::SolverReply::Failure::died);
  EXPECT_NE(r.death.find("SIGABRT"), std::string::npos) << r.death;
}

TEST(SolverProcess, ExitInsideIsANormalExit) {
  auto solver = judge::SolverProcess::start(fake());
  judge::SolverReply r = solver.request({{"cmd", "exit0"}});
  EXPECT_EQ(r.failure, judge::SolverReply::Failure::died);
  EXPECT_TRUE(r.exited_normally) << r.death;
}

TEST(SolverProcess, ClosedChannelEndsTheSolverWithinSeconds) {
  auto solver = judge::SolverProcess::start(fake());
  const int pid = solver.pid();
  auto t0 = std::chrono::steady_clock::now();
  judge::SolverReply r = solver.request({{"cmd", "hang_up"}});
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.failure, judge::SolverReply::Failure::died);
  EXPECT_NE(r.death.find("SIGKILL"), std::string::npos) << r.death;
  EXPECT_LT(took, 10.0);
  EXPECT_NE(::kill(pid, 0), 0) << "nothing of it is left";
}

TEST(SolverProcess, ScratchDirectoryGoesWithIt) {
  std::string home;
  {
    auto solver = judge::SolverProcess::start(fake());
    judge::SolverReply r = solver.request({{"cmd", "whoami"}});
    home = r.body.value("cwd", "");
    ASSERT_FALSE(home.empty());
    EXPECT_TRUE(std::filesystem::is_directory(home));
  }
  EXPECT_FALSE(std::filesystem::exists(home));
}

TEST(SolverProcess, MissingExecutableIsNamed) {
  judge::SolverOptions o = fake();
  o.executable = "/nonexistent/judge-solver";
  try {
    judge::SolverProcess::start(o);
    FAIL() << "started a solver that does not exist";
  } catch (const judge::Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/judge-solver"), std::string::npos) << e.what();
  }
}

}  // namespace
