#!/usr/bin/env bash
# Submits a gendisc study to SLURM as N shards and their merge:
#
#   scripts/slurm/submit.sh STUDY N [REPRODUCE FLAGS…]      e.g. submit.sh ng-jordan 16 --quick
#
# a job array of N tasks (scripts/slurm/reproduce.sbatch, shard I/N into $SHARDS/I), then a merge
# job that starts only once every task has succeeded (--dependency=afterok) and writes the study's
# outputs under $RESULTS/<study>/, byte for byte those of an unsharded run. The flags go to both,
# so only those both take: --quick, --unoptimised (the tasks' threads are their CPUs). Run it
# from the repository's root (or set XTASK) after `cargo xtask fetch-data`: the jobs run
# --offline, so that N tasks do not download at once.
#
# Environment: XTASK (default target/release/xtask, built here if missing), SHARDS (default
# shards/<study>), RESULTS (default results), SBATCH_ARRAY_OPTIONS and SBATCH_MERGE_OPTIONS
# (extra sbatch options, e.g. "--partition=short --cpus-per-task=8").
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: $0 STUDY N [REPRODUCE FLAGS…]" >&2
  exit 2
fi
study="$1" count="$2"
shift 2
case "$count" in
  '' | *[!0-9]* | 0) echo "$0: N must be a whole number ≥ 1, not '$count'" >&2; exit 2 ;;
esac

xtask="${XTASK:-target/release/xtask}"
shards="${SHARDS:-shards/$study}"
results="${RESULTS:-results}"
if [ ! -x "$xtask" ]; then
  cargo build --release --quiet --package xtask
fi

array="$(sbatch --parsable --array="0-$((count - 1))" --export="ALL,XTASK=$xtask" \
  ${SBATCH_ARRAY_OPTIONS:-} "$(dirname "$0")/reproduce.sbatch" "$study" "$shards" "$@")"
array="${array%%;*}"

dirs=()
for i in $(seq 1 "$count"); do dirs+=("$shards/$i"); done
merge="$(sbatch --parsable --dependency="afterok:$array" --job-name=gendisc-merge \
  --output="slurm-%x-%j.out" ${SBATCH_MERGE_OPTIONS:-} \
  --wrap="$(printf '%q ' "$xtask" merge "$study" "${dirs[@]}" --offline --out "$results" "$@")")"
merge="${merge%%;*}"

echo "$study: shards in job array $array ($count tasks, into $shards/1..$count);"
echo "merge in job $merge once they all succeed (into $results/$study; squeue -j $array,$merge)"
