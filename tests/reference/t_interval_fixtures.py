#!/usr/bin/python3
"""Generates tests/fixtures/stats/t-interval.json (reference values for src/main/stats/t-interval.ts).

    python3 tests/reference/t_interval_fixtures.py

Source of truth: scipy.stats.t.ppf(p, df) and scipy.stats.t.interval(level, n-1, loc=mean, scale=sem)
with sem = scipy.stats.sem(x) (sample standard deviation, ddof=1, over sqrt(n)).
"""
import json
import os

import numpy as np
import scipy
import scipy.stats

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'stats', 't-interval.json')

quantiles = []
for df in [1, 2, 3, 5, 10, 29, 30, 49, 100, 188, 1000]:
    for p in [0.5, 0.6, 0.9, 0.95, 0.975, 0.995, 0.025]:
        quantiles.append({'p': p, 'df': df, 'x': float(scipy.stats.t.ppf(p, df))})

rng = np.random.default_rng(7)
samples = [
    [0.0, 1.0],
    [1.0, 0.5, 0.3333333333333333, 1.0, 0.25],
    list(rng.uniform(0, 1, 50)),
    list((rng.uniform(0, 1, 189) > 0.4).astype(float)),
    list(rng.beta(2, 5, 500)),
]
intervals = []
for x in samples:
    x = [float(v) for v in x]
    for level in [0.95, 0.9]:
        m = float(np.mean(x))
        lo, hi = scipy.stats.t.interval(level, len(x) - 1, loc=m, scale=scipy.stats.sem(x))
        intervals.append({'values': x, 'level': level, 'lo': float(lo), 'hi': float(hi)})

with open(OUT, 'w') as f:
    json.dump({'generator': f'scipy {scipy.__version__}', 'quantiles': quantiles, 'intervals': intervals}, f, indent=1)
    f.write('\n')
print(f'wrote {OUT}: {len(quantiles)} quantiles, {len(intervals)} intervals')
