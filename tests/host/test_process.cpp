#include "judge/core/sandbox/process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

// Every child here is /bin/sh running a one-line script, so the tests need no helper binaries. Timing checks leave
// seconds of slack: the machine running them may be small and busy.
namespace judge {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

SpawnOptions sh(const std::string& script) {
  SpawnOptions options;
  options.argv = {"/bin/sh", "-c", script};
  return options;
}

Clock::time_point in(Clock::duration d) { return Clock::now() + d; }

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Messages until the pipe closes; fails the test on a timeout.
std::vector<std::string> all_messages(ChildProcess& child, Clock::duration within = 20s) {
  std::vector<std::string> lines;
  std::string line;
  auto deadline = in(within);
  for (;;) {
    auto next = child.next_message(line, deadline);
    if (next == ChildProcess::Next::closed) return lines;
    if (next == ChildProcess::Next::timeout) {
      ADD_FAILURE() << "timed out waiting for messages";
      return lines;
    }
    lines.push_back(line);
  }
}

// The process no longer runs: it does not exist, or it is a zombie nobody reaps yet (an orphaned grandchild waits
// for the container's init, which may never reap it).
bool terminated(pid_t pid) {
  auto deadline = in(5s);
  for (;;) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string contents((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    auto close_paren = contents.rfind(')');
    if (close_paren != std::string::npos && close_paren + 2 < contents.size()) {
      char state = contents[close_paren + 2];
      if (state == 'Z' || state == 'X') return true;
    }
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(20ms);
  }
}

// Our own child is gone for good: reaped (no zombie left) and not running.
bool reaped(pid_t pid) {
  int status = 0;
  return ::waitpid(pid, &status, WNOHANG) == -1 && errno == ECHILD && ::kill(pid, 0) != 0 && errno == ESRCH;
}

// ----- exit status ------------------------------------------------------------------------------------------------

TEST(Process, ExitCodeIsCaptured) {
  auto child = ChildProcess::spawn(sh("exit 3"));
  ExitStatus status = child.wait(in(20s));
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, 3);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.describe(), "exit code 3");
}

TEST(Process, ZeroExitIsOk) {
  auto child = ChildProcess::spawn(sh("true"));
  EXPECT_TRUE(child.wait(in(20s)).ok());
}

TEST(Process, DeathBySignalIsDescribed) {
  testing::TempDir dir;  // where a core dump would land, if the system writes one
  auto options = sh("kill -SEGV $$");
  options.cwd = dir.path().string();
  auto child = ChildProcess::spawn(options);
  ExitStatus status = child.wait(in(20s));
  EXPECT_FALSE(status.exited);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.signal, SIGSEGV);
  EXPECT_EQ(status.describe(), "signal 11 (SIGSEGV: segmentation fault)");
}

TEST(Process, SignalNames) {
  EXPECT_EQ(describe_signal(SIGSEGV), "SIGSEGV (segmentation fault)");
  EXPECT_NE(describe_signal(SIGABRT).find("abort"), std::string::npos);
  EXPECT_NE(describe_signal(SIGKILL).find("killed"), std::string::npos);
  for (int s : {SIGFPE, SIGBUS, SIGILL, SIGTERM}) EXPECT_EQ(describe_signal(s).rfind("SIG", 0), 0u) << s;
  // Not in our table: the C library's words, still non-empty.
  EXPECT_FALSE(describe_signal(SIGRTMIN + 1).empty());
  EXPECT_EQ(ExitStatus{}.describe(), "unknown exit status");
}

// ----- output -----------------------------------------------------------------------------------------------------

TEST(Process, StdoutAndStderrAreMerged) {
  auto child = ChildProcess::spawn(sh("echo out; echo err >&2; echo again"));
  EXPECT_TRUE(child.wait(in(20s)).ok());
  EXPECT_EQ(child.output(), "out\nerr\nagain\n");
  EXPECT_EQ(child.output_dropped(), 0u);
}

