#!/usr/bin/python3
"""The plain scikit-learn peer of `npm run bench:semeval` (SemEval-2016 Task 3 subtask B).

Run by scripts/bench/semeval-models.ts with Debian's python (python3-sklearn, numpy, scipy):
    /usr/bin/python3 tests/reference/semeval_peer.py --data DIR --folds FOLDS.json

FOLDS.json (written by the bench, so both use the same folds): {"distinct": [query ids],
"select": [[[ids of fold 1], ...], ...], "report": [...], "cleanTrain": [part2 ids],
"leakyTrain": [part1 + part2 ids]}. Prints one JSON line: {"cvMAP", "cvCI", "cleanDevMAP",
"cleanDevCI", "leakyDevMAP", "chosen"} (MAP as fractions; AP = 0 for a query without a relevant
candidate).

Model: a pairwise linear SVM (LinearSVC, squared hinge, no intercept) on the standardised feature
differences x_i - x_j of every (relevant i, irrelevant j) pair of a query, labels alternating +1/-1.
C is chosen by mean CV MAP on the "select" repeats and reported on the "report" repeats.
Features (~24) of a candidate in its query's list of 10:
  engine 1/rank and rank; BM25 of the query in the candidate (title+body, title->title);
  TF-IDF cosine (word 1-2-grams, English stop words, sublinear tf) of title+body, titles, bodies;
  character 2-5-gram TF-IDF cosine (char_wb, sublinear tf, fitted on the question texts) of
  title+body, titles, bodies; LSA cosine (150-dim TruncatedSVD of the TF-IDF matrix); same category
  (share of the list in the candidate's category: the original questions carry none); content-word
  overlap (coverage, Jaccard), lengths; cosine of idf-weighted mean word vectors of title+body,
  titles, bodies, and the soft word alignment of the query's words in the candidate (each query
  word's best cosine match, idf-weighted), where the words are Porter-stemmed (NLTK, Martin's
  reference variant = Lucene's) tokens minus scikit-learn's ENGLISH_STOP_WORDS, and the vectors a
  PPMI (context smoothing 0.75, window 5 weighted 1/distance) + truncated-SVD (200) embedding fitted
  on all the workspace's text (every question and comment of the three files).
Topic features (`--topic`, off by default: on the selection repeats they lower the peer's CV,
75.63 vs 76.02 at the best C): a category classifier (multinomial
LogisticRegression, C = 1, on the idf-weighted text vectors of every question with a category of
>= 5 questions; category metadata, no relevance labels) gives P(category of c | q) and
sum_k P(k | q) P(k | c).
`--plain` gives the former peer (unstemmed, window 10 unweighted, 150 dims, plain means, no
character n-grams, no alignment).
"""
import argparse
import json
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

import numpy as np
import scipy.sparse as sp
import scipy.stats
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.extmath import randomized_svd
from nltk.stem.porter import PorterStemmer

FILES = {
    'part1': 'SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml',
    'part2': 'SemEval2016-Task3-CQA-QL-train-part2.xml',
    'dev': 'SemEval2016-Task3-CQA-QL-dev.xml',
}
WORD = re.compile(r'[^\W_]+', re.UNICODE)
RELEVANT = ('PerfectMatch', 'Relevant')


def tokens(text):
    return WORD.findall(text.lower())


def content(toks):
    return [t for t in toks if t not in ENGLISH_STOP_WORDS]


STRONG = True
TOPIC = False
_stemmer = PorterStemmer(PorterStemmer.MARTIN_EXTENSIONS)
_stems = {}


def emb_words(toks):
    """Words of the embedding features: content words, Porter-stemmed (unless --plain)."""
    if not STRONG:
        return content(toks)
    out = []
    for t in content(toks):
        s = _stems.get(t)
        if s is None:
            s = _stems[t] = _stemmer.stem(t)
        out.append(s)
    return out


