#!/usr/bin/env python3
"""An independent optimiser for the GDT objective: scipy's exact trust-region method with
derivatives by automatic differentiation, against the optimum `gendisc fit gdt` reports.

For UCI Pima and Statlog heart, each smooth family (LDA, QDA, Balls1, the shared diagonal) and
lambda in {1/4, 1/2, 3/4}, the script

  * writes the objective of Bouchard & Triggs (2004, eqs. 5-6) per unit of weight,
        f(theta) = -(1/n) sum_i [ log p(x_i, y_i) - (1 - lambda) log sum_k p(x_i, k) ],
    in numpy over its own parametrisation (prior logits against class 0; means; precisions by
    Cholesky factors with log-diagonals, one per class for QDA, shared for LDA, spherical per
    class for Balls1, diagonal and shared for the shared diagonal, whose priors are fixed at
    1/K as gendisc's default), on the rows divided by their largest magnitude (gendisc's model
    unit, which its reported objective is in);
  * starts from the generative maximum-likelihood fit, as gendisc does, and minimises f with
    scipy.optimize.minimize(method="trust-exact") to a gradient norm of 1e-11, gradients and
    Hessians from autograd;
  * runs `gendisc fit gdt` on the same file and reads the objective and gradient norm of its
    model file's report;

and prints one row per fit with both optima and their relative difference. The objective's
value at the optimum does not depend on the parametrisation, so the two are comparable although
the parameters are not. Exit status 1 if any relative difference exceeds --tolerance.

Usage:
    pip install numpy scipy autograd
    cargo build --release -p gendisc-cli
    python3 scripts/peers/gdt_scipy.py --gendisc target/release/gendisc --data "$GENDISC_DATA"
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import autograd.numpy as anp
import numpy as np
from autograd import grad, hessian
from autograd.scipy.special import logsumexp
from scipy.optimize import minimize

DATASETS = {
    "pima": ("uci/pima-indians-diabetes/pima-indians-diabetes.data", ","),
    "heart": ("statlog/heart/heart.dat", " "),
}
FAMILIES = ["lda", "qda", "balls1", "shared-diagonal"]
LAMBDAS = [0.25, 0.5, 0.75]
LOG_2PI = np.log(2.0 * np.pi)


def load(path, delimiter):
    rows = []
    with open(path) as f:
        for line in f:
            fields = line.split() if delimiter == " " else line.strip().split(delimiter)
            if fields and fields[0]:
                rows.append(fields)
    x = np.array([[float(v) for v in r[:-1]] for r in rows])
    labels = [r[-1] for r in rows]
    # gendisc orders the labels as numbers when all of them are numbers.
    classes = sorted(set(labels), key=float)
    y = np.array([classes.index(v) for v in labels])
    return x, y


def tril_indices(d):
    return [(a, b) for a in range(d) for b in range(a + 1)]


class Layout:
    """theta = [prior logits (K-1, unless fixed)] + means (K*d) + precision blocks."""

    def __init__(self, family, k, d):
        self.family, self.k, self.d = family, k, d
        self.fixed_priors = family == "shared-diagonal"
        self.n_prior = 0 if self.fixed_priors else k - 1
        self.tri = tril_indices(d)
        per = {"lda": len(self.tri), "qda": k * len(self.tri), "balls1": k, "shared-diagonal": d}
        self.dim = self.n_prior + k * d + per[family]

    def log_joint(self, theta, x):
        k, d = self.k, self.d
        if self.fixed_priors:
            log_prior = anp.full(k, -np.log(k))
        else:
            logits = anp.concatenate([anp.zeros(1), theta[: k - 1]])
            log_prior = logits - logsumexp(logits)
        off = self.n_prior
        means = anp.reshape(theta[off : off + k * d], (k, d))
        off += k * d
        cols = []
        for c in range(k):
            diff = x - means[c]
            if self.family in ("lda", "qda"):
                start = off + (c * len(self.tri) if self.family == "qda" else 0)
                block = theta[start : start + len(self.tri)]
                z = []
                log_det_half = 0.0
                # (L^T diff)_b = sum_{a >= b} L_ab diff_a
                entries = {ab: block[i] for i, ab in enumerate(self.tri)}
                for b in range(d):
                    acc = 0.0
                    for a in range(b, d):
                        value = anp.exp(entries[(a, b)]) if a == b else entries[(a, b)]
                        acc = acc + value * diff[:, a]
                    z.append(acc)
                    log_det_half = log_det_half + entries[(b, b)]
                quad = sum(zb * zb for zb in z)
                cols.append(log_prior[c] + log_det_half - 0.5 * quad - 0.5 * d * LOG_2PI)
            elif self.family == "balls1":
                ell = theta[off + c]
                quad = anp.exp(2.0 * ell) * anp.sum(diff * diff, axis=1)
                cols.append(log_prior[c] + d * ell - 0.5 * quad - 0.5 * d * LOG_2PI)
            else:
                ell = theta[off : off + d]
                quad = anp.sum(anp.exp(2.0 * ell) * diff * diff, axis=1)
                cols.append(log_prior[c] + anp.sum(ell) - 0.5 * quad - 0.5 * d * LOG_2PI)
        return anp.stack(cols, axis=1)

    def generative_start(self, x, y):
        k, d = self.k, self.d
        n = len(y)
        theta = np.zeros(self.dim)
        counts = np.bincount(y, minlength=k)
        if not self.fixed_priors:
            theta[: k - 1] = np.log(counts[1:] / counts[0])
        off = self.n_prior
        means = np.array([x[y == c].mean(axis=0) for c in range(k)])
        theta[off : off + k * d] = means.ravel()
        off += k * d
        resid = x - means[y]

        def factor_block(cov):
            lower = np.linalg.cholesky(np.linalg.inv(cov))
            return [np.log(lower[a, a]) if a == b else lower[a, b] for a, b in self.tri]

        if self.family == "lda":
            theta[off:] = factor_block(resid.T @ resid / n)
        elif self.family == "qda":
            for c in range(k):
                r = resid[y == c]
                start = off + c * len(self.tri)
                theta[start : start + len(self.tri)] = factor_block(r.T @ r / len(r))
        elif self.family == "balls1":
            for c in range(k):
                r = resid[y == c]
                theta[off + c] = -0.5 * np.log(np.sum(r * r) / (len(r) * d))
        else:
            theta[off:] = -0.5 * np.log(np.sum(resid * resid, axis=0) / n)
        return theta


def scipy_optimum(family, lam, x, y):
    k, d = int(y.max()) + 1, x.shape[1]
    layout = Layout(family, k, d)
    onehot = np.eye(k)[y]

    def f(theta):
        joint = layout.log_joint(theta, x)
        own = anp.sum(joint * onehot, axis=1)
        marginal = logsumexp(joint, axis=1)
        return -anp.mean(own - (1.0 - lam) * marginal)

    result = minimize(
        f,
        layout.generative_start(x, y),
        jac=grad(f),
        hess=hessian(f),
        method="trust-exact",
        options={"gtol": 1e-11, "maxiter": 500},
    )
    return result.fun, float(np.linalg.norm(grad(f)(result.x))), result.nit


def gendisc_optimum(binary, path, delimiter, family, lam):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "gdt.json")
        command = [binary, "fit", "gdt", "--data", path, "--format", "uci", "--family", family]
        command += ["--lambda", str(lam), "--out", out]
        if delimiter != ",":
            command += ["--delimiter", delimiter]
        subprocess.run(command, check=True, capture_output=True)
        with open(out) as f:
            report = json.load(f)["model"]["report"]
    return report["objective"], report["gradient_norm"], report["status"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gendisc", required=True, help="the gendisc binary")
    parser.add_argument("--data", default=os.environ.get("GENDISC_DATA", "data"))
    parser.add_argument("--tolerance", type=float, default=1e-8)
    args = parser.parse_args()

    print("| data | family | λ | scipy objective | gendisc objective | relative difference | "
          "scipy ‖∇f‖ | gendisc ‖∇f‖ | gendisc status |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for name, (relative, delimiter) in DATASETS.items():
        path = os.path.join(args.data, relative)
        x, y = load(path, delimiter)
        scale = np.abs(x).max()
        x = x / (scale if scale > 0 else 1.0)
        for family in FAMILIES:
            for lam in LAMBDAS:
                ours, ours_grad, _ = scipy_optimum(family, lam, x, y)
                theirs, their_grad, status = gendisc_optimum(
                    args.gendisc, path, delimiter, family, lam
                )
                rel = abs(ours - theirs) / max(abs(ours), 1.0)
                worst = max(worst, rel)
                print(f"| {name} | {family} | {lam} | {ours:.12g} | {theirs:.12g} | {rel:.1e} | "
                      f"{ours_grad:.1e} | {their_grad:.1e} | {status} |")
    print(f"\nlargest relative difference: {worst:.1e} (tolerance {args.tolerance:.0e})")
    sys.exit(0 if worst <= args.tolerance else 1)


if __name__ == "__main__":
    main()
