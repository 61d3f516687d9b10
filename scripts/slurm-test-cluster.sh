#!/usr/bin/env bash
# A real single-node Slurm for the tests (tests/slurm/test_slurm_batch.sh), without systemd or containers:
# munged, slurmctld and slurmd of Debian's `slurmctld slurmd slurm-client munge`, run as the current user with their
# own munge key and socket, their own ports and all their state in DIR. Two fake GPUs (character devices of major 195,
# the NVIDIA driver's, at minors no driver uses) are listed in gres.conf, so `--gres=gpu:1` schedules as on a GPU node
# and each task gets its CUDA_VISIBLE_DEVICES; the judge finds no real GPU behind them and takes its no-GPU path.
#
#   slurm-test-cluster.sh start DIR   brings it up (idle in about a second), prints `export SLURM_CONF=...`
#   slurm-test-cluster.sh stop DIR    kills exactly the daemons it started (their pids are in DIR), waits for them
#
# DIR/hidden is a directory the node cannot see (as root: slurmd runs in a mount namespace of its own with an empty
# tmpfs over it), for the test of a stage directory that is not shared with the nodes; DIR/hidden-works says whether
# that could be arranged. What each piece needs here, and why, is measured in /work/shared/GPU-FACTS.md's Slurm notes.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
cmd=$1 dir=$(realpath -m "$2")

daemons="slurmd slurmctld munged"
alive() { [ -f "$dir/$1.pid" ] && kill -0 "$(cat "$dir/$1.pid")" 2>/dev/null; }
stop() {
  local name pid _
  # The jobs first, while the controller can still end them: their steps (slurmstepd and the tasks under it) do not
  # die with slurmd.
  if alive slurmctld && [ -f "$dir/slurm.conf" ]; then
    SLURM_CONF=$dir/slurm.conf timeout 5 scancel --user "$(id -un)" 2>/dev/null || true
    for _ in $(seq 50); do
      [ -z "$(SLURM_CONF=$dir/slurm.conf timeout 2 squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  for name in $daemons; do alive "$name" && kill -TERM "$(cat "$dir/$name.pid")" 2>/dev/null || true; done
  for _ in $(seq 50); do
    alive slurmd || alive slurmctld || alive munged || break
    sleep 0.1
  done
  for name in $daemons; do
    alive "$name" && kill -KILL "$(cat "$dir/$name.pid")" 2>/dev/null || true
    rm -f "$dir/$name.pid"
  done
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || usage

missing=()
for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "slurm-test-cluster: ${missing[*]} not found: install Debian's slurmctld slurmd slurm-client munge" \
       "(apt-get install slurmctld slurmd slurm-client munge; scripts/test.sh does it through scripts/deps.sh)" >&2
  exit 3
fi
export PATH="$PATH:/usr/sbin:/sbin"

mkdir -p "$dir"/{munge,state,spool,dev,hidden}
# munged checks that its socket's directory is world-executable and not writable by others.
chmod 755 "$dir" "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
socket=$dir/munge/munge.socket
munged --force --key-file="$dir/munge/munge.key" --socket="$socket" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" --num-threads=2
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "slurm-test-cluster: munged did not start: $(tail -n 5 "$dir/munge/munged.log")" >&2; exit 1; }

# Fake GPUs: character devices of the NVIDIA major at minors no driver hands out (the driver numbers GPUs from 0).
for i in 0 1; do
  [ -e "$dir/dev/nvidia$i" ] || mknod "$dir/dev/nvidia$i" c 195 $((200 + i)) 2>/dev/null ||
    { echo "slurm-test-cluster: mknod is not permitted here (it needs root or CAP_MKNOD)" >&2; exit 1; }
done

# Ports: two neighbours nothing listens on, chosen from the pid so that clusters of parallel tests differ.
port=$((20000 + ($$ * 7) % 20000))
while (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null || (echo >"/dev/tcp/127.0.0.1/$((port + 1))") 2>/dev/null; do
  port=$((port + 2))
done
host=$(hostname -s)
user=$(id -un)
cpus=$(nproc)
cat >"$dir/slurm.conf" <<EOF
ClusterName=judgetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid.conf
SlurmdPidFile=$dir/slurmd.pid.conf
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_interval=1
MinJobAge=600
KillWait=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus Gres=gpu:2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
cat >"$dir/gres.conf" <<EOF
NodeName=$host Name=gpu File=$dir/dev/nvidia0
NodeName=$host Name=gpu File=$dir/dev/nvidia1
EOF
export SLURM_CONF=$dir/slurm.conf

slurmctld -D -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
echo $! >"$dir/slurmctld.pid"
# slurmd sees DIR/hidden as an empty tmpfs: the stand-in for a directory that is not shared with the nodes. Only
# root can make a mount namespace without a user namespace, which would change who slurmd runs as.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 && unshare --mount true 2>/dev/null; then
  unshare --mount --propagation private sh -c \
    'mount -t tmpfs judge-hidden "$1" && exec slurmd -D -f "$2"' sh "$dir/hidden" "$SLURM_CONF" \
    >"$dir/slurmd.out" 2>&1 &
  echo $! >"$dir/slurmd.pid"
  touch "$dir/hidden-works"
else
  slurmd -D -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 &
  echo $! >"$dir/slurmd.pid"
fi

for _ in $(seq 100); do
  state=$(timeout 2 sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
if [ "${state:-}" != idle ]; then
  echo "slurm-test-cluster: the node did not become idle (state '${state:-none}'):" >&2
  tail -n 8 "$dir/slurmctld.log" "$dir/slurmd.log" "$dir/slurmctld.out" "$dir/slurmd.out" >&2 2>/dev/null || true
  stop
  exit 1
fi
echo "export SLURM_CONF=$SLURM_CONF"
