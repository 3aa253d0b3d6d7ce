#!/usr/bin/python3
"""Reference values for src/main/models/gmm.ts and fisher-vector.ts.

Run with Debian's python (python3-sklearn, python3-numpy):
    /usr/bin/python3 tests/reference/gmm_fisher_fixtures.py
Writes tests/fixtures/models/gmm-fisher.json.

GMM: scikit-learn's GaussianMixture(covariance_type='diag') started from given weights, means and
precisions (weights_init, means_init, precisions_init), tol=0 so it runs exactly max_iter EM iterations,
reg_covar=1e-6. Fisher vectors: computed here with numpy from scikit-learn's predict_proba
responsibilities and the fitted parameters (Sanchez et al. 2013 formulas), then power (1/2) and L2
normalised: an implementation independent of the TypeScript one.
"""
import json
import os
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.mixture import GaussianMixture

warnings.simplefilter("ignore", ConvergenceWarning)
rng = np.random.default_rng(20151)

cases = []
for (n, d, k, iters) in [(60, 2, 2, 1), (200, 3, 3, 5), (300, 5, 4, 20)]:
    centers = rng.normal(0, 3, size=(k, d))
    x = np.vstack([centers[i % k] + rng.normal(0, 0.5 + 0.3 * (i % k), size=d) for i in range(n)])
    w0 = np.full(k, 1.0 / k)
    m0 = x[rng.choice(n, size=k, replace=False)]
    v0 = np.tile(x.var(axis=0), (k, 1))
    gm = GaussianMixture(n_components=k, covariance_type="diag", tol=0, max_iter=iters, reg_covar=1e-6,
                         weights_init=w0, means_init=m0, precisions_init=1.0 / v0, random_state=0)
    gm.fit(x)
    # Fisher vectors of three "questions": subsets of the points.
    fvs = []
    for rows in [list(range(0, 7)), list(range(10, 40, 3)), [n - 1]]:
        xs = x[rows]
        g = gm.predict_proba(xs)
        N = len(rows)
        sd = np.sqrt(gm.covariances_)
        gmu, gsg = [], []
        for c in range(k):
            z = (xs - gm.means_[c]) / sd[c]
            gmu.append((g[:, c:c + 1] * z).sum(axis=0) / (N * np.sqrt(gm.weights_[c])))
            gsg.append((g[:, c:c + 1] * (z * z - 1)).sum(axis=0) / (N * np.sqrt(2 * gm.weights_[c])))
        v = np.concatenate(gmu + gsg)
        v = np.sign(v) * np.sqrt(np.abs(v))
        v = v / np.linalg.norm(v)
        fvs.append({"rows": rows, "fisher": v.tolist()})
    cases.append({
        "n": n, "d": d, "k": k, "iterations": iters,
        "x": x.ravel().tolist(),
        "init": {"weights": w0.tolist(), "means": m0.ravel().tolist(), "variances": v0.ravel().tolist()},
        "weights": gm.weights_.tolist(), "means": gm.means_.ravel().tolist(), "variances": gm.covariances_.ravel().tolist(),
        "meanLogLikelihood": float(gm.score(x)),
        "fisherVectors": fvs,
    })

out = os.path.join(os.path.dirname(__file__), "..", "fixtures", "models", "gmm-fisher.json")
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "w") as f:
    json.dump({"generator": "tests/reference/gmm_fisher_fixtures.py", "sklearn": __import__("sklearn").__version__, "cases": cases}, f)
print("wrote", out)