def parse(path):
    # datasets/ ships the XML gzip-compressed: read the file, or its .gz copy.
    if not os.path.exists(path) and os.path.exists(path + '.gz'):
        import gzip
        with gzip.open(path + '.gz') as f:
            root = ET.parse(f).getroot()
    else:
        root = ET.parse(path).getroot()
    orgs, comments = {}, []
    for oq in root.iter('OrgQuestion'):
        oid = oq.get('ORGQ_ID')
        o = orgs.setdefault(oid, {'id': oid, 'title': (oq.findtext('OrgQSubject') or '').strip(),
                                  'body': (oq.findtext('OrgQBody') or '').strip(), 'rel': []})
        for th in oq.iter('Thread'):
            rq = th.find('RelQuestion')
            if not any(r['id'] == rq.get('RELQ_ID') for r in o['rel']):
                o['rel'].append({'id': rq.get('RELQ_ID'), 'rank': int(rq.get('RELQ_RANKING_ORDER')),
                                 'category': rq.get('RELQ_CATEGORY') or '',
                                 'relevant': rq.get('RELQ_RELEVANCE2ORGQ') in RELEVANT,
                                 'title': (rq.findtext('RelQSubject') or '').strip(),
                                 'body': (rq.findtext('RelQBody') or '').strip()})
            for c in th.iter('RelCText'):
                comments.append((c.text or '').strip())
    for o in orgs.values():
        o['rel'].sort(key=lambda r: r['rank'])
    return orgs, comments


def ppmi_vectors(docs, window=10, min_count=3, dim=150, alpha=0.75, harmonic=False):
    freq = {}
    for d in docs:
        for t in d:
            freq[t] = freq.get(t, 0) + 1
    words = sorted((w for w, c in freq.items() if c >= min_count), key=lambda w: (-freq[w], w))
    index = {w: i for i, w in enumerate(words)}
    rows, cols, vals = [], [], []
    for d in docs:
        ids = [index.get(t, -1) for t in d]
        for i, a in enumerate(ids):
            if a < 0:
                continue
            for j in range(i + 1, min(i + window + 1, len(ids))):
                b = ids[j]
                if b >= 0:
                    rows += [a, b]
                    cols += [b, a]
                    w = 1.0 / (j - i) if harmonic else 1.0
                    vals += [w, w]
    V = len(words)
    counts = sp.csr_matrix((np.array(vals), (rows, cols)), shape=(V, V))
    counts.sum_duplicates()
    row_sum = np.asarray(counts.sum(axis=1)).ravel()
    col_pow = np.asarray(counts.sum(axis=0)).ravel() ** alpha
    coo = counts.tocoo()
    pmi = np.log(coo.data * col_pow.sum() / (row_sum[coo.row] * col_pow[coo.col]))
    keep = pmi > 0
    m = sp.csr_matrix((pmi[keep], (coo.row[keep], coo.col[keep])), shape=(V, V))
    u, s, _ = randomized_svd(m, dim, n_iter=5, random_state=1)
    vec = u * np.sqrt(s)
    vec /= np.maximum(np.linalg.norm(vec, axis=1, keepdims=True), 1e-12)
    return index, vec


def unit(m):
    n = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.maximum(n, 1e-12)


