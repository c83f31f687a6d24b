#!/usr/bin/env python3
"""Joins a peer's per-replicate results with gendisc's, replicate by replicate.

Usage: python3 scripts/peers/compare.py GENDISC_CELLS_CSV PEER_CSV [--tolerance 1e-6]

Both files are in the long schema of docs/data-interchange.md (dataset, train_size,
replicate, classifier, metric, value). For every (dataset, train_size, replicate, classifier)
that the peer measured, the script compares the error rate `er` (exactly: same number of test
errors) and the log loss `ll` (|difference| within the tolerance), and prints, per classifier
and over all: ER identical / total, max |ΔLL|, and how many LL agree within the tolerance.

Replicates where the peer's glm warned "fitted probabilities numerically 0 or 1 occurred" or
did not converge (metrics `numerically-0-or-1`, `glm-not-converged` of its logistic regression)
are separated training sets: there the fitted coefficients are wherever the iterations stopped
and the log loss depends on those last digits. They are listed apart and left out of the LL
tolerance check (their ER is still compared), with the agreement of the peer's warning and
gendisc's own `numerically-0-or-1` flag. Replicates without the warning whose training set
gendisc's certificate (`separated`) finds (quasi-)separated are counted apart as well. Only the
standard library is used.
"""

import argparse
import csv
import math
import sys
from collections import defaultdict

SEPARATION_METRICS = ("numerically-0-or-1", "glm-not-converged")


