/**
 * The Annotate screen's live panel (open pools only): each ranker's MAP and MRR over the queries
 * this annotator has labeled (eval.pool under the pool's own convention), re-read as labels land.
 * Issue 24: it counts partly labeled queries too (their unlabeled candidates as not similar) and
 * says how many are partial, so it moves with the first labels of a query; it floats at the
 * bottom of the window (styles.css .live-metrics), so it stays in view while the candidates scroll.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { PoolEvaluation } from '../../shared/contract';
import { describeSelectedOn } from '../../shared/selected-on';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { useDebounced } from '../lib/hooks';
import { fmtMetric } from '../lib/format';

export function LiveMetrics({ pool, annotator, runNames }: { pool: string; annotator: string; runNames: string[] }): ReactNode {
  const { client } = useApp();
  const [ev, setEv] = useState<PoolEvaluation | null>(null);
  const [hidden, setHidden] = useState(false);
  const seq = useRef(0);
  const load = useCallback(async () => {
    if (!pool || !annotator) return;
    const my = ++seq.current;
    try {
      const r = await client.invoke('eval.pool', { pool, annotator, partial: true });
      if (my !== seq.current) return;
      setEv(r);
      setHidden(false);
    } catch {
      if (my === seq.current) setHidden(true);
    }
  }, [client, pool, annotator]);
  useEffect(() => void load(), [load]);
  const later = useDebounced(() => void load(), 150);
  useEvent('label.changed', (rec) => {
    if (rec.pool === pool && rec.annotator === annotator) later();
  });
  useEvent('workspace.changed', (w) => {
    if (w.what === 'run' || w.what === 'pool' || w.what === 'draws') later();
  });
  useReconnect(later);
  // The panel floats over the bottom of the window and grows a line per few runs: its height (with
  // its gap to the window's edge) is published as --live-metrics-h, so the row under the cursor is
  // scrolled clear of it (scroll-margin-bottom in styles.css) — a fixed margin left it half hidden —
  // and scrolled clear again whenever the panel's height changes.
  const panelRef = useRef<HTMLElement | null>(null);
  const shown = !hidden && runNames.length > 0;
  useEffect(() => {
    const el = panelRef.current;
    const root = document.documentElement;
    if (!shown || !el || typeof ResizeObserver === 'undefined') return;
    let last = '';
    const set = (): void => {
      const h = `${Math.ceil(window.innerHeight - el.getBoundingClientRect().top)}px`;
      if (h === last) return;
      last = h;
      root.style.setProperty('--live-metrics-h', h);
      // The panel grew (its runs' figures arrived after the query was shown, or another run came):
      // the row under the cursor, scrolled clear of the old height, may now be behind it.
      document.querySelector('table.candidates tr.cand-row.current')?.scrollIntoView({ block: 'nearest' });
    };
    const ro = new ResizeObserver(set);
    ro.observe(el);
    window.addEventListener('resize', set);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', set);
      root.style.removeProperty('--live-metrics-h');
    };
  }, [shown]);

  if (!shown) return null;
  const runs = ev ? Object.entries(ev.runs) : [];
  return (
    <section ref={panelRef} className="live-metrics" data-testid="live-metrics" aria-label="Rankers on your labels so far">
      <span
        className="small muted"
        title={`MAP and MRR (percent, with 95% confidence intervals) of each ranker against your labels, over every query you have labeled so far — a partly labeled query counts its unlabeled candidates as not similar; convention ${ev?.convention ?? '…'} (the pool's)`}
      >
        rankers on your <strong data-testid="live-labeled">{ev ? ev.labeledQueries : '…'}</strong> labeled quer{ev?.labeledQueries === 1 ? 'y' : 'ies'}
        {ev && (
          <span data-testid="live-partial">
            {' '}
            ({ev.fullyLabeledQueries} of {ev.totalQueries} fully labeled{ev.partiallyLabeledQueries > 0 ? `, ${ev.partiallyLabeledQueries} in part` : ''})
          </span>
        )}
        {ev && skippedNote(ev) && <span data-testid="live-skipped">{skippedNote(ev)}</span>}
        :
      </span>
      {ev && runs.length === 0 && <span className="small muted">—</span>}
      {runs.map(([run, m]) => (
        <span key={run} className="live-run" data-testid={`live-run-${run}`}>
          <strong>{run}</strong>{' '}
          <abbr title="mean average precision, percent">MAP</abbr> <span data-testid={`live-${run}-MAP`}>{m.queries ? fmtMetric(m.MAP) : '—'}</span>
          <Interval ci={m.ci?.MAP} testId={`live-${run}-MAP-ci`} /> ·{' '}
          <abbr title="mean reciprocal rank, percent">MRR</abbr> <span data-testid={`live-${run}-MRR`}>{m.queries ? fmtMetric(m.MRR) : '—'}</span>
          <Interval ci={m.ci?.MRR} testId={`live-${run}-MRR-ci`} />
          {inSampleNote(m) && (
            <span className="small error" data-testid={`live-${run}-overlap`} title="the model was trained on these queries (same id, same text or near-duplicate): its figures here are not held out">
              {' '}
              {inSampleNote(m)}
            </span>
          )}
          {selectedOnNote(run, m) && (
            <span className="small error" data-testid={`live-${run}-selected-on`} title="these queries chose the model (the version kept is the one that scored best on them): its figures here are optimistic, not held out">
              {' '}
              {selectedOnNote(run, m)}
            </span>
          )}
        </span>
      ))}
    </section>
  );
}

/**
 * Under convention skip the figures count only the labeled queries with a similar candidate: the
 * panel's "rankers on your 200 labeled queries" stood over MAPs of 189. Says how many are left out
 * (null when none, or under zero, where they count 0).
 */
export function skippedNote(ev: Pick<PoolEvaluation, 'convention' | 'withoutRelevant'>): string | null {
  if (ev.convention !== 'skip' || !(ev.withoutRelevant > 0)) return null;
  return ` — ${ev.withoutRelevant} without a similar candidate left out (convention skip)`;
}

/**
 * A model's run trained on some of the labeled queries the panel counts: its figures there are not held
 * out (the Evaluate table flags them; this panel showed them as any ranker's). Null otherwise.
 */
export function inSampleNote(m: Pick<PoolEvaluation['runs'][string], 'overlap'>): string | null {
  if (m.overlap === null) return '(trained before its training queries were recorded: maybe in-sample)';
  if (!m.overlap || m.overlap.trainedOn === 0) return null;
  return `(trained on ${m.overlap.trainedOn} of these ${m.overlap.of}: not held out)`;
}

/**
 * A model's run chosen on the labeled queries the panel counts (its dev pool, its CV's out-of-fold
 * queries, or a feature run's model's): its figures there are optimistic. Null otherwise.
 */
export function selectedOnNote(run: string, m: Pick<PoolEvaluation['runs'][string], 'selectedOn'>): string | null {
  return m.selectedOn ? `(${describeSelectedOn(run, m.selectedOn)}: optimistic, not held out)` : null;
}

/** A 95% confidence interval in percent, e.g. " [40.12, 56.50]"; nothing below 2 queries. */
function Interval({ ci, testId }: { ci: [number, number] | null | undefined; testId: string }): ReactNode {
  if (!ci) return null;
  return (
    <span className="small muted" data-testid={testId} title="95% confidence interval over your labeled queries (Student t, clipped to 0–100)">
      {' '}
      [{fmtMetric(ci[0])}, {fmtMetric(ci[1])}]
    </span>
  );
}