TEST(Process, OutputBeyondTheLimitIsCountedAndDropped) {
  auto options = sh("head -c 5000000 /dev/zero; echo tail >&2");
  options.output_limit = 1000;
  auto start = Clock::now();
  auto child = ChildProcess::spawn(options);
  ExitStatus status = child.wait(in(60s));
  // The child finished by itself: we kept draining, so it never blocked on a full pipe.
  EXPECT_TRUE(status.ok()) << status.describe();
  EXPECT_LT(seconds_since(start), 30.0);
  EXPECT_EQ(child.output(), std::string(1000, '\0'));
  EXPECT_EQ(child.output_dropped(), 5000000u + 5u - 1000u);
}

TEST(Process, OutputIsDrainedWhileWaitingForMessages) {
  auto options = sh("head -c 3000000 /dev/zero; echo done >&3");
  options.output_limit = 10;
  auto child = ChildProcess::spawn(options);
  EXPECT_EQ(all_messages(child), std::vector<std::string>{"done"});
  EXPECT_TRUE(child.wait(in(20s)).ok());
  EXPECT_EQ(child.output().size(), 10u);
  EXPECT_EQ(child.output_dropped(), 3000000u - 10u);
}

TEST(Process, StdinIsEmpty) {
  auto child = ChildProcess::spawn(sh("cat; echo end"));
  EXPECT_TRUE(child.wait(in(20s)).ok());
  EXPECT_EQ(child.output(), "end\n");
}

// ----- messages ---------------------------------------------------------------------------------------------------

TEST(Process, MessagesArriveAsLines) {
  auto child = ChildProcess::spawn(sh("printf 'a\\nb\\n' >&3"));
  EXPECT_EQ(all_messages(child), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(child.wait(in(20s)).ok());
}

TEST(Process, LinesSplitAcrossWritesAreJoined) {
  auto child = ChildProcess::spawn(sh("printf 'ab' >&3; sleep 0.2; printf 'c\\n' >&3; printf 'd\\n\\ne\\n' >&3"));
  EXPECT_EQ(all_messages(child), (std::vector<std::string>{"abc", "d", "", "e"}));
  EXPECT_TRUE(child.wait(in(20s)).ok());
}

TEST(Process, UnterminatedLastLineIsDropped) {
  auto child = ChildProcess::spawn(sh("printf 'x\\npartial' >&3"));
  EXPECT_EQ(all_messages(child), std::vector<std::string>{"x"});
  EXPECT_TRUE(child.wait(in(20s)).ok());
}

TEST(Process, ManyMessagesKeepTheirOrder) {
  auto child = ChildProcess::spawn(sh("seq 1 100000 >&3"));
  auto lines = all_messages(child, 60s);
  ASSERT_EQ(lines.size(), 100000u);
  EXPECT_EQ(lines.front(), "1");
  EXPECT_EQ(lines[49999], "50000");
  EXPECT_EQ(lines.back(), "100000");
  EXPECT_TRUE(child.wait(in(20s)).ok());
}

TEST(Process, OverlongLineIsCutAt16MiB) {
  auto child = ChildProcess::spawn(sh("head -c 17000000 /dev/zero | tr '\\0' a >&3; echo >&3; echo ok >&3"));
  auto lines = all_messages(child, 60s);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].size(), 16u << 20);
  EXPECT_EQ(lines[1].size(), 17000000u - (16u << 20));
  EXPECT_EQ(lines[2], "ok");
  EXPECT_TRUE(child.wait(in(20s)).ok());
}

TEST(Process, ClosingTheMessagePipeEarlyIsClosed) {
  auto child = ChildProcess::spawn(sh("echo first >&3; exec 3>&-; sleep 0.3; echo still running"));
  EXPECT_EQ(all_messages(child), std::vector<std::string>{"first"});
  std::string line;
  EXPECT_EQ(child.next_message(line, in(1s)), ChildProcess::Next::closed);  // and stays closed
  EXPECT_TRUE(child.wait(in(20s)).ok());
  EXPECT_EQ(child.output(), "still running\n");
}

TEST(Process, ChildClosingEveryPipeDoesNotHurtUs) {
  auto child = ChildProcess::spawn(sh("exec 1>&- 2>&- 3>&-; sleep 0.2; exit 4"));
  EXPECT_TRUE(all_messages(child).empty());
  ExitStatus status = child.wait(in(20s));
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, 4);
}

