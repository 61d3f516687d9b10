#!/usr/bin/env bash
# `judge report` as a user sees it: a fixture database (tests/report/report_fixture.cpp) becomes a page, headless
# Chromium loads it, and the DOM it built must hold what the database holds: a ranking per challenge and GPU, a cases
# table per run, one point per benchmark case with the reference beside it, the axis labels, the roofs where the GPU
# was calibrated, and a user named like a script as text. A screenshot is kept as an artefact. Needs no GPU; needs
# Chromium, which scripts/test.sh installs (scripts/deps.sh); without it this test fails, it does not skip.
#
# usage: test_report_chromium.sh JUDGE REPORT_FIXTURE CHALLENGES_DIR ARTEFACTS_DIR
set -euo pipefail
judge=$1 fixture=$2 challenges=$3 artefacts=$4

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

browser=${JUDGE_CHROMIUM:-}
if [ -z "$browser" ]; then
  for candidate in chromium chromium-browser google-chrome-stable google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
      browser=$candidate
      break
    fi
  done
fi
if [ -z "$browser" ]; then
  how="Install it with
  apt-get install chromium        (Debian; scripts/test.sh does this through scripts/deps.sh)
or point JUDGE_CHROMIUM at a Chromium or Chrome executable."
  # CI must run this test: there a missing browser is a failure. Elsewhere (a lent GPU machine with no network to
  # install it from) the test reports itself as skipped (ctest's SKIP_RETURN_CODE), never as passed.
  [ "${CI:-}" = "true" ] && fail "headless Chromium is needed to check the report page and none was found. $how"
  echo "SKIPPED: no headless Chromium here to load the report page. $how" >&2
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Nothing from the user's own judge setup (saved results under the cache, another database) may reach the page.
export HOME=$work/home XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache JUDGE_CACHE_DIR=$work/judge-cache
unset JUDGE_DB JUDGE_CALIBRATION XDG_DATA_HOME

summary=$("$fixture" "$challenges" "$work/data") || fail "the fixture program failed"
cases=0 plotted=0 references=0 runs=0 boards=0
eval "$summary"  # cases=.. plotted=.. references=.. runs=.. boards=.. (printed by our own fixture)
[ "$runs" -gt 0 ] && [ "$plotted" -gt 0 ] || fail "the fixture wrote nothing: $summary"

page=$work/report.html
"$judge" --color never --challenges "$challenges" report --db "$work/data/leaderboard.sqlite" \
  --calibration "$work/data/calibration.json" -o "$page" || fail "judge report failed"

# Chromium as root in a container: no sandbox; a small /dev/shm; no GPU. Each run is bounded.
run_browser() {
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --no-default-browser-check --user-data-dir="$work/profile" "$@" 2>>"$work/chromium.log"
}
dom=$(run_browser --dump-dom "file://$page") ||
  fail "$browser could not load the page: $(tail -n 5 "$work/chromium.log")"
[ -n "$dom" ] || fail "$browser returned an empty DOM: $(tail -n 5 "$work/chromium.log")"
printf '%s\n' "$dom" >"$work/dom.html"

count() { { grep -o -F -- "$1" "$work/dom.html" || true; } | wc -l | tr -d ' '; }
expect_count() {  # what, expected, needle
  local n
  n=$(count "$3")
  [ "$n" = "$2" ] || fail "$1: expected $2, the page has $n ($3)"
  echo "ok: $1: $n"
}
expect_count "ranking tables (one per challenge and GPU)" "$boards" '<table class="ranking">'
expect_count "history charts (one per challenge and GPU)" "$boards" '<figure class="history">'
expect_count "cases tables (one per run)" "$runs" '<table class="cases">'
expect_count "case rows (one per stored benchmark case)" "$cases" '<tr data-case="'
expect_count "case points (one per stored benchmark case with flops)" "$plotted" '<circle class="case-point"'
expect_count "reference points (one per case with a timed reference)" "$references" '<polygon class="reference-point"'
expect_count "x-axis labels of the rooflines" "$runs" '>arithmetic intensity (FLOP/byte)</text>'
expect_count "y-axis labels of the rooflines" "$runs" '>achieved rate (FLOP/s)</text>'
expect_count "x-axis labels of the history charts" "$boards" '>recorded (UTC)</text>'
expect_some() {  # what, needle
  [ "$(count "$2")" -gt 0 ] || fail "$1: the page does not have $2"
  echo "ok: $1"
}
expect_some "the FP32 FMA roof on the calibrated GPU's rooflines" '>FP32 FMA 60.5 TFLOP/s</text>'
expect_some "the copy-bandwidth roof on the calibrated GPU's rooflines" '>copy 2.95 TB/s</text>'
expect_count "notes saying why the uncalibrated GPU has no roofs" 1 'No roofs: no calibration of NVIDIA A100-SXM4-40GB'
expect_count "script elements (a user name was not escaped)" 0 '<script'
expect_some "the user named <script>alert(1)</script>, as text" '&lt;script&gt;alert(1)&lt;/script&gt;'

mkdir -p "$artefacts"
shot=$artefacts/report.png
rm -f "$shot"
run_browser --hide-scrollbars --window-size=1280,2000 --screenshot="$shot" "file://$page" >/dev/null ||
  fail "$browser could not take a screenshot: $(tail -n 5 "$work/chromium.log")"
[ -f "$shot" ] || fail "no screenshot at $shot"
[ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$shot is not a PNG"
size=$(wc -c <"$shot" | tr -d ' ')
[ "$size" -gt 40000 ] || fail "$shot is only $size bytes: the page looks blank"
cp "$page" "$artefacts/report.html"
echo "ok: screenshot $shot ($size bytes) and the page $artefacts/report.html kept"
