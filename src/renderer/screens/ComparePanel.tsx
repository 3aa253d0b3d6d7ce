/**
 * The Evaluate screen's ranker comparison (eval.compare): chosen runs on one per-query metric,
 * per pair of runs the mean difference with its bootstrap 95% CI, the paired t-test and the
 * paired permutation (sign-flip) test, both Holm-adjusted over the compared pairs, and whether
 * each rejects at the chosen family-wise level.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { CompareView, Convention } from '../../shared/contract';
import { COMPARE_METRICS, type CompareMetric } from '../../shared/gold';
import { useApp, useEvent } from '../lib/context';
import { errorMessage, fmtInt } from '../lib/format';
import { showCI, showP, showStat } from '../lib/stats';
import { StatValue } from '../components/StatValue';
import { useDebounced } from '../lib/hooks';

export function ComparePanel({ pool, annotator, convention, runNames }: { pool: string; annotator: string; convention: Convention; runNames: string[] }): ReactNode {
  const { client } = useApp();
  const [picked, setPicked] = useState<string[] | null>(null);
  const [metric, setMetric] = useState<CompareMetric>('AP');
  const [baseline, setBaseline] = useState('');
  const [alpha, setAlpha] = useState(0.05);
  const [bootstrap, setBootstrap] = useState(1000);
  const [permutations, setPermutations] = useState(10000);
  const [seed, setSeed] = useState(1);
  const [view, setView] = useState<CompareView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    setPicked(null);
    setBaseline('');
  }, [pool]);
  const runs = (picked ?? runNames).filter((r) => runNames.includes(r));
  const key = runNames.join('\u0000');

  const seq = useRef(0);
  const compare = useCallback(async () => {
    if (!pool || runs.length < 2) {
      setView(null);
      return;
    }
    const my = ++seq.current;
    setLoading(true);
    try {
      const v = await client.invoke('eval.compare', {
        pool,
        runs,
        metric,
        convention,
        bootstrap,
        permutations,
        seed,
        alpha,
        ...(annotator ? { annotator } : {}),
        ...(baseline && runs.includes(baseline) ? { baseline } : {}),
      });
      if (my !== seq.current) return;
      setView(v);
      setError(null);
    } catch (e) {
      if (my === seq.current) {
        setError(errorMessage(e));
        setView(null);
      }
    } finally {
      if (my === seq.current) setLoading(false);
    }
    // runs is derived from picked and runNames (key)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, pool, annotator, convention, metric, baseline, alpha, bootstrap, permutations, seed, picked, key]);
  useEffect(() => void compare(), [compare]);

  const recompare = useDebounced(() => void compare(), 700);
  useEvent('label.changed', (rec) => {
    if (rec.pool === pool) recompare();
  });

  const toggle = (r: string): void => {
    const cur = picked ?? runNames;
    setPicked(cur.includes(r) ? cur.filter((x) => x !== r) : runNames.filter((x) => x === r || cur.includes(x)));
  };

  return (
    <section className="card" data-testid="compare-panel">
      <div className="row wrap">
        <h2 className="grow">Compare rankers</h2>
        <label className="inline">
          Metric
          <select data-testid="compare-metric" value={metric} onChange={(e) => setMetric(e.target.value as CompareMetric)}>
            {COMPARE_METRICS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <label className="inline" title="compare every run with this one instead of every pair">
          Baseline
          <select data-testid="compare-baseline" value={baseline} onChange={(e) => setBaseline(e.target.value)}>
            <option value="">(every pair)</option>
            {runs.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label className="inline" title="family-wise significance level (Holm)">
          α
          <input type="number" step="0.01" min={0.001} max={0.5} size={4} data-testid="compare-alpha" value={alpha} onChange={(e) => setAlpha(Math.min(0.5, Math.max(0.001, Number(e.target.value) || 0.05)))} />
        </label>
        <details className="inline-details">
          <summary className="small">resampling</summary>
          <label className="inline small">
            bootstrap
            <input type="number" min={1} size={6} value={bootstrap} onChange={(e) => setBootstrap(Math.max(1, Math.floor(Number(e.target.value) || 1)))} data-testid="compare-bootstrap" />
          </label>
          <label className="inline small">
            permutations
            <input type="number" min={1} size={7} value={permutations} onChange={(e) => setPermutations(Math.max(1, Math.floor(Number(e.target.value) || 1)))} data-testid="compare-permutations" />
          </label>
          <label className="inline small">
            seed
            <input type="number" size={5} value={seed} onChange={(e) => setSeed(Math.floor(Number(e.target.value) || 0))} data-testid="compare-seed" />
          </label>
        </details>
      </div>
      <fieldset className="radio-row wrap" data-testid="compare-runs">
        <legend>Runs</legend>
        {runNames.map((r) => (
          <label key={r} className="inline">
            <input type="checkbox" data-testid={`compare-run-${r}`} checked={runs.includes(r)} onChange={() => toggle(r)} />
            {r}
          </label>
        ))}
      </fieldset>
      {runNames.length < 2 && <p className="muted">Comparing needs two or more runs in the pool (import a TREC run into it on the Workspace screen).</p>}
      {runNames.length >= 2 && runs.length < 2 && <p className="muted">Choose two or more runs.</p>}
      {error && (
        <p className="error" role="alert" data-testid="compare-error">
          {error}
        </p>
      )}
      {view && (
        <>
          <p className="small muted" data-testid="compare-summary">
            {view.metric} per query on <strong data-testid="compare-queries">{fmtInt(view.queries)}</strong> queries labeled by <strong>{view.annotator}</strong> ·
            convention {view.convention} · bootstrap {fmtInt(view.bootstrap.resamples)} (seed {view.bootstrap.seed}) · {fmtInt(view.permutations)} permutations · Holm at α ={' '}
            {view.alpha}
            {loading && ' · updating…'}
          </p>
          <p className="small">
            {view.runs.map((r) => (
              <span key={r.name} className="run-mean" data-testid={`compare-mean-${r.name}`}>
                {r.name}: <StatValue shown={showStat(r.mean)} />
              </span>
            ))}
          </p>
          {view.pairs.length > 0 && (
            <div className="table-scroll">
              <table className="data compare" data-testid="compare-table">
                <thead>
                  <tr>
                    <th>A − B</th>
                    <th className="num">n</th>
                    <th className="num">Δ mean</th>
                    <th className="num">95% CI (bootstrap)</th>
                    <th className="num">t</th>
                    <th className="num">p (t-test)</th>
                    <th className="num">p (permutation)</th>
                    <th className="num">Holm p (t)</th>
                    <th className="num">Holm p (perm.)</th>
                    <th>Reject H₀ (t / perm.)</th>
                  </tr>
                </thead>
                <tbody>
                  {view.pairs.map((p) => (
                    <tr key={`${p.a}|${p.b}`} data-testid={`compare-row-${p.a}-${p.b}`}>
                      <td>
                        {p.a} − {p.b}
                      </td>
                      <td className="num">{fmtInt(p.n)}</td>
                      <td className="num">
                        <StatValue shown={showStat(p.meanDiff)} testId="compare-diff" />
                      </td>
                      <td className="num">
                        <StatValue shown={showCI(p.ci95)} testId="compare-ci" />
                      </td>
                      <td className="num" title={`df ${p.df}`}>
                        <StatValue shown={showStat(p.t, 2)} testId="compare-t" />
                      </td>
                      <td className="num">
                        <StatValue shown={showP(p.pT)} testId="compare-p-t" />
                      </td>
                      <td className="num" title={p.permutationMethod === 'exact' ? 'exact: every sign flip' : 'Monte Carlo sign flips'}>
                        <StatValue shown={showP(p.pPermutation)} testId="compare-p-perm" />
                        <span className="muted small"> {p.permutationMethod === 'exact' ? 'exact' : 'MC'}</span>
                      </td>
                      <td className="num">
                        <StatValue shown={showP(p.pHolmT)} testId="compare-holm-t" />
                      </td>
                      <td className="num">
                        <StatValue shown={showP(p.pHolmPermutation)} testId="compare-holm-perm" />
                      </td>
                      <td data-testid="compare-reject">
                        <Reject r={p.rejectT} /> / <Reject r={p.rejectPermutation} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function Reject({ r }: { r: boolean | null }): ReactNode {
  if (r === null) return <span className="muted" title="undefined p-value">—</span>;
  return r ? <strong className="reject yes">yes</strong> : <span className="reject no">no</span>;
}