TEST(Process, OtherMessageFdNumber) {
  auto options = sh("echo seven >&7; if { true >&3; } 2>/dev/null; then echo 3-open; fi");
  options.message_fd = 7;
  auto child = ChildProcess::spawn(options);
  EXPECT_EQ(all_messages(child), std::vector<std::string>{"seven"});
  EXPECT_TRUE(child.wait(in(20s)).ok());
  EXPECT_EQ(child.output(), "");
}

TEST(Process, MessageFdBelowThreeIsRefused) {
  auto options = sh("true");
  options.message_fd = 1;
  EXPECT_THROW(ChildProcess::spawn(options), ProcessError);
}

// ----- timeouts and killing ---------------------------------------------------------------------------------------

TEST(Process, HangTimesOutThenKillGroupReapsQuickly) {
  auto child = ChildProcess::spawn(sh("sleep 100"));
  std::string line;
  auto start = Clock::now();
  EXPECT_EQ(child.next_message(line, in(300ms)), ChildProcess::Next::timeout);
  double waited = seconds_since(start);
  EXPECT_GE(waited, 0.25);
  EXPECT_LT(waited, 5.0);

  start = Clock::now();
  child.kill_group();
  child.kill_group();  // harmless twice
  ExitStatus status = child.wait(in(30s));
  EXPECT_LT(seconds_since(start), 3.0);
  EXPECT_EQ(status.signal, SIGKILL);
  EXPECT_TRUE(reaped(child.pid()));
  child.kill_group();  // and after reaping
}

TEST(Process, PastDeadlineStillReturnsWhatIsThere) {
  auto child = ChildProcess::spawn(sh("echo ready >&3; sleep 100"));
  std::string line;
  ASSERT_EQ(child.next_message(line, in(20s)), ChildProcess::Next::line);
  EXPECT_EQ(line, "ready");
  EXPECT_EQ(child.next_message(line, Clock::now() - 1s), ChildProcess::Next::timeout);
}

TEST(Process, WaitKillsAtTheDeadline) {
  auto child = ChildProcess::spawn(sh("sleep 100"));
  auto start = Clock::now();
  ExitStatus status = child.wait(in(300ms));
  double waited = seconds_since(start);
  EXPECT_GE(waited, 0.25);
  EXPECT_LT(waited, 5.0);
  EXPECT_EQ(status.signal, SIGKILL);
  EXPECT_EQ(child.wait(in(1s)).signal, SIGKILL);  // the status is kept
}

TEST(Process, KillGroupTakesTheGrandchildrenToo) {
  auto child = ChildProcess::spawn(sh("sleep 100 & echo $! >&3; sleep 100"));
  std::string line;
  ASSERT_EQ(child.next_message(line, in(20s)), ChildProcess::Next::line);
  pid_t grandchild = std::stoi(line);
  EXPECT_EQ(::kill(grandchild, 0), 0);
  child.kill_group();
  auto start = Clock::now();
  EXPECT_EQ(child.wait(in(30s)).signal, SIGKILL);
  EXPECT_LT(seconds_since(start), 3.0);
  EXPECT_TRUE(terminated(grandchild));
}

TEST(Process, GrandchildHoldingThePipesDoesNotDelayWait) {
  // The child exits at once; its background grandchild still holds stdout, stderr and the message pipe.
  auto child = ChildProcess::spawn(sh("sleep 100 & echo $! >&3; echo bye; exit 5"));
  std::string line;
  ASSERT_EQ(child.next_message(line, in(20s)), ChildProcess::Next::line);
  pid_t grandchild = std::stoi(line);
  auto start = Clock::now();
  ExitStatus status = child.wait(in(30s));
  EXPECT_LT(seconds_since(start), 3.0);
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, 5);
  EXPECT_EQ(child.output(), "bye\n");
  EXPECT_TRUE(terminated(grandchild));
}

TEST(Process, DestructorKillsAndReapsARunningChild) {
  pid_t pid = -1;
  {
    auto child = ChildProcess::spawn(sh("sleep 100"));
    pid = child.pid();
    ASSERT_GT(pid, 0);
  }
  EXPECT_TRUE(reaped(pid));
}

// ----- starting ---------------------------------------------------------------------------------------------------

