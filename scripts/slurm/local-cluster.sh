#!/usr/bin/env bash
# A single-node SLURM cluster on this machine, and the quick Xue–Titterington study through it:
# the job array of scripts/slurm/submit.sh (one shard per task) and the merge that waits for it,
# whose outputs are then compared byte for byte with an unsharded run's.
#
#   scripts/slurm/local-cluster.sh [N]        (N shards, default 3; run as root, from anywhere)
#
# Installs Debian's slurm-wlm and munge if missing, writes a configuration for this host alone
# (no cgroups, no accounting) under $STATE (default /tmp/gendisc-slurm), starts munged,
# slurmctld and slurmd, submits, waits, compares, and stops the daemons it started. Uses the
# dev-profile task runner (target/debug/xtask, --unoptimised), built if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
count="${1:-3}"
state="${STATE:-/tmp/gendisc-slurm}"
study=xue-titterington

if [ "$(id -u)" -ne 0 ]; then
  echo "$0: starting the SLURM and munge daemons needs root" >&2
  exit 2
fi
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends slurm-wlm munge \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends slurm-wlm munge; }
fi

rm -rf "$state"
mkdir -p "$state"/{spool,ctld,log,run} "$state/work"
node="$(hostname -s)"
cat >"$state/slurm.conf" <<CONF
ClusterName=gendisc-local
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/run/slurmctld.pid
SlurmdPidFile=$state/run/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$state/slurm.conf"

# munged runs as its own user, with its socket where the SLURM plugins look for it.
mkdir -p /run/munge && chown munge:munge /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  mungekey --create --keyfile=/etc/munge/munge.key && chown munge:munge /etc/munge/munge.key
fi
started=()
stop() {
  for pidfile in "${started[@]}"; do
    [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
}
trap stop EXIT
if ! munge -n >/dev/null 2>&1; then
  runuser -u munge -- munged --pid-file=/run/munge/gendisc-munged.pid
  started+=(/run/munge/gendisc-munged.pid)
fi
slurmctld -c
started+=("$state/run/slurmctld.pid")
slurmd
started+=("$state/run/slurmd.pid")
for _ in $(seq 1 30); do
  sinfo --noheader --states=idle --format=%n 2>/dev/null | grep -q . && break
  sleep 1
done
sinfo

xtask="$root/target/debug/xtask"
[ -x "$xtask" ] || cargo build --quiet --package xtask
cd "$state/work"
start=$(date +%s)
XTASK="$xtask" SHARDS=shards RESULTS=merged SBATCH_ARRAY_OPTIONS="--cpus-per-task=1 --chdir=$state/work" \
  SBATCH_MERGE_OPTIONS="--chdir=$state/work" \
  "$root/scripts/slurm/submit.sh" "$study" "$count" --quick --unoptimised
# Waits for every job of this cluster to leave the queue.
while [ -n "$(squeue --noheader --format=%i)" ]; do
  sleep 2
done
echo "array and merge done in $(( $(date +%s) - start )) s"
for log in slurm-*.out; do
  echo "--- $log"; grep -v '^|' "$log" | tail -n 4
done

"$xtask" reproduce "$study" --quick --offline --unoptimised --out single >/dev/null 2>&1
status=0
for f in $(cd single/$study && find . -type f | sort); do
  cmp "single/$study/$f" "merged/$study/$f" || status=1
done
if [ "$status" -ne 0 ]; then
  echo "FAILED: the merged shards differ from the unsharded run"
  exit 1
fi
echo "$study: the $count shards run by SLURM, merged, give every file of an unsharded run"
