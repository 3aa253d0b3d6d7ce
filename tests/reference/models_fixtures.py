#!/usr/bin/python3
"""Generates tests/fixtures/models/*.json (reference values for src/main/models).

Run with Debian's python (python3-sklearn, numpy):
    /usr/bin/python3 tests/reference/models_fixtures.py

Sources of truth:
  ppmi-svd.json  a toy tokenised corpus; its vocabulary (count desc, ties alphabetical), symmetric
                 window-2 co-occurrence counts, PPMI with context smoothing 0.75 (numpy, dense) and
                 the top singular values / left singular vectors of the PPMI matrix (numpy.linalg.svd;
                 each vector's sign fixed so its largest-magnitude entry is positive).
  ranksvm.json   seeded feature lists; the pairwise differences of every (relevant, irrelevant) pair
                 of a list, and the weights of sklearn LinearSVC(loss='squared_hinge', dual=True,
                 fit_intercept=False) on them (labels alternating +1/-1, the same objective as the
                 all-+1 RankSVM).
"""
import json
import os
import sys

import numpy as np
import sklearn
from sklearn.svm import LinearSVC

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'models')
os.makedirs(OUT, exist_ok=True)
VERSIONS = {'python': sys.version.split()[0], 'numpy': np.__version__, 'sklearn': sklearn.__version__}


def dump(name, obj):
    obj = {'generatedBy': 'tests/reference/models_fixtures.py', 'versions': VERSIONS, **obj}
    with open(os.path.join(OUT, name), 'w') as f:
        json.dump(obj, f, indent=1)
        f.write('\n')


def ppmi_fixture():
    rng = np.random.default_rng(7)
    topics = [['wifi', 'router', 'signal', 'network', 'drops'], ['visa', 'permit', 'sponsor', 'exit', 'residence'],
              ['car', 'license', 'driving', 'test', 'traffic'], ['salary', 'bank', 'loan', 'transfer', 'account']]
    filler = ['the', 'my', 'is', 'how', 'to', 'in', 'qatar']
    docs = []
    for d in range(24):
        t = topics[d % len(topics)]
        n = 6 + int(rng.integers(0, 6))
        docs.append([str(t[int(rng.integers(0, 5))]) if rng.random() < 0.6 else str(filler[int(rng.integers(0, 7))])
                     for _ in range(n)])
    window, alpha, k = 2, 0.75, 5
    freq = {}
    for d in docs:
        for t in d:
            freq[t] = freq.get(t, 0) + 1
    words = sorted(freq, key=lambda w: (-freq[w], w))
    index = {w: i for i, w in enumerate(words)}
    V = len(words)
    counts = np.zeros((V, V))
    for d in docs:
        ids = [index[t] for t in d]
        for i in range(len(ids)):
            for j in range(i + 1, min(i + window + 1, len(ids))):
                counts[ids[i], ids[j]] += 1
                counts[ids[j], ids[i]] += 1
    row = counts.sum(axis=1)
    colpow = counts.sum(axis=0) ** alpha
    with np.errstate(divide='ignore'):
        pmi = np.log(counts * colpow.sum() / (row[:, None] * colpow[None, :]))
    ppmi = np.where(counts > 0, np.maximum(pmi, 0), 0.0)
    u, s, _ = np.linalg.svd(ppmi)
    u = u[:, :k]
    for j in range(k):
        if u[np.argmax(np.abs(u[:, j])), j] < 0:
            u[:, j] = -u[:, j]
    dump('ppmi-svd.json', {'docs': docs, 'window': window, 'alpha': alpha, 'k': k, 'words': words,
                           'counts': counts.tolist(), 'ppmi': ppmi.tolist(), 'singularValues': s[:k].tolist(),
                           'u': u.tolist()})


def ranksvm_fixture():
    rng = np.random.default_rng(3)
    lists = []
    truth = np.array([1.5, -0.7, 0.0, 0.4])
    for _ in range(12):
        x = rng.normal(size=(6, 4))
        y = (x @ truth + rng.normal(scale=0.8, size=6) > 0.3).astype(int)
        lists.append({'rows': x.tolist(), 'rel': y.tolist()})
    diffs, labels = [], []
    for l in lists:
        x, y = np.array(l['rows']), np.array(l['rel'])
        for i in range(len(y)):
            for j in range(len(y)):
                if y[i] > y[j]:
                    sign = 1 if len(labels) % 2 == 0 else -1
                    diffs.append(sign * (x[i] - x[j]))
                    labels.append(sign)
    C = 0.1
    svm = LinearSVC(C=C, loss='squared_hinge', dual=True, fit_intercept=False, tol=1e-10, max_iter=1000000)
    svm.fit(np.array(diffs), np.array(labels))
    dump('ranksvm.json', {'lists': lists, 'C': C, 'pairs': len(labels), 'weights': svm.coef_.ravel().tolist()})


if __name__ == '__main__':
    ppmi_fixture()
    ranksvm_fixture()
