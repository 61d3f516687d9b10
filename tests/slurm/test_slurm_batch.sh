#!/usr/bin/env bash
# `judge batch --slurm` on a real single-node Slurm (scripts/slurm-test-cluster.sh: munged, slurmctld and slurmd with
# two fake GPUs, in a temporary directory, torn down on any exit). The tasks take the judge's no-GPU path (each
# submission compiled with nvcc, then `no_device`), which is enough to check what is Slurm's part: sharding (each
# submission judged once, by the task the manifest gives it), staging (the challenge and the submissions copied; a
# stage the node cannot see is a clear error), progress (each task queued, running, done; verdicts as they land),
# --no-wait with --status, a task killed with scancel mid-shard (its submissions not judged, never a verdict) and
# --resume (exactly those judged, once). Needs Debian's slurmctld slurmd slurm-client munge: without them this test
# fails and says how to install them (scripts/test.sh does, through scripts/deps.sh); it never passes without them.
#
# usage: test_slurm_batch.sh JUDGE SOURCE_DIR
set -euo pipefail
judge=$1 root=$2

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
check() {  # what, file, fixed string expected in it
  grep -qF -- "$3" "$2" || { cat "$2" >&2; fail "$1: '$3' not in the output above"; }
}

missing=()
for tool in munged slurmctld slurmd sbatch scontrol scancel sinfo; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] || fail "${missing[*]} not found: this test needs a real Slurm. Install it with
  apt-get install slurmctld slurmd slurm-client munge     (Debian; scripts/test.sh does this through scripts/deps.sh)"

