#!/usr/bin/python3
"""Generates tests/fixtures/agreement/*.json (reference values for src/main/agreement).

Run with Debian's python (python3-sklearn, python3-statsmodels, python3-nltk, python3-scipy):
    /usr/bin/python3 tests/reference/agreement_fixtures.py

Each fixture holds a rating table (categories in order, annotators, items with queryId and
labels, null = missing) and expected values with their provenance:

  pairs[].cohenKappa{,Linear,Quadratic}  sklearn.metrics.cohen_kappa_score(y1, y2, labels=all category
                                         positions, weights=None|'linear'|'quadratic') on items both labeled
  pairs[].confusion                      sklearn.metrics.confusion_matrix(y1, y2, labels=...)
  fleissKappa                            statsmodels fleiss_kappa(aggregate_raters(X)[0]) on the items with
                                         the modal number of labels (the rule fleiss.ts documents)
  krippendorffAlpha.nominal              nltk AnnotationTask(distance=binary_distance).alpha()
  krippendorffAlpha.interval             nltk AnnotationTask(distance=interval_distance).alpha() on scale values
  krippendorffAlpha.ordinal / .ratio     direct implementation below (pairwise form, not the coincidence
                                         matrix), validated on Krippendorff's (2011) published example
  gwetAC1                                direct implementation of Gwet's formula below (no package),
                                         validated by hand on the wikipedia_kappa_example and tiny_missing
                                         fixtures (hand derivations written into those fixtures)
  percentAgreement, psa, nsa             direct implementation below
  pairs[].ci95                           (some fixtures) bootstrap over queries replayed with the same
                                         mulberry32 generator as the TypeScript code, sklearn kappa per resample

Values are compared in the tests with absolute tolerance 1e-9 (replayed bootstrap intervals included);
Krippendorff's published values to their 3 decimals.
Where the reference returns NaN (0/0), the expected value is null.
"""
import itertools
import json
import math
import os
import sys
from fractions import Fraction

import nltk
import numpy as np
import scipy
import sklearn
import statsmodels
from nltk.metrics.agreement import AnnotationTask
from nltk.metrics.distance import binary_distance, interval_distance
from sklearn.metrics import cohen_kappa_score, confusion_matrix
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mulberry32 import mulberry32, random_index, percentile_interval  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'agreement')
os.makedirs(OUT, exist_ok=True)
VERSIONS = {'python': sys.version.split()[0], 'numpy': np.__version__, 'scipy': scipy.__version__,
            'sklearn': sklearn.__version__, 'statsmodels': statsmodels.__version__, 'nltk': nltk.__version__}


def num(x):
    """float, or None for NaN (the JSON/TS 'undefined' value)."""
    x = float(x)
    return None if math.isnan(x) else x


# ------------------------------------------------------------------ direct implementations

def coded(ds):
    idx = {c: k for k, c in enumerate(ds['categories'])}
    return [[None if l is None else idx[l] for l in it['labels']] for it in ds['items']]


def scale_of(ds):
    cats = ds['categories']
    if ds.get('scale'):
        return ds['scale']
    return list(cats) if all(isinstance(c, (int, float)) for c in cats) else list(range(len(cats)))


def percent_agreement(rows):
    agree = pairs = 0
    for r in rows:
        v = [x for x in r if x is not None]
        if len(v) < 2:
            continue
        for i, j in itertools.permutations(range(len(v)), 2):
            pairs += 1
            agree += v[i] == v[j]
    return None if pairs == 0 else agree / pairs


def alpha_direct(rows, scale, metric):
    """Krippendorff's alpha in pairwise form: D_o = (1/n) sum_u sum_{i!=j} d2(v_ui, v_uj)/(m_u-1),
    D_e = sum_{c!=k} n_c n_k d2(c,k) / (n(n-1)), alpha = 1 - D_o/D_e."""
    units = [[x for x in r if x is not None] for r in rows]
    units = [u for u in units if len(u) >= 2]
    q = len(scale)
    nc = [0] * q
    for u in units:
        for x in u:
            nc[x] += 1
    n = sum(nc)
    if n == 0:
        return None

    def d2(c, k):
        if c == k:
            return 0.0
        if metric == 'nominal':
            return 1.0
        if metric == 'ordinal':
            lo, hi = min(c, k), max(c, k)
            return (sum(nc[lo:hi + 1]) - (nc[c] + nc[k]) / 2) ** 2
        if metric == 'interval':
            return float(scale[c] - scale[k]) ** 2
        if metric == 'ratio':
            s = scale[c] + scale[k]
            return 0.0 if s == 0 else ((scale[c] - scale[k]) / s) ** 2
        raise ValueError(metric)

    if metric == 'ratio' and any(nc[c] > 0 and scale[c] < 0 for c in range(q)):
        return None
    do = sum(d2(u[i], u[j]) / (len(u) - 1) for u in units for i, j in itertools.permutations(range(len(u)), 2)) / n
    de = sum(nc[c] * nc[k] * d2(c, k) for c in range(q) for k in range(q)) / (n * (n - 1))
    return None if de == 0 else 1 - do / de