def read_long(path):
    """{(dataset, train_size, replicate, classifier): {metric: value}} of a long CSV."""
    table = defaultdict(dict)
    with open(path, newline="") as file:
        reader = csv.DictReader(file)
        expected = ["dataset", "train_size", "replicate", "classifier", "metric", "value"]
        if reader.fieldnames != expected:
            sys.exit(f"{path}: the header is {reader.fieldnames}, expected {expected}")
        for line, row in enumerate(reader, start=2):
            try:
                key = (row["dataset"], int(row["train_size"]), int(row["replicate"]),
                       row["classifier"])
                table[key][row["metric"]] = float(row["value"])
            except (TypeError, ValueError) as error:
                sys.exit(f"{path}:{line}: {error}")
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gendisc", help="gendisc's cells.csv")
    parser.add_argument("peer", help="the peer's CSV in the same schema")
    parser.add_argument("--tolerance", type=float, default=1e-6,
                        help="largest |ΔLL| counted as agreement (default 1e-6)")
    args = parser.parse_args()

    ours = read_long(args.gendisc)
    peer = read_long(args.peer)
    separated = {key[:3] for key, metrics in peer.items()
                 if any(metrics.get(m, 0.0) == 1.0 for m in SEPARATION_METRICS)}

    missing = [key for key in peer if key not in ours]
    if missing:
        sys.exit(f"{len(missing)} peer replicates are not in {args.gendisc}, e.g. {missing[0]}")

    classifiers = sorted({key[3] for key in peer})
    totals = defaultdict(int)
    worst_delta = {}
    print(f"gendisc: {args.gendisc}\npeer:    {args.peer}\n")
    print("| classifier | replicates | ER identical | max abs ΔLL (all) "
          f"| LL within {args.tolerance:g} (unseparated) | max abs ΔLL (unseparated) |")
    print("|---|---|---|---|---|---|")
    for classifier in classifiers:
        keys = sorted(k for k in peer if k[3] == classifier)
        er_same = sum(peer[k]["er"] == ours[k]["er"] for k in keys)
        deltas = {k: abs(peer[k]["ll"] - ours[k]["ll"]) for k in keys}
        checked = [k for k in keys if k[:3] not in separated or classifier != "logistic-regression"]
        within = sum(deltas[k] <= args.tolerance for k in checked)
        max_all = max(deltas.values(), default=math.nan)
        max_checked = max((deltas[k] for k in checked), default=math.nan)
        print(f"| {classifier} | {len(keys)} | {er_same}/{len(keys)} | {max_all:.3g} "
              f"| {within}/{len(checked)} | {max_checked:.3g} |")
        totals["replicates"] += len(keys)
        totals["er_same"] += er_same
        totals["checked"] += len(checked)
        totals["within"] += within
        if checked:
            worst = max(checked, key=lambda k: deltas[k])
            worst_delta[classifier] = (worst, deltas[worst])
    print(f"| all | {totals['replicates']} | {totals['er_same']}/{totals['replicates']} | "
          f"| {totals['within']}/{totals['checked']} | |\n")

    differing = sorted(k for k in peer if peer[k]["er"] != ours[k]["er"])
    for key in differing[:10]:
        warned = key[:3] in separated and key[3] == "logistic-regression"
        print(f"ER differs: {key[3]} on {key[0]}, m = {key[1]}, replicate {key[2]}: gendisc "
              f"{ours[key]['er']!r}, peer {peer[key]['er']!r}"
              + (" (glm warned)" if warned else ""))
    if len(differing) > 10:
        print(f"… and {len(differing) - 10} more")
    for classifier, (key, delta) in worst_delta.items():
        print(f"largest unseparated ΔLL of {classifier}: {delta:.3g} at dataset {key[0]}, "
              f"m = {key[1]}, replicate {key[2]} (gendisc {ours[key]['ll']!r}, "
              f"peer {peer[key]['ll']!r})")

    # The warning fires only when a fitted probability reaches 0 or 1; quasi-complete
    # separation that glm's 25 iterations leave short of that is certified by gendisc's own
    # `separated` metric. Shown apart, so that both exclusions can be read.
    lr = [k for k in peer if k[3] == "logistic-regression"]
    certified = {k for k in lr if ours[k].get("separated") == 1.0}
    quiet = [k for k in lr if k[:3] not in separated and k in certified]
    if quiet:
        beyond = [k for k in quiet if abs(peer[k]["ll"] - ours[k]["ll"]) > args.tolerance]
        relative = max(abs(peer[k]["ll"] - ours[k]["ll"]) / abs(ours[k]["ll"]) for k in quiet)
        by_dataset = defaultdict(int)
        for key in beyond:
            by_dataset[key[0]] += 1
        print(f"\nReplicates without glm's warning that gendisc's certificate finds separated: "
              f"{len(quiet)}; ΔLL beyond {args.tolerance:g} on {len(beyond)} of them "
              f"(max relative ΔLL {relative:.3g})"
              + (": " + ", ".join(f"{d} {n}" for d, n in sorted(by_dataset.items()))
                 if beyond else "."))
        rest = [k for k in lr if k[:3] not in separated and k not in certified]
        if rest:
            within = sum(abs(peer[k]["ll"] - ours[k]["ll"]) <= args.tolerance for k in rest)
            max_rest = max(abs(peer[k]["ll"] - ours[k]["ll"]) for k in rest)
            print(f"Neither warned nor certified separated: LL within {args.tolerance:g} on "
                  f"{within}/{len(rest)}, max abs ΔLL {max_rest:.3g}.")

    flagged = sorted(k for k in lr if k[:3] in separated)
    ours_flag = {k for k in lr if ours[k].get("numerically-0-or-1") == 1.0}
    both = len([k for k in flagged if k in ours_flag])
    print(f"\nglm warned of separation (numerically 0 or 1, or no convergence) on "
          f"{len(flagged)} of {len(lr)} replicates; gendisc's numerically-0-or-1 flag is set "
          f"on {len(ours_flag)}, on {both} of them both.")
    if flagged:
        er_same = sum(peer[k]["er"] == ours[k]["er"] for k in flagged)
        max_delta = max(abs(peer[k]["ll"] - ours[k]["ll"]) for k in flagged)
        print(f"On those replicates: ER identical {er_same}/{len(flagged)}, "
              f"max abs ΔLL {max_delta:.3g}.")
        by_dataset = defaultdict(int)
        for key in flagged:
            by_dataset[key[0]] += 1
        print("By dataset: " + ", ".join(f"{d} {n}" for d, n in sorted(by_dataset.items())))
        for key in flagged[:10]:
            print(f"  {key[0]} m = {key[1]} replicate {key[2]}: ER gendisc "
                  f"{ours[key]['er']:.6g} peer {peer[key]['er']:.6g}; LL gendisc "
                  f"{ours[key]['ll']:.10g} peer {peer[key]['ll']:.10g}")
        if len(flagged) > 10:
            print(f"  … and {len(flagged) - 10} more")


if __name__ == "__main__":
    main()
