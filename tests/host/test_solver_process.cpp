// The worker's side of the trust boundary (judge/core/run/solver_process.hpp), against a fake solver that misbehaves on
// command (tests/support/fake_solver.cpp): replies that are not the awaited one are ignored, a death is reported
// with its cause, the solver is stopped between commands, and it starts with nothing of the judge's.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <sstream>
#include <string>

#include <fcntl.h>
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

// The executable's descriptor and the socket's are opened where they fall: with 3 free the executable gets 3, which
// the child's move of the socket onto 3 used to replace (the solver then failed to start with EACCES).
TEST(SolverProcess, StartsWhenDescriptorThreeIsFree) {
  const int saved = ::fcntl(3, F_DUPFD_CLOEXEC, 100);  // whatever the test runner left on 3, put back below
  ::close(3);
  int lowest = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  ::close(lowest);
  std::string error;
  try {
    auto solver = judge::SolverProcess::start(fake());
    EXPECT_TRUE(solver.request({{"cmd", "ping"}}).ok);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (saved >= 0) {
    ::dup2(saved, 3);
    ::close(saved);
  }
  EXPECT_EQ(error, "");
  EXPECT_EQ(lowest, 3) << "3 was not the lowest free descriptor: this run proves nothing";
}

// A host-memory bomb in solve() is the OOM killer's first victim, not the judge; a crash writes no core file.
TEST(SolverProcess, IsTheOomKillersFirstChoiceAndDumpsNoCore) {
  auto solver = judge::SolverProcess::start(fake());
  const std::string proc = "/proc/" + std::to_string(solver.pid());
  std::ifstream score(proc + "/oom_score_adj");
  int adj = 0;
  if (!(score >> adj)) GTEST_SKIP() << "no " << proc << "/oom_score_adj here";
  EXPECT_EQ(adj, 1000);
  std::ifstream limits(proc + "/limits");
  std::string line, core;
  while (std::getline(limits, line))
    if (line.rfind("Max core file size", 0) == 0) core = line;
  ASSERT_FALSE(core.empty()) << "no core line in " << proc << "/limits";
  std::istringstream fields(core.substr(std::string("Max core file size").size()));
  std::string soft, hard;
  fields >> soft >> hard;
  EXPECT_EQ(soft, "0") << core;
  EXPECT_EQ(hard, "0") << core;
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

// A SIGKILL the worker did not send: the message says what sends one (the OOM killer, which takes the solver first)
// and what to look for in solve(); one the worker sent says why it did.
TEST(SolverProcess, SigkillFromOutsidePointsAtHostMemory) {
  auto solver = judge::SolverProcess::start(fake());
  judge::SolverReply r = solver.request({{"cmd", "sigkill"}});
  EXPECT_EQ(r.failure, judge::SolverReply::Failure::died);
  EXPECT_NE(r.death.find("SIGKILL"), std::string::npos) << r.death;
  EXPECT_NE(r.hint.find("OOM killer"), std::string::npos) << r.hint;
  EXPECT_NE(r.hint.find("host memory"), std::string::npos) << r.hint;
}

TEST(SolverProcess, DeathHints) {
  EXPECT_EQ(judge::death_hint(0, false), "did solve() call exit()?");  // exit code 0
  EXPECT_EQ(judge::death_hint(3 << 8, false), "");                      // exit code 3 says it all
  EXPECT_EQ(judge::death_hint(SIGSEGV, false), "");
  EXPECT_NE(judge::death_hint(SIGKILL, false).find("OOM killer"), std::string::npos);
  EXPECT_EQ(judge::death_hint(SIGKILL, true).find("OOM killer"), std::string::npos);
  EXPECT_NE(judge::death_hint(SIGSYS, false).find("another architecture"), std::string::npos);
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
  EXPECT_EQ(r.hint, "did solve() call exit()?");
}

TEST(SolverProcess, ClosedChannelEndsTheSolverWithinSeconds) {
  auto solver = judge::SolverProcess::start(fake());
  const int pid = solver.pid();
  auto t0 = std::chrono::steady_clock::now();
  judge::SolverReply r = solver.request({{"cmd", "hang_up"}});
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.failure, judge::SolverReply::Failure::died);
  EXPECT_NE(r.death.find("SIGKILL"), std::string::npos) << r.death;
  EXPECT_NE(r.hint.find("the worker killed it"), std::string::npos) << r.hint;
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