def gwet_ac1(rows, q, exact=False):
    """Gwet's AC1 for multiple raters with missing ratings (Handbook of Inter-Rater Reliability, ch. 2):
    p_a = mean over items with r_i>=2 of sum_k r_ik(r_ik-1)/(r_i(r_i-1));
    pi_k = mean over items with r_i>=1 of r_ik/r_i;  p_e = sum_k pi_k(1-pi_k)/(q-1);
    AC1 = (p_a - p_e)/(1 - p_e)."""
    F = Fraction if exact else float
    pa = F(0)
    n2 = 0
    pi = [F(0)] * q
    n1 = 0
    for r in rows:
        v = [x for x in r if x is not None]
        ri = len(v)
        if ri == 0:
            continue
        cnt = [v.count(k) for k in range(q)]
        n1 += 1
        for k in range(q):
            pi[k] += F(cnt[k]) / ri
        if ri >= 2:
            n2 += 1
            pa += F(sum(c * (c - 1) for c in cnt)) / (ri * (ri - 1))
    if n2 == 0 or q < 2:
        return None
    pa /= n2
    pi = [p / n1 for p in pi]
    pe = sum(p * (1 - p) for p in pi) / (q - 1)
    return (pa - pe) / (1 - pe)


def gwet_ac1_two_raters(x, y, q):
    """Two-rater AC1 (Gwet 2008): pi_k = (p_Ak + p_Bk)/2 — used to cross-check gwet_ac1."""
    n = len(x)
    po = sum(a == b for a, b in zip(x, y)) / n
    pi = [(x.count(k) / n + y.count(k) / n) / 2 for k in range(q)]
    pe = sum(p * (1 - p) for p in pi) / (q - 1)
    return (po - pe) / (1 - pe)


def specific(x, y, mask):
    a = sum(mask[i] and mask[j] for i, j in zip(x, y))
    d = sum((not mask[i]) and (not mask[j]) for i, j in zip(x, y))
    bc = len(x) - a - d
    psa = None if 2 * a + bc == 0 else 2 * a / (2 * a + bc)
    nsa = None if 2 * d + bc == 0 else 2 * d / (2 * d + bc)
    return psa, nsa


def kappa(x, y, q, weights):
    with np.errstate(all='ignore'):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            return num(cohen_kappa_score(x, y, labels=list(range(q)), weights=weights))


def fleiss_modal(rows):
    sizes = [sum(x is not None for x in r) for r in rows]
    rated = [s for s in sizes if s >= 2]
    if not rated:
        return None, 0, 0
    freq = {}
    for s in rated:
        freq[s] = freq.get(s, 0) + 1
    m = max(freq, key=lambda s: (freq[s], s))
    X = np.array([[x for x in r if x is not None] for r, s in zip(rows, sizes) if s == m])
    table, _ = aggregate_raters(X)
    with np.errstate(all='ignore'):
        k = num(fleiss_kappa(table, method='fleiss'))
    return k, len(X), m


def nltk_alpha(rows, annotators, values, distance):
    data = [(annotators[j], str(i), values[x]) for i, r in enumerate(rows) for j, x in enumerate(r) if x is not None]
    return float(AnnotationTask(data=data, distance=distance).alpha())


def bootstrap_pair_kappa(ds, rows, a, b, resamples, seed, level):
    q = len(ds['categories'])
    queries, groups = [], {}
    for i, it in enumerate(ds['items']):
        if it['queryId'] not in groups:
            groups[it['queryId']] = []
            queries.append(it['queryId'])
        groups[it['queryId']].append(i)
    Q = len(queries)
    g = mulberry32(seed)
    vals, undef = [], 0
    for _ in range(resamples):
        drawn = [random_index(g, Q) for _ in range(Q)]
        idx = [i for d in drawn for i in groups[queries[d]]]
        pairs = [(rows[i][a], rows[i][b]) for i in idx if rows[i][a] is not None and rows[i][b] is not None]
        k = kappa([p[0] for p in pairs], [p[1] for p in pairs], q, None) if pairs else None
        if k is None:
            undef += 1
        else:
            vals.append(k)
    return (percentile_interval(vals, level) if vals else None), undef


