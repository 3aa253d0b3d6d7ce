#!/usr/bin/python3
"""Generates tests/fixtures/stats/*.json (reference values for src/main/stats).

Run with Debian's python (python3-scipy, python3-statsmodels):
    /usr/bin/python3 tests/reference/stats_fixtures.py

Sources of truth:
  special.json      scipy.special.betainc(a, b, x) and 2*scipy.stats.t.sf(|t|, df)
  ttest.json        scipy.stats.ttest_rel(a, b)  (statistic, pvalue, df)
  holm.json         statsmodels.stats.multitest.multipletests(p, alpha, method='holm')
  resampling.json   mulberry32 outputs, and bootstrap CI of mean(a-b) / sign-flip permutation
                    p-values replayed in Python with the same generator and algorithm
                    (mulberry32.py); the interval quantiles are cross-checked with numpy.percentile.
"""
import json
import math
import os
import sys

import numpy as np
import scipy
import scipy.special
import scipy.stats
import statsmodels
from statsmodels.stats.multitest import multipletests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mulberry32 import mulberry32, random_index, percentile_interval  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'stats')
os.makedirs(OUT, exist_ok=True)
VERSIONS = {'python': sys.version.split()[0], 'numpy': np.__version__, 'scipy': scipy.__version__,
            'statsmodels': statsmodels.__version__}


def dump(name, obj):
    obj = {'generatedBy': 'tests/reference/stats_fixtures.py', 'versions': VERSIONS, **obj}
    with open(os.path.join(OUT, name), 'w') as f:
        json.dump(obj, f, indent=1)
        f.write('\n')


def fl(x):
    return [float(v) for v in x]


# ---------------------------------------------------------------- special functions
betainc = []
for a in [0.5, 1.0, 2.5, 10.0, 50.0, 250.0, 5000.0]:
    for b in [0.5, 1.0, 3.0, 20.0]:
        for x in [1e-6, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999999]:
            v = float(scipy.special.betainc(a, b, x))
            if v > 1e-300:
                betainc.append({'a': a, 'b': b, 'x': x, 'value': v})
tdist = []
for df in [1, 2, 3, 5, 9, 19, 29, 49, 99, 499, 999, 9999, 99999]:
    for t in [0.0, 0.01, 0.5, 1.0, 1.96, 2.5, 4.0, 8.0, 15.0, 40.0, -2.2]:
        p = float(2 * scipy.stats.t.sf(abs(t), df))
        if p > 1e-300:
            tdist.append({'t': t, 'df': df, 'p': p})
dump('special.json', {
    'description': 'betainc: scipy.special.betainc(a,b,x) = I_x(a,b); tTwoSided: 2*scipy.stats.t.sf(|t|, df). '
                   'Compared with relative tolerance 1e-9.',
    'betainc': betainc, 'tTwoSided': tdist})

# ---------------------------------------------------------------- paired t-tests
rng = np.random.default_rng(20240611)
cases = []


def add_case(name, a, b):
    a, b = np.round(np.asarray(a, float), 6), np.round(np.asarray(b, float), 6)  # short JSON
    r = scipy.stats.ttest_rel(a, b)
    cases.append({'name': name, 'a': fl(a), 'b': fl(b), 'statistic': float(r.statistic),
                  'pvalue': float(r.pvalue), 'df': float(r.df)})


x = rng.normal(0.5, 0.2, 50)
add_case('normal n=50 small effect', x, x + rng.normal(0.03, 0.1, 50))
add_case('n=2', [0.3, 0.5], [0.1, 0.45])
add_case('n=3', [0.2, 0.9, 0.4], [0.25, 0.7, 0.1])
x = rng.uniform(0, 1, 400)
add_case('n=400 large effect (tiny p)', np.clip(x + rng.normal(0.2, 0.1, 400), 0, 1), x)
ap_a = np.round(rng.beta(2, 3, 120), 4)
ap_b = np.where(rng.uniform(size=120) < 0.3, ap_a, np.round(rng.beta(2, 3, 120), 4))
add_case('AP-like values with many ties, n=120', ap_a, ap_b)
x = rng.standard_t(2, 30)
add_case('heavy tails n=30', x, rng.standard_t(2, 30))
add_case('n=1500 null', rng.normal(size=1500), rng.normal(size=1500))
add_case('negative mean difference', [0.1, 0.2, 0.3, 0.25, 0.15], [0.3, 0.35, 0.5, 0.3, 0.4])
dump('ttest.json', {'description': 'scipy.stats.ttest_rel(a, b): two-sided; statistic, pvalue, df. '
                    'Compared with relative tolerance 1e-9.', 'cases': cases})

