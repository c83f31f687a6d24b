"""Generative or discriminative, and from which training-set size on? — from Python.

Bouchard and Triggs' GDT behind a scaler in a scikit-learn pipeline, its λ chosen by grid search,
then the learning curves of naive Bayes (generative), logistic regression (discriminative) and
GDT on scikit-learn's breast-cancer table (its ten "mean" features), with scikit-learn's own
`learning_curve`.

Run it in an environment where the `gendisc` package is installed (see crates/gendisc-py):

    python examples/python/gdt_learning_curve.py
"""

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV, StratifiedShuffleSplit, learning_curve
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import gendisc

X, y = load_breast_cancer(return_X_y=True)
X = X[:, :10]  # the ten "mean" features: LDA's GDT then has 76 parameters

# λ by grid search: 1 is shrunk LDA, 0 its discriminative end (Bouchard & Triggs, eq. 5).
pipeline = make_pipeline(StandardScaler(), gendisc.GDT(family="lda", shrinkage=0.1))
search = GridSearchCV(pipeline, {"gdt__lam": [1.0, 0.75, 0.5, 0.25]}, cv=5).fit(X, y)
print(f"GDT: best λ = {search.best_params_['gdt__lam']}, cross-validated accuracy {search.best_score_:.3f}")

# Test error against training-set size, 20 random splits per size.
models = {
    "naive Bayes": gendisc.GaussianNB(),
    "logistic regression": make_pipeline(StandardScaler(), gendisc.LogisticRegression()),
    "GDT λ = 0.5": make_pipeline(StandardScaler(), gendisc.GDT(lam=0.5, shrinkage=0.1)),
}
splits = StratifiedShuffleSplit(n_splits=20, test_size=0.3, random_state=0)
sizes = np.array([0.05, 0.1, 0.2, 0.4, 1.0])
print(f"\n{'training rows':>14}" + "".join(f"{name:>22}" for name in models))
curves = {
    name: learning_curve(model, X, y, train_sizes=sizes, cv=splits)
    for name, model in models.items()
}
rows = next(iter(curves.values()))[0]
for i, n in enumerate(rows):
    errors = [1.0 - curves[name][2][i].mean() for name in models]
    print(f"{n:>14}" + "".join(f"{error:>22.3f}" for error in errors))