# ------------------------------------------------------------------ expected values

def expected(ds, bootstrap=None):
    rows = coded(ds)
    q = len(ds['categories'])
    scale = scale_of(ds)
    ann = ds['annotators']
    pos = ds.get('positive')
    if pos is None:
        mask = [False, True] if q == 2 else None
    else:
        mask = [c in pos for c in ds['categories']]
    pairs = []
    for a, b in itertools.combinations(range(len(ann)), 2):
        both = [(r[a], r[b]) for r in rows if r[a] is not None and r[b] is not None]
        x = [p[0] for p in both]
        y = [p[1] for p in both]
        e = {'a': ann[a], 'b': ann[b], 'items': len(both)}
        if both:
            e['percentAgreement'] = sum(i == j for i, j in both) / len(both)
            e['cohenKappa'] = kappa(x, y, q, None)
            e['cohenKappaLinear'] = kappa(x, y, q, 'linear')
            e['cohenKappaQuadratic'] = kappa(x, y, q, 'quadratic')
            e['confusion'] = confusion_matrix(x, y, labels=list(range(q))).tolist()
            e['psa'], e['nsa'] = specific(x, y, mask) if mask else (None, None)
        else:
            e.update({'percentAgreement': None, 'cohenKappa': None, 'cohenKappaLinear': None,
                      'cohenKappaQuadratic': None, 'confusion': [[0] * q for _ in range(q)], 'psa': None, 'nsa': None})
        if bootstrap:
            ci, undef = bootstrap_pair_kappa(ds, rows, a, b, **bootstrap)
            e['ci95'] = ci
            e['ci95UndefinedResamples'] = undef
        pairs.append(e)
    fk, fitems, fm = fleiss_modal(rows)
    nltk_values = scale  # label value passed to NLTK for category position k
    alpha = {m: alpha_direct(rows, scale, m) for m in ['nominal', 'ordinal', 'interval', 'ratio']}
    nltk_nominal = nltk_alpha(rows, ann, list(ds['categories']), binary_distance)
    nltk_interval = nltk_alpha(rows, ann, nltk_values, interval_distance)
    # NLTK and the direct implementation must agree whenever alpha is defined
    if alpha['nominal'] is not None:
        assert abs(nltk_nominal - alpha['nominal']) < 1e-12, (nltk_nominal, alpha['nominal'])
    if alpha['interval'] is not None:
        assert abs(nltk_interval - alpha['interval']) < 1e-12, (nltk_interval, alpha['interval'])
    exp = {
        'percentAgreement': percent_agreement(rows),
        'fleissKappa': {'value': fk, 'itemsUsed': fitems, 'ratersPerItem': fm},
        'krippendorffAlpha': {
            'nominal': nltk_nominal if alpha['nominal'] is not None else None,
            'ordinal': alpha['ordinal'],
            'interval': nltk_interval if alpha['interval'] is not None else None,
            'ratio': alpha['ratio'],
        },
        'nltkAlphaRaw': {'nominal': nltk_nominal, 'interval': nltk_interval},
        'gwetAC1': gwet_ac1(rows, q),
        'pairs': pairs,
    }
    if len(ann) == 2 and all(x is not None for r in rows for x in r):
        two = gwet_ac1_two_raters([r[0] for r in rows], [r[1] for r in rows], q)
        assert abs(two - exp['gwetAC1']) < 1e-12
    return exp


def write(name, ds, description, bootstrap=None, extra=None):
    obj = {'name': name, 'description': description, 'generatedBy': 'tests/reference/agreement_fixtures.py',
           'versions': VERSIONS, **ds}
    obj['expected'] = expected(ds, bootstrap)
    if bootstrap:
        obj['bootstrap'] = bootstrap
    if extra:
        obj.update(extra)
    with open(os.path.join(OUT, name + '.json'), 'w') as f:
        json.dump(obj, f, indent=1)
        f.write('\n')
    return obj


# ------------------------------------------------------------------ datasets