# ---------------------------------------------------------------- Holm
hcases = []
for name, p, alpha in [
    ('five pairs', [0.01, 0.04, 0.03, 0.005, 0.2], 0.05),
    ('ties', [0.02, 0.02, 0.02, 0.5], 0.05),
    ('all large', [0.4, 0.9, 0.7], 0.05),
    ('single', [0.03], 0.05),
    ('with zeros and ones', [0.0, 1.0, 0.001, 0.5, 0.0], 0.05),
    ('alpha 0.1', [0.011, 0.02, 0.03, 0.04, 0.051, 0.06], 0.1),
    ('capped at 1', [0.3, 0.35, 0.4, 0.45], 0.05),
    ('random 20', [float(v) for v in np.round(rng.uniform(0, 0.2, 20), 6)], 0.05),
]:
    reject, corrected, _, _ = multipletests(p, alpha=alpha, method='holm')
    hcases.append({'name': name, 'p': fl(p), 'alpha': alpha, 'reject': [bool(v) for v in reject],
                   'adjusted': fl(corrected)})
dump('holm.json', {'description': "statsmodels multipletests(p, alpha, method='holm'): reject, pvals_corrected. "
                   'Compared with absolute tolerance 1e-12.', 'cases': hcases})

# ---------------------------------------------------------------- resampling (replayed mulberry32)
streams = []
for seed in [1, 42, 0xDEADBEEF, 0]:
    g = mulberry32(seed)
    streams.append({'seed': seed, 'values': [g() for _ in range(10)]})


def boot_mean_diff(a, b, resamples, seed, level):
    d = [x - y for x, y in zip(a, b)]
    n = len(d)
    g = mulberry32(seed)
    vals = []
    for _ in range(resamples):
        idx = [random_index(g, n) for _ in range(n)]
        s = 0.0
        for i in idx:
            s += d[i]
        vals.append(s / n)
    ci = percentile_interval(vals, level)
    npci = np.percentile(vals, [100 * (1 - level) / 2, 100 * (1 + level) / 2])
    assert abs(ci[0] - npci[0]) < 1e-12 and abs(ci[1] - npci[1]) < 1e-12, (ci, npci)
    s = 0.0
    for v in d:
        s += v
    return {'meanDiff': s / n, 'ci': ci}


def perm_test(a, b, permutations, seed):
    d = [x - y for x, y in zip(a, b)]
    n = len(d)
    s = 0.0
    for v in d:
        s += v
    obs = abs(s / n)
    thr = obs * (1 - 1e-12)
    if n < 31 and 2 ** n <= permutations:
        c = 0
        for mask in range(2 ** n):
            s = 0.0
            for i in range(n):
                s += -d[i] if (mask >> i) & 1 else d[i]
            if abs(s / n) >= thr:
                c += 1
        return {'method': 'exact', 'p': c / 2 ** n}
    g = mulberry32(seed)
    c = 0
    for _ in range(permutations):
        s = 0.0
        for i in range(n):
            s += -d[i] if g() < 0.5 else d[i]
        if abs(s / n) >= thr:
            c += 1
    return {'method': 'monte-carlo', 'p': (c + 1) / (permutations + 1)}


rcases = []
for k, (name, resamples, perms, seed, level) in enumerate([
    ('normal n=50 small effect', 500, 2000, 7, 0.95),
    ('n=3', 300, 2000, 1, 0.95),
    ('AP-like values with many ties, n=120', 400, 3000, 12345, 0.9),
    ('negative mean difference', 200, 4000, 99, 0.95),
    ('heavy tails n=30', 300, 1000, 3, 0.95),
]):
    c = next(c for c in cases if c['name'] == name)
    rcases.append({'name': name, 'a': c['a'], 'b': c['b'], 'resamples': resamples, 'permutations': perms,
                   'seed': seed, 'level': level,
                   'bootstrap': boot_mean_diff(c['a'], c['b'], resamples, seed, level),
                   'permutation': perm_test(c['a'], c['b'], perms, seed)})
# cross-check: the permutation p is close to the t-test p on a well-behaved sample
dump('resampling.json', {
    'description': 'mulberry32 streams; bootstrap percentile CI of mean(a-b) and sign-flip permutation p '
                   'replayed in Python with the same generator (tests/reference/mulberry32.py). Exact match expected '
                   '(tolerance 1e-12).', 'streams': streams, 'cases': rcases})
print('wrote', OUT)
