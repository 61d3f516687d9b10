#!/usr/bin/env bash
# Makes sure the build dependencies are present; installs what is missing from the distribution's packages
# (Debian/Ubuntu), skipping what is already there. The CUDA Toolkit itself is not an apt package here: it must be
# installed (nvcc on PATH or in /usr/local/cuda).
# Extra CMake arguments may come in JUDGE_CMAKE_ARGS, e.g. -DSQLite3_INCLUDE_DIR=... for a header outside /usr/include.
# libpq-dev is a build dependency: with it the leaderboard can live in a PostgreSQL database (--db postgresql://...).
# With JUDGE_TEST_DEPS=1 (scripts/test.sh) it also installs what the tests need beyond the build: headless Chromium,
# which loads the `judge report` page (tests/report/test_report_chromium.sh; JUDGE_CHROMIUM names another browser),
# bubblewrap, Slurm with munge (slurmctld slurmd slurm-client munge) for the `judge batch --slurm` test, and
# PostgreSQL's server, which the leaderboard tests start a throwaway instance of (initdb, pg_ctl), and python3 for the
# host test of bench/references/profile_table.py.
set -euo pipefail

if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

missing=()
have_header() {  # header, then extra include dirs from JUDGE_CMAKE_ARGS
  local h=$1 dir
  for dir in /usr/include /usr/local/include $(printf '%s\n' ${JUDGE_CMAKE_ARGS:-} | sed -n 's/^-D[A-Za-z0-9_]*INCLUDE_DIR[A-Za-z]*=//p'); do
    [ -f "$dir/$h" ] && return 0
  done
  return 1
}
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
have_header CLI/CLI.hpp || missing+=(libcli11-dev)
have_header fmt/format.h || missing+=(libfmt-dev)
have_header nlohmann/json.hpp || missing+=(nlohmann-json3-dev)
have_header sqlite3.h || missing+=(libsqlite3-dev)
have_header gtest/gtest.h || missing+=(libgtest-dev libgmock-dev)
have_header postgresql/libpq-fe.h || have_header libpq-fe.h || missing+=(libpq-dev)
# The tests' throwaway PostgreSQL (tests/support/postgres_server.cpp); without it those tests fail, saying so.
have_postgres_server() {
  [ -n "${JUDGE_POSTGRES_BIN:-}" ] && [ -x "$JUDGE_POSTGRES_BIN/initdb" ] && return 0
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null && return 0
  command -v initdb >/dev/null 2>&1
}
if [ "${JUDGE_TEST_DEPS:-0}" = 1 ] && ! have_postgres_server; then missing+=(postgresql); fi
# bench/references/profile_table.py's host test (bench_profile_table).
if [ "${JUDGE_TEST_DEPS:-0}" = 1 ] && ! command -v python3 >/dev/null 2>&1; then missing+=(python3); fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "deps: missing packages: ${missing[*]}; install them (apt-get install ${missing[*]}) and run again" >&2
    exit 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: missing packages: ${missing[*]}, and this system has no apt-get: install their equivalents" >&2
    exit 1
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Only the tests need Chromium, and some distributions have no package of it (Ubuntu's is a snap), so failing to
# install it is a warning here; the report's browser test then fails and says how to provide one.
have_browser() {
  local b
  [ -n "${JUDGE_CHROMIUM:-}" ] && return 0
  for b in chromium chromium-browser google-chrome-stable google-chrome; do
    command -v "$b" >/dev/null 2>&1 && return 0
  done
  return 1
}
if [ "${JUDGE_TEST_DEPS:-0}" = 1 ] && ! have_browser; then
  echo "deps: installing chromium (headless, for the test of the \`judge report\` page)"
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  if ! { command -v apt-get >/dev/null 2>&1 && $sudo apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium; }; then
    echo "deps: warning: could not install chromium; the report_chromium test will fail until Chromium or Chrome is" \
         "installed (or JUDGE_CHROMIUM names one)" >&2
  fi
fi

# bubblewrap: the compile sandbox's second choice where the kernel has no Landlock, and the sandbox tests run it
# (test_bwrap, test_confine); the judge itself works without it and says so (judge doctor).
if [ "${JUDGE_TEST_DEPS:-0}" = 1 ] && ! command -v bwrap >/dev/null 2>&1; then
  echo "deps: installing bubblewrap (the sandbox tests run it)"
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  if ! { command -v apt-get >/dev/null 2>&1 && $sudo apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends bubblewrap; }; then
    echo "deps: warning: could not install bubblewrap; the tests that run it will say so and skip" >&2
  fi
fi

# A real single-node Slurm for the `judge batch --slurm` test (tests/slurm/test_slurm_batch.sh starts it from a
# script, without systemd): the controller, the node daemon, the client tools and munge. Debian starts none of them
# when they are installed in a container (no init); the test never uses a system instance anyway.
if [ "${JUDGE_TEST_DEPS:-0}" = 1 ]; then
  slurm_missing=()
  for pair in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge; do
    tool=${pair%%:*}
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || slurm_missing+=("${pair#*:}")
  done
  if [ ${#slurm_missing[@]} -gt 0 ]; then
    echo "deps: installing ${slurm_missing[*]} (the Slurm batch test runs a single-node cluster)"
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    if ! { command -v apt-get >/dev/null 2>&1 && $sudo apt-get update -qq &&
           DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${slurm_missing[@]}"; }; then
      echo "deps: warning: could not install ${slurm_missing[*]}; the slurm_batch test will fail until they are" \
           "installed" >&2
    fi
  fi
fi

if ! command -v nvcc >/dev/null 2>&1; then
  echo "deps: nvcc not found: install the CUDA Toolkit (12.x or 13.x) and put its bin/ on PATH" >&2
  exit 1
fi