def items_from(labels, per_query, prefix='q'):
    return [{'id': f'{prefix}{i // per_query}-c{i % per_query}', 'queryId': f'{prefix}{i // per_query}',
             'labels': [None if l is None else (l.item() if hasattr(l, 'item') else l) for l in row]}
            for i, row in enumerate(labels)]


rng = np.random.default_rng(12345)

# 1. AskUbuntu-like binary, ~10% positive, 3 annotators, no missing labels
truth = rng.uniform(size=300) < 0.10
lab = []
for t in truth:
    row = []
    for _ in range(3):
        row.append(int(rng.uniform() > 0.25) if t else int(rng.uniform() < 0.03))
    lab.append(row)
write('binary_skewed', {'categories': [0, 1], 'annotators': ['ann1', 'ann2', 'ann3'],
                        'items': items_from(lab, 5)},
      'AskUbuntu-like: 60 queries x 5 candidates, ~10% duplicates, 3 annotators, complete.',
      bootstrap={'resamples': 200, 'seed': 42, 'level': 0.95})

# 2. binary with missing labels, 5 annotators, 2..5 labels per item
lab = []
for _ in range(160):
    t = rng.uniform() < 0.3
    k = int(rng.integers(2, 6))
    who = set(rng.choice(5, size=k, replace=False).tolist())
    lab.append([(int(rng.uniform() > 0.2) if t else int(rng.uniform() < 0.1)) if j in who else None for j in range(5)])
write('binary_missing', {'categories': [0, 1], 'annotators': ['a', 'b', 'c', 'd', 'e'], 'items': items_from(lab, 4)},
      '40 queries x 4 candidates, 5 annotators, each item labeled by 2-5 of them (missing labels); '
      'Fleiss on the modal-size subset.')

# 3. SemEval-like 3-way ordered, string categories, 3 annotators, ~10% missing for annotator 3
cats3 = ['Irrelevant', 'Relevant', 'PerfectMatch']
lab = []
for _ in range(150):
    t = rng.choice(3, p=[0.6, 0.3, 0.1])
    row = []
    for j in range(3):
        v = int(np.clip(t + rng.choice([-1, 0, 0, 0, 1]), 0, 2))
        row.append(None if (j == 2 and rng.uniform() < 0.1) else cats3[v])
    lab.append(row)
write('semeval_3way', {'categories': cats3, 'annotators': ['r1', 'r2', 'r3'], 'items': items_from(lab, 3),
                       'positive': ['Relevant', 'PerfectMatch']},
      'SemEval-like ordered 3-way scale Irrelevant<Relevant<PerfectMatch (scale values 0,1,2 = positions), '
      '50 queries x 3, 3 annotators, ~10% of r3 missing; PSA/NSA with Relevant+PerfectMatch positive.',
      bootstrap={'resamples': 150, 'seed': 7, 'level': 0.9})

# 4. 5-point Likert -2..+2, 4 annotators, ~15% missing
lab = []
for _ in range(120):
    t = rng.normal(-0.5, 1.2)
    row = []
    for j in range(4):
        v = int(np.clip(round(t + rng.normal(0, 0.7) + (0.3 if j == 1 else 0)), -2, 2))
        row.append(None if rng.uniform() < 0.15 else v)
    lab.append(row)
write('likert5', {'categories': [-2, -1, 0, 1, 2], 'annotators': ['u1', 'u2', 'u3', 'u4'], 'items': items_from(lab, 4),
                  'positive': [1, 2]},
      '5-point Likert -2..+2, 30 queries x 4, 4 annotators, ~15% missing; ratio alpha undefined '
      '(negative values); PSA/NSA with +1,+2 positive.')

