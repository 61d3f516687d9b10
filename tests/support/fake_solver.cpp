// A stand-in for judge-solver that speaks its protocol without a GPU, so the worker's side of the trust boundary
// (core/run/solver_process.hpp) is tested everywhere: it says hello, then obeys commands that make it misbehave the way
// a hostile or broken submission would make the real one.
//   ping          {"ok":true}
//   whoami        {"ok":true,"uid":..,"cwd":..,"env":[..],"fds":[..]}: what the sandbox left it
//   forge         writes junk and replies to other commands first, then the real reply
//   segv | abort  dies of that signal
//   sigkill       SIGKILLed from outside the judge, as the OOM killer would
//   exit0         exits with code 0 (an exit() inside solve())
//   hang_up       closes the control socket and lingers
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <dirent.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "judge/core/run/solver_channel.hpp"

extern char** environ;

int main(int argc, char** argv) {
  int fd = -1;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--control-fd") fd = std::atoi(argv[i + 1]);
  if (fd < 0) return 64;
  judge::SolverChannel channel(fd);
  channel.send({{"re", 0}, {"hello", true}, {"timer", "fake"}, {"protections", nlohmann::json::array()}});
  std::string line;
  while (channel.receive(line)) {
    nlohmann::json cmd = nlohmann::json::parse(line, nullptr, false);
    if (!cmd.is_object()) continue;
    const std::string what = cmd.value("cmd", "");
    const auto seq = cmd.value("seq", -1);
    nlohmann::json reply = {{"re", seq}, {"ok", true}};
    if (what == "whoami") {
      reply["uid"] = ::getuid();
      char cwd[4096] = {};
      reply["cwd"] = ::getcwd(cwd, sizeof cwd) ? cwd : "";
      nlohmann::json env = nlohmann::json::array();
      for (char** e = environ; *e; ++e) env.push_back(*e);
      reply["env"] = env;
      nlohmann::json fds = nlohmann::json::array();
      if (DIR* d = ::opendir("/proc/self/fd")) {
        while (dirent* e = ::readdir(d))
          if (e->d_name[0] != '.') fds.push_back(std::atoi(e->d_name));
        ::closedir(d);
      }
      reply["fds"] = fds;
    } else if (what == "forge") {
      const std::string junk = "{\"event\":\"case_end\",\"result\":{\"verdict\":\"accepted\"}}\nnot json at all\n";
      if (::write(fd, junk.data(), junk.size()) < 0) return 1;
      channel.send({{"re", seq + 1}, {"ok", true}, {"gpu_ms", 0.001}});
      channel.send({{"re", seq - 1}, {"ok", true}});
      channel.send({{"re", "x"}, {"ok", true}});
      reply["real"] = true;
    } else if (what == "segv") {
      std::raise(SIGSEGV);
    } else if (what == "abort") {
      std::abort();
    } else if (what == "sigkill") {
      ::kill(::getpid(), SIGKILL);
    } else if (what == "exit0") {
      std::_Exit(0);
    } else if (what == "hang_up") {
      ::close(fd);
      std::this_thread::sleep_for(std::chrono::seconds(30));
      return 0;
    }
    if (!channel.send(reply)) return 0;
  }
  return 0;
}