TEST(Process, MissingExecutableThrowsWithItsPath) {
  SpawnOptions options;
  options.argv = {"/nonexistent/judge-test-program"};
  try {
    ChildProcess::spawn(options);
    FAIL() << "spawn should have thrown";
  } catch (const ProcessError& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("/nonexistent/judge-test-program"), std::string::npos) << message;
    EXPECT_NE(message.find("No such file"), std::string::npos) << message;
  }
}

TEST(Process, NonExecutableFileThrows) {
  testing::TempDir dir;
  auto file = dir / "not-a-program";
  testing::write_file(file, "hello");
  SpawnOptions options;
  options.argv = {file.string()};
  try {
    ChildProcess::spawn(options);
    FAIL() << "spawn should have thrown";
  } catch (const ProcessError& e) {
    std::string message = e.what();
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
    EXPECT_NE(message.find("Permission denied"), std::string::npos) << message;
  }
}

TEST(Process, EmptyArgvThrows) { EXPECT_THROW(ChildProcess::spawn(SpawnOptions{}), ProcessError); }

TEST(Process, EnvironmentAndWorkingDirectoryAreHonoured) {
  testing::TempDir dir;
  ::setenv("JUDGE_TEST_INHERITED", "inherited", 1);
  ::setenv("JUDGE_TEST_OVERRIDDEN", "old", 1);
  auto options = sh("echo \"$JUDGE_TEST_ADDED $JUDGE_TEST_INHERITED $JUDGE_TEST_OVERRIDDEN\"; pwd -P");
  options.env = {{"JUDGE_TEST_ADDED", "added"}, {"JUDGE_TEST_OVERRIDDEN", "new"}};
  options.cwd = dir.path().string();
  auto child = ChildProcess::spawn(options);
  EXPECT_TRUE(child.wait(in(20s)).ok());
  EXPECT_EQ(child.output(), "added inherited new\n" + std::filesystem::canonical(dir.path()).string() + "\n");
  ::unsetenv("JUDGE_TEST_INHERITED");
  ::unsetenv("JUDGE_TEST_OVERRIDDEN");
}

// A child that runs or compiles a submission is the OOM killer's first choice and writes no core file; others
// inherit ours.
TEST(Process, ExpendableChildIsTheOomKillersFirstChoiceAndDumpsNoCore) {
  std::ifstream own("/proc/self/oom_score_adj");
  int ours = 0;
  if (!(own >> ours)) GTEST_SKIP() << "no /proc/self/oom_score_adj here";
  struct rlimit core = {};
  ASSERT_EQ(::getrlimit(RLIMIT_CORE, &core), 0);
  if (ours == 1000 && core.rlim_cur == 0) GTEST_SKIP() << "this test runs expendable itself: it would prove nothing";
  auto options = sh("cat /proc/self/oom_score_adj; ulimit -c");
  options.setup.expendable = true;
  auto child = ChildProcess::spawn(options);
  EXPECT_TRUE(child.wait(in(20s)).ok());
  EXPECT_EQ(child.output(), "1000\n0\n");

  auto plain = ChildProcess::spawn(sh("cat /proc/self/oom_score_adj"));
  EXPECT_TRUE(plain.wait(in(20s)).ok());
  EXPECT_EQ(plain.output(), std::to_string(ours) + "\n") << "only the children asked for are expendable";
}

TEST(Process, MissingWorkingDirectoryThrows) {
  auto options = sh("true");
  options.cwd = "/nonexistent/judge-test-dir";
  try {
    ChildProcess::spawn(options);
    FAIL() << "spawn should have thrown";
  } catch (const ProcessError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/judge-test-dir"), std::string::npos) << e.what();
  }
}

TEST(Process, OurDescriptorsDoNotLeakIntoTheChild) {
  // Deliberately without close-on-exec, and numbered clear of 0-3 (ours) and 10 (which dash uses for itself).
  int null = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(null, 0);
  int leaky = ::fcntl(null, F_DUPFD, 40);
  ::close(null);
  ASSERT_GE(leaky, 40);
  auto fd = std::to_string(leaky);
  auto child = ChildProcess::spawn(sh("if [ -e /proc/$$/fd/" + fd + " ]; then echo leaked; else echo clean; fi"));
  EXPECT_TRUE(child.wait(in(20s)).ok());
  EXPECT_EQ(child.output(), "clean\n");
  ::close(leaky);
}