# 5. Krippendorff (2011) example: 4 coders, 12 units, missing values
K = {'A': [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
     'B': [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
     'C': [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
     'D': [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]}
kds = {'categories': [1, 2, 3, 4, 5], 'annotators': ['A', 'B', 'C', 'D'],
       'items': [{'id': f'u{u + 1}', 'queryId': f'u{u + 1}', 'labels': [K[c][u] for c in 'ABCD']} for u in range(12)]}
published = {'nominal': 0.743, 'ordinal': 0.815, 'interval': 0.849, 'ratio': 0.797}
kobj = write('krippendorff2011', kds,
             "Krippendorff (2011) 'Computing Krippendorff's Alpha-Reliability', reliability data with missing values "
             '(4 coders, 12 units). Published alphas (3 decimals) in `published`; full-precision values in expected.',
             extra={'published': published})
for m, v in published.items():
    got = kobj['expected']['krippendorffAlpha'][m] if m != 'ratio' else kobj['expected']['krippendorffAlpha']['ratio']
    assert round(got, 3) == v, (m, got, v)

# 6. Wikipedia's Cohen's kappa example, with hand-derived AC1
wl = [['Yes', 'Yes']] * 20 + [['Yes', 'No']] * 5 + [['No', 'Yes']] * 10 + [['No', 'No']] * 15
wobj = write('wikipedia_kappa_example',
             {'categories': ['No', 'Yes'], 'annotators': ['A', 'B'], 'items': items_from(wl, 5)},
             "Two readers, 50 proposals (Wikipedia 'Cohen's kappa' example): both Yes 20, A Yes/B No 5, "
             'A No/B Yes 10, both No 15.',
             extra={'handDerivation': {
                 'cohenKappa': 'p_o = 35/50 = 0.7; p_e = 0.5*0.6 + 0.5*0.4 = 0.5; kappa = 0.2/0.5 = 0.4',
                 'gwetAC1': 'pi_Yes = (25/50 + 30/50)/2 = 0.55, pi_No = 0.45; p_e = 2*0.55*0.45/(2-1) = 0.495; '
                            'AC1 = (0.7 - 0.495)/(1 - 0.495) = 0.205/0.505 = 41/101 = 0.40594059405940597',
                 'psa': '2*20/(2*20 + 5 + 10) = 40/55 = 8/11', 'nsa': '2*15/(2*15 + 15) = 30/45 = 2/3',
                 'values': {'cohenKappa': 0.4, 'gwetAC1': 41 / 101, 'psa': 8 / 11, 'nsa': 2 / 3}}})
assert abs(wobj['expected']['gwetAC1'] - 41 / 101) < 1e-12
assert abs(wobj['expected']['pairs'][0]['cohenKappa'] - 0.4) < 1e-12

# 7. Tiny multi-rater table with missing ratings, AC1 by hand (exact fractions)
tl = [[0, 0, 0], [0, 1, None], [1, 1, 2], [2, None, None], [None, 2, 2]]
tds = {'categories': [0, 1, 2], 'annotators': ['x', 'y', 'z'], 'items': items_from(tl, 2)}
exact = gwet_ac1(coded(tds), 3, exact=True)
hand = {'pa': Fraction(1 + 0 + Fraction(1, 3) + 1, 4),  # items 1,2,3,5 have >= 2 ratings
        'pi': [Fraction(1 + Fraction(1, 2) + 0 + 0 + 0, 5), Fraction(0 + Fraction(1, 2) + Fraction(2, 3), 5),
               Fraction(Fraction(1, 3) + 1 + 1, 5)]}
hand['pe'] = sum(p * (1 - p) for p in hand['pi']) / 2
hand_ac1 = (hand['pa'] - hand['pe']) / (1 - hand['pe'])
assert hand_ac1 == exact, (hand_ac1, exact)
write('tiny_missing', tds,
      'Five items, three raters, missing ratings; Gwet AC1 derived by hand with exact fractions.',
      extra={'handDerivation': {
          'pa': f"items with >=2 ratings: (1 + 0 + 1/3 + 1)/4 = {hand['pa']}",
          'pi': f"pi_0 = (1 + 1/2)/5 = {hand['pi'][0]}, pi_1 = (1/2 + 2/3)/5 = {hand['pi'][1]}, "
                f"pi_2 = (1/3 + 1 + 1)/5 = {hand['pi'][2]}",
          'pe': f"sum pi(1-pi)/(3-1) = {hand['pe']}",
          'gwetAC1': f'(pa - pe)/(1 - pe) = {hand_ac1} = {float(hand_ac1)!r}'}})

# 8. Degenerate: everyone uses one category
dl = [[0, 0]] * 10
write('degenerate_one_category', {'categories': [0, 1], 'annotators': ['p', 'q'], 'items': items_from(dl, 5)},
      'Both annotators label every item 0: kappa (sklearn NaN), Fleiss (statsmodels NaN) and alpha are 0/0 -> null; '
      'NLTK alpha returns 1 here by convention (see nltkAlphaRaw) but the TypeScript code reports null; '
      'AC1 = 1, percent agreement = 1, NSA = 1, PSA undefined.')
print('wrote', OUT)