class Features:
    def __init__(self, questions, corpus):
        self.q = questions
        tok_corpus = [tokens(t) for t in corpus]
        self.tfidf = TfidfVectorizer(token_pattern=r'(?u)\b\w+\b', ngram_range=(1, 2), stop_words='english',
                                     sublinear_tf=True, min_df=2).fit(corpus)
        full = self.tfidf.transform(corpus)
        self.lsa = TruncatedSVD(150, random_state=1).fit(full)
        df = {}
        lens = []
        for d in tok_corpus:
            lens.append(len(d))
            for t in set(d):
                df[t] = df.get(t, 0) + 1
        self.n, self.df, self.avgdl = len(corpus), df, float(np.mean(lens))
        words = [emb_words(d) for d in tok_corpus]
        if STRONG:
            self.index, self.vec = ppmi_vectors(words, window=5, dim=200, harmonic=True)
            qtexts = [q['title'] + '\n' + q['body'] for q in questions.values()]
            self.char = TfidfVectorizer(analyzer='char_wb', ngram_range=(2, 5), sublinear_tf=True, min_df=2).fit(qtexts)
        else:
            self.index, self.vec = ppmi_vectors(words)
        edf = {}
        for d in words:
            for t in set(d):
                edf[t] = edf.get(t, 0) + 1
        # smoothed idf of the embedding words: ln((1 + N) / (1 + df)) + 1
        self.eidf = {t: math.log((1 + self.n) / (1 + c)) + 1 for t, c in edf.items()}
        self.cache = {}
        self.topic = None
        if TOPIC:
            # category classifier (multinomial logistic regression) on the questions' text vectors:
            # category metadata of the related questions, no relevance labels
            cat_count = {}
            for q in questions.values():
                if q.get('category'):
                    cat_count[q['category']] = cat_count.get(q['category'], 0) + 1
            ids = sorted(qid for qid, q in questions.items() if cat_count.get(q.get('category'), 0) >= 5)
            X = np.array([self.meanvec(tokens(questions[i]['title'] + '\n' + questions[i]['body'])) for i in ids])
            self.topic = LogisticRegression(C=1.0, max_iter=2000).fit(X, [questions[i]['category'] for i in ids])
            self.topic_index = {c: k for k, c in enumerate(self.topic.classes_)}

    def bm25(self, qt, dt, k1=1.2, b=0.75):
        tf = {}
        for t in dt:
            tf[t] = tf.get(t, 0) + 1
        s = 0.0
        for t in set(qt):
            f = tf.get(t)
            if f:
                dfv = self.df.get(t, 0)
                idf = math.log(1 + (self.n - dfv + 0.5) / (dfv + 0.5))
                s += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * len(dt) / self.avgdl))
        return s

    def meanvec(self, toks):
        ws = [t for t in emb_words(toks) if t in self.index]
        if not ws:
            return np.zeros(self.vec.shape[1])
        rows = [self.index[t] for t in ws]
        if STRONG:
            v = np.asarray([self.eidf[t] for t in ws]) @ self.vec[rows]
        else:
            v = self.vec[rows].mean(axis=0)
        return v / max(np.linalg.norm(v), 1e-12)

    def align(self, q, c):
        """Soft alignment: sum_w idf(w) max_u cos(v_w, v_u) / sum_w idf(w) over distinct known words."""
        if len(q['arows']) == 0 or len(c['arows']) == 0:
            return 0.0
        best = (self.vec[q['arows']] @ self.vec[c['arows']].T).max(axis=1)
        return float(q['aidf'] @ best / q['aidf'].sum())

    def info(self, qid):
        if qid not in self.cache:
            q = self.q[qid]
            full = q['title'] + '\n' + q['body']
            tf = self.tfidf.transform([full, q['title'], q['body']])
            toks, ttoks, btoks = tokens(full), tokens(q['title']), tokens(q['body'])
            self.cache[qid] = {
                'tf': tf, 'lsa': unit(self.lsa.transform(tf[0]))[0], 'toks': toks, 'ttoks': ttoks,
                'words': set(content(toks)),
                'emb': [self.meanvec(toks), self.meanvec(ttoks), self.meanvec(btoks)],
            }
            if self.topic is not None:
                self.cache[qid]['topic'] = self.topic.predict_proba(self.cache[qid]['emb'][0][None, :])[0]
            if STRONG:
                ws = sorted({t for t in emb_words(toks) if t in self.index})
                self.cache[qid]['arows'] = [self.index[t] for t in ws]
                self.cache[qid]['aidf'] = np.asarray([self.eidf[t] for t in ws])
                self.cache[qid]['char'] = self.char.transform([full, q['title'], q['body']])
        return self.cache[qid]

    def rows(self, org):
        q = self.info(org['id'])
        cats = {}
        for r in org['rel']:
            cats[r['category']] = cats.get(r['category'], 0) + 1
        bm = [self.bm25(content(q['toks']), self.info(r['id'])['toks']) for r in org['rel']]
        bmt = [self.bm25(content(q['ttoks']), self.info(r['id'])['ttoks']) for r in org['rel']]
        out = []
        for k, r in enumerate(org['rel']):
            c = self.info(r['id'])
            cos = [float(q['tf'][i].multiply(c['tf'][i]).sum()) for i in range(3)]
            inter = len(q['words'] & c['words'])
            out.append([1.0 / (k + 1), -float(r['rank']), bm[k], bmt[k], *cos, float(q['lsa'] @ c['lsa']),
                        cats[r['category']] / len(org['rel']),
                        inter / max(1, len(q['words'])), inter / max(1, len(q['words'] | c['words'])),
                        math.log1p(len(c['toks'])), abs(math.log1p(len(q['toks'])) - math.log1p(len(c['toks']))),
                        *[float(q['emb'][i] @ c['emb'][i]) for i in range(3)],
                        *([float(q['char'][i].multiply(c['char'][i]).sum()) for i in range(3)] + [self.align(q, c)]
                          if STRONG else []),
                        *([float(q['topic'][self.topic_index[r['category']]]) if r['category'] in self.topic_index else 0.0,
                           float(q['topic'] @ c['topic'])] if self.topic is not None else [])])
        return np.array(out)