TEST(Process, ChildSignalsAreReset) {
  // The judge may ignore SIGPIPE or SIGINT; its child must not inherit that.
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &previous);
  auto child = ChildProcess::spawn(sh("kill -INT $$; sleep 5"));
  ExitStatus status = child.wait(in(20s));
  ::sigaction(SIGINT, &previous, nullptr);
  EXPECT_EQ(status.signal, SIGINT) << status.describe();
}

// ----- ownership --------------------------------------------------------------------------------------------------

TEST(Process, MoveLeavesTheSourceEmpty) {
  auto a = ChildProcess::spawn(sh("echo hi >&3; echo out"));
  pid_t pid = a.pid();
  ChildProcess b(std::move(a));
  EXPECT_EQ(a.pid(), -1);
  EXPECT_EQ(b.pid(), pid);
  std::string line;
  EXPECT_EQ(a.next_message(line, in(1s)), ChildProcess::Next::closed);
  EXPECT_EQ(all_messages(b), std::vector<std::string>{"hi"});

  auto c = ChildProcess::spawn(sh("sleep 100"));
  pid_t sleeper = c.pid();
  c = std::move(b);  // the sleeper is killed and reaped on the way
  EXPECT_TRUE(reaped(sleeper));
  EXPECT_EQ(b.pid(), -1);
  EXPECT_EQ(c.pid(), pid);
  EXPECT_TRUE(c.wait(in(20s)).ok());
  EXPECT_EQ(c.output(), "out\n");
  a.kill_group();  // empty objects tolerate everything
  EXPECT_FALSE(a.wait(in(1s)).ok());
}

// A judge killed outright (SIGKILL, so no destructor runs) takes its worker with it: an orphan would go on running
// a hung solve() and holding the GPU and its timing lock.
// Spawns `options` from a forked stand-in for the judge, which then dies by SIGKILL (so no destructor runs), and
// says whether the child it left ended too (it is killed here if not).
bool child_dies_with_its_judge(const SpawnOptions& options, pid_t& child_pid) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  pid_t judge_pid = ::fork();
  if (judge_pid == 0) {
    ::close(fds[0]);
    ChildProcess child = ChildProcess::spawn(options);
    int pid = child.pid();
    if (::write(fds[1], &pid, sizeof pid) != sizeof pid) ::_exit(2);
    ::raise(SIGKILL);
  }
  ::close(fds[1]);
  int worker = 0;
  bool got = ::read(fds[0], &worker, sizeof worker) == static_cast<ssize_t>(sizeof worker);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(judge_pid, &status, 0);
  EXPECT_TRUE(got && WIFSIGNALED(status)) << "the stand-in judge did not spawn and die as planned";
  child_pid = worker;
  if (!got) return false;
  bool gone = terminated(worker);
  if (!gone) ::kill(worker, SIGKILL);
  return gone;
}

// A judge killed outright (SIGKILL, so no destructor runs) takes its worker with it: an orphan would go on running
// a hung solve() and holding the GPU and its timing lock.
TEST(ChildProcess, DiesWithTheJudgeThatStartedIt) {
  pid_t worker = 0;
  EXPECT_TRUE(child_dies_with_its_judge(sh("sleep 60"), worker))
      << "the child " << worker << " outlived the process that spawned it";
}

// ChildSetup: what a sandbox asks of the child between fork and exec.

TEST(ProcessSetup, KeptDescriptorsArriveAtTheirNumbers) {
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  SpawnOptions o = sh("echo through-seven >&7; test -e /proc/self/fd/8 && echo leaked || echo closed");
  o.setup.keep_fds = {{fds[1], 7}};
  Captured c = run_captured(o, 20s);
  ::close(fds[1]);
  char buffer[64] = {0};
  ASSERT_GT(::read(fds[0], buffer, sizeof buffer - 1), 0);
  ::close(fds[0]);
  EXPECT_EQ(std::string(buffer), "through-seven\n");
  EXPECT_TRUE(c.status.ok()) << c.output;
  EXPECT_NE(c.output.find("closed"), std::string::npos) << c.output;
}