work=$(mktemp -d)
chmod 755 "$work"
cluster=$work/cluster
cleanup() {
  "$root/scripts/slurm-test-cluster.sh" stop "$cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT
started=$SECONDS
eval "$("$root/scripts/slurm-test-cluster.sh" start "$cluster")" || fail "the test cluster did not start"
echo "cluster up in $((SECONDS - started)) s"

# Nothing of the user's own judge setup; one build cache for every task (the second batch builds nothing).
export HOME=$work/home JUDGE_CACHE_DIR=$work/cache
unset JUDGE_DB JUDGE_SLURM_STAGE JUDGE_TEST_SLURM_TASK_DELAY_S
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
j() { "$judge" --color never --challenges "$root/challenges" "$@"; }

stage=$work/stage subs=$work/subs
mkdir -p "$stage" "$subs" "$HOME"
cp "$root/submissions/vector_add/1_naive.cu" "$subs/a.cu"
cp "$root/submissions/vector_add/2_float4.cu" "$subs/b.cu"
printf 'extern "C" void solve(const float* A, const float* B, float* C, int N) { this does not compile }\n' \
  >"$subs/c.cu"
db=$stage/leaderboard.sqlite

# --- Bad input, said before anything is submitted.
set +e
PATH=/nonexistent j batch vector_add "$subs" --slurm --stage "$stage" >"$work/notools.out" 2>&1
rc=$?
j batch vector_add "$subs" --slurm --stage "$stage" --partition nope --db "$db" >"$work/partition.out" 2>&1
rc2=$?
set -e
[ $rc = 2 ] || fail "without Slurm's tools: exit $rc, not 2"
check "without Slurm's tools" "$work/notools.out" "Slurm's command-line tools are not installed or not on PATH"
[ $rc2 = 2 ] || fail "an unknown partition: exit $rc2, not 2"
check "an unknown partition" "$work/partition.out" "invalid partition specified: nope"

# --- Sharding, staging, progress, summary: 3 submissions over 2 tasks, followed to the end.
set +e
j batch vector_add "$subs" --slurm --stage "$stage" --tasks 2 --db "$db" >"$work/first.out" 2>&1
rc=$?
set -e
cat "$work/first.out"
[ $rc = 1 ] || fail "the first batch: exit $rc, not 1 (nothing can be accepted without a GPU)"
job=$(sed -n 's/^Slurm job \([0-9]*\): 3 submission(s) in 2 task(s).*/\1/p' "$work/first.out")
[ -n "$job" ] || fail "no 'Slurm job N: 3 submission(s) in 2 task(s)' line"
for t in 0 1; do
  check "progress" "$work/first.out" "task $t of job $job: running on"
  check "progress" "$work/first.out" "task $t of job $job: done"
done
check "verdicts as they land" "$work/first.out" "/3] a "
grep -qE '^\[[0-9]/3\] a +no_device +- +task 0 on ' "$work/first.out" || fail "a: not no_device by task 0"
grep -qE '^\[[0-9]/3\] b +no_device +- +task 1 on ' "$work/first.out" || fail "b: not no_device by task 1"
grep -qE '^\[[0-9]/3\] c +compile_error +- +task 0 on ' "$work/first.out" || fail "c: not compile_error by task 0"
check "summary" "$work/first.out" "vector_add on Slurm (job $job, 2 task(s)): 3 submissions, 0 accepted"
check "summary" "$work/first.out" "leaderboard: $db"
batch=$(cat "$stage/jobs/$job")
[ -f "$batch/challenges/vector_add/spec.json" ] || fail "the challenge was not staged in $batch"
for i in 0 1 2; do
  name=$(printf 'a\nb\nc\n' | sed -n "$((i + 1))p")
  cmp -s "$subs/$name.cu" "$batch/submissions/$i/$name.cu" || fail "$name.cu was not staged as submissions/$i"
done
judged=$(cat "$batch"/logs/"$job"-*.log | grep -c '^judge: judged ' || true)
[ "$judged" = 3 ] || fail "$judged judgings in the tasks' logs, not 3"
grep -q '^judge: judged a (0)' "$batch/logs/$job-0.log" && grep -q '^judge: judged c (2)' "$batch/logs/$job-0.log" &&
  grep -q '^judge: judged b (1)' "$batch/logs/$job-1.log" || fail "the shards are not 0,2 and 1"

# --- --no-wait, then a task cancelled mid-shard, --status, --resume. Each run is held 4 s once marked judging
# (a test hook), so task 1 (b alone) is surely judging when it is cancelled, and task 0 still running.
JUDGE_TEST_SLURM_TASK_DELAY_S=4 j batch vector_add "$subs" --slurm --stage "$stage" --tasks 2 --db "$db" \
  --no-wait >"$work/nowait.out" 2>&1 || { cat "$work/nowait.out"; fail "--no-wait failed"; }
cat "$work/nowait.out"
job2=$(sed -n 's/^submitted Slurm job \([0-9]*\):.*/\1/p' "$work/nowait.out")
[ -n "$job2" ] || fail "--no-wait printed no job id"
check "--no-wait" "$work/nowait.out" "judge batch --status $job2"
batch2=$(cat "$stage/jobs/$job2")
for _ in $(seq 150); do
  grep -q '"state": "judging"' "$batch2/state/1.json" 2>/dev/null && break
  sleep 0.2
done
grep -q '"state": "judging"' "$batch2/state/1.json" || fail "b was never judging: $(cat "$batch2/state/1.json")"
scancel "${job2}_1"
echo "cancelled task 1 of job $job2 while it judged b"
j batch --status "$job2" >"$work/status-early.out" 2>&1 || true
cat "$work/status-early.out"
check "--status while running" "$work/status-early.out" "(still running)"
for _ in $(seq 60); do
  j batch --status "$job2" >"$work/status.out" 2>&1 || true
  grep -qF "(still running)" "$work/status.out" || break
  sleep 1
done
cat "$work/status.out"
check "--status at the end" "$work/status.out" "task 1 of job $job2: ended CANCELLED (scancel)"
check "--status at the end" "$work/status.out" "task 0 of job $job2: done"
grep -qE '^b +not judged +- +task 1 of job '"$job2"' ended CANCELLED \(scancel\)' "$work/status.out" ||
  fail "b is not 'not judged' with its task's end"
grep -qE '^a +no_device ' "$work/status.out" && grep -qE '^c +compile_error ' "$work/status.out" ||
  fail "a and c were not judged by task 0"
check "--status at the end" "$work/status.out" "1 not judged (an infrastructure error, never a verdict)"
check "--status at the end" "$work/status.out" "judge batch --resume $job2"

set +e
j batch --resume "$job2" >"$work/resume.out" 2>&1
rc=$?
set -e
cat "$work/resume.out"
[ $rc = 1 ] || fail "--resume: exit $rc, not 1"
job3=$(sed -n 's/^Slurm job \([0-9]*\): 1 submission(s) in 1 task(s).*/\1/p' "$work/resume.out")
[ -n "$job3" ] || fail "--resume did not submit one task for the one submission not judged"
grep -qE '^\[1/1\] b +no_device +- +task 0 on ' "$work/resume.out" || fail "--resume did not judge b"
check "--resume" "$work/resume.out" "vector_add on Slurm (job $job2, then $job3, 3 task(s)): 3 submissions, 0 accepted"
if grep -qF "not judged" "$work/resume.out"; then fail "something is still not judged after --resume"; fi
# Each submission judged exactly once over both jobs: b's cancelled run never finished.
judged=$(cat "$batch2"/logs/*.log | grep '^judge: judged ' | sort)
[ "$(printf '%s\n' "$judged" | wc -l)" = 3 ] && [ -z "$(printf '%s\n' "$judged" | uniq -d)" ] ||
  fail "not each judged once: $judged"
j batch --resume "$job3" >"$work/resume2.out" 2>&1 || true
check "a second --resume" "$work/resume2.out" "nothing to resume"

# --- A stage the node cannot see: slurmd has an empty tmpfs over the cluster's hidden/ (a mount namespace; root).
skipped=""
if [ -f "$cluster/hidden-works" ]; then
  mkdir -p "$cluster/hidden/stage"
  set +e
  j batch vector_add "$subs/a.cu" --slurm --stage "$cluster/hidden/stage" --db "$db" >"$work/hidden.out" 2>&1
  rc=$?
  set -e
  cat "$work/hidden.out"
  [ $rc = 2 ] || fail "a stage the node cannot see: exit $rc, not 2"
  check "a stage the node cannot see" "$work/hidden.out" "tasks could not start"
  check "a stage the node cannot see" "$work/hidden.out" "Give --stage a directory every node sees"
else
  [ "${CI:-}" = "true" ] && fail "the invisible-stage case needs root (a mount namespace for slurmd); CI runs as root"
  skipped="the invisible-stage case (needs root for slurmd's mount namespace)"
fi

echo "slurm batch test: $((SECONDS - started)) s"
if [ -n "$skipped" ]; then
  echo "SKIPPED: $skipped" >&2
  exit 77
fi