def average_precision(scores, rel):
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    hits, s = 0, 0.0
    for k, i in enumerate(order):
        if rel[i]:
            hits += 1
            s += hits / (k + 1)
    return s / hits if hits else 0.0


def fit(lists, C):
    X = np.vstack([x for x, _ in lists])
    scaler = StandardScaler().fit(X)
    diffs, labels = [], []
    for x, y in lists:
        z = scaler.transform(x)
        for i in np.flatnonzero(y):
            for j in np.flatnonzero(~y):
                sign = 1 if len(labels) % 2 == 0 else -1
                diffs.append(sign * (z[i] - z[j]))
                labels.append(sign)
    svm = LinearSVC(C=C, fit_intercept=False, loss='squared_hinge', dual=True, max_iter=20000, tol=1e-5)
    svm.fit(np.array(diffs), np.array(labels))
    w = svm.coef_.ravel()
    return lambda x: scaler.transform(x) @ w


def evaluate(model, lists):
    return [average_precision(model(x), y) for x, y in lists]


def interval(values):
    v = np.asarray(values, dtype=float)
    m, sem = v.mean(), v.std(ddof=1) / math.sqrt(len(v))
    if sem == 0:
        return [m, m]
    lo, hi = scipy.stats.t.interval(0.95, len(v) - 1, loc=m, scale=sem)
    return [float(lo), float(hi)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', required=True)
    ap.add_argument('--folds', required=True)
    ap.add_argument('--plain', action='store_true', help='the former peer: plain word vectors, no character n-grams or alignment')
    ap.add_argument('--topic', action='store_true', help='with the category classifier features (off: they lower its CV on the selection repeats)')
    args = ap.parse_args()
    global STRONG, TOPIC
    STRONG = not args.plain
    TOPIC = STRONG and args.topic
    with open(args.folds) as f:
        folds = json.load(f)
    orgs, questions, corpus = {}, {}, []
    for key in ('part1', 'part2', 'dev'):
        o, comments = parse(os.path.join(args.data, FILES[key]))
        for org in o.values():
            org['file'] = key
            orgs[org['id']] = org
            questions[org['id']] = org
            corpus.append(org['title'] + '\n' + org['body'])
            for r in org['rel']:
                questions[r['id']] = r
                corpus.append(r['title'] + '\n' + r['body'])
        corpus += comments
    feats = Features(questions, corpus)
    lists = {qid: (feats.rows(o), np.array([r['relevant'] for r in o['rel']])) for qid, o in orgs.items()}

    def cv(repeat, C):
        ap_of = {}
        for fold in repeat:
            held = set(fold)
            model = fit([lists[q] for q in folds['distinct'] if q not in held], C)
            for q in fold:
                ap_of[q] = evaluate(model, [lists[q]])[0]
        return [ap_of[q] for q in folds['distinct']]

    grid = [0.001, 0.01, 0.1, 1.0]
    sel = {C: np.mean([np.mean(cv(r, C)) for r in folds['select']]) for C in grid}
    C = max(grid, key=lambda c: sel[c])
    print('peer selection: ' + ', '.join(f'C={c}: {100 * m:.2f}' for c, m in sel.items()), file=sys.stderr)
    per_query = np.mean([cv(r, C) for r in folds['report']], axis=0)
    dev_ids = [q for q, o in orgs.items() if o['file'] == 'dev']
    dev = [lists[q] for q in dev_ids]
    clean = evaluate(fit([lists[q] for q in folds['cleanTrain']], C), dev)
    leaky = evaluate(fit([lists[q] for q in folds['leakyTrain']], C), dev)
    # per-query APs too (CV: aligned with folds['distinct']; clean dev: with devIds), for paired comparisons
    print(json.dumps({'cvMAP': float(per_query.mean()), 'cvCI': interval(per_query), 'cleanDevMAP': float(np.mean(clean)),
                      'cleanDevCI': interval(clean), 'leakyDevMAP': float(np.mean(leaky)), 'chosen': f'C={C}',
                      'cvPerQuery': [float(x) for x in per_query], 'devIds': dev_ids, 'cleanDevPerQuery': [float(x) for x in clean]}))


if __name__ == '__main__':
    main()