TEST(ProcessSetup, KeptDescriptorNumbersAreChecked) {
  SpawnOptions o = sh("true");
  o.setup.keep_fds = {{0, 2}};
  EXPECT_THROW(run_captured(o, 20s), ProcessError);
  o.setup.keep_fds = {{0, o.message_fd}};
  EXPECT_THROW(run_captured(o, 20s), ProcessError);
}

TEST(ProcessSetup, CompleteEnvironmentReplacesTheJudges) {
  ::setenv("JUDGE_TEST_INHERITED", "secret", 1);
  SpawnOptions o = sh("env");
  o.env = {{"ONLY", "this"}};
  o.env_is_complete = true;
  Captured c = run_captured(o, 20s);
  ::unsetenv("JUDGE_TEST_INHERITED");
  EXPECT_NE(c.output.find("ONLY=this"), std::string::npos) << c.output;
  EXPECT_EQ(c.output.find("JUDGE_TEST_INHERITED"), std::string::npos) << c.output;
  EXPECT_EQ(c.output.find("HOME="), std::string::npos) << c.output;
}

// /proc/<pid>/stat: pid (comm) state ppid pgrp session ...
std::vector<std::string> own_stat_fields(const SpawnOptions& base) {
  SpawnOptions o = base;
  o.argv = {"/bin/sh", "-c", "cat /proc/$$/stat"};
  Captured c = run_captured(o, 20s);
  std::string text = c.output.substr(c.output.rfind(')') + 2);
  std::istringstream in(text);
  std::vector<std::string> fields = {c.output.substr(0, c.output.find(' ')), "comm"};
  for (std::string f; in >> f;) fields.push_back(f);
  return fields;
}

TEST(ProcessSetup, NewSessionLeadsItsOwnSessionAndGroup) {
  SpawnOptions o;
  o.setup.new_session = true;
  auto f = own_stat_fields(o);
  ASSERT_GT(f.size(), 5u);
  EXPECT_EQ(f[4], f[0]) << "process group";
  EXPECT_EQ(f[5], f[0]) << "session";
  auto plain = own_stat_fields(SpawnOptions{});
  ASSERT_GT(plain.size(), 5u);
  EXPECT_EQ(plain[4], plain[0]) << "a group of its own, as always";
  EXPECT_NE(plain[5], plain[0]) << "but the judge's session";
}

TEST(ProcessSetup, NoNewPrivs) {
  SpawnOptions o = sh("grep NoNewPrivs /proc/$$/status");
  o.setup.no_new_privs = true;
  EXPECT_NE(run_captured(o, 20s).output.find("NoNewPrivs:\t1"), std::string::npos);
  EXPECT_NE(run_captured(sh("grep NoNewPrivs /proc/$$/status"), 20s).output.find("NoNewPrivs:\t0"),
            std::string::npos);
}

TEST(ProcessSetup, CredentialsAreDroppedBeforeExecAndTheParentsDeathStillKills) {
  if (::geteuid() != 0) GTEST_SKIP() << "not root: only root can switch the child to another uid";
  SpawnOptions o = sh("id -u; id -g; id -G; grep -o 'NoNewPrivs.*' /proc/$$/status; "
                      "cat /proc/$$/status | grep -i '^CapEff'");
  o.setup.credentials = Credentials{65534, 65534};
  Captured c = run_captured(o, 20s);
  EXPECT_TRUE(c.status.ok()) << c.output;
  EXPECT_EQ(c.output.rfind("65534\n65534\n65534\n", 0), 0u) << c.output;
  EXPECT_NE(c.output.find("CapEff:\t0000000000000000"), std::string::npos) << c.output;

  // A change of uid clears PR_SET_PDEATHSIG: it is set after it, so a judge killed outright still takes the child.
  SpawnOptions sleeper = sh("sleep 60");
  sleeper.setup.credentials = Credentials{65534, 65534};
  pid_t worker = 0;
  EXPECT_TRUE(child_dies_with_its_judge(sleeper, worker))
      << "the child " << worker << " (uid 65534) outlived the process that spawned it";
}

}  // namespace
}  // namespace judge
