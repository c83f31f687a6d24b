"""Generative or discriminative on scikit-learn's breast-cancer table, and from which training-set
size on? Ng and Jordan's question, asked with ``gendisc.compare``.

Gaussian naive Bayes against logistic regression and Raina et al.'s hybrid, each fitted on the
same stratified training sets at ten sizes and scored on the rows left out.

    python examples/python/compare_breast_cancer.py
"""

from sklearn.datasets import load_breast_cancer

import gendisc


def main():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    result = gendisc.compare(
        X, y, ["nb", "lr", "hybrid"], replicates=20, name="breast cancer (scikit-learn)"
    )
    print(f"{result.cells} splits in {result.seconds:.1f} s")
    print(result.summary[["train_size", "model", "median_error", "error_lower", "error_upper"]])
    print(result.crossovers.to_string(index=False))


if __name__ == "__main__":
    main()
