import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { countedQueries, notDecidedReason, QUERY_ORDER_HELP, QUERY_ORDERS, type Convention, type LabelOrderStanding, type QueryOrder } from '../../shared/label-order';
import type { TieRule } from '../../shared/contract';
import type { CallerRole } from '../../shared/roles';
import { DataTable } from '../components/DataTable';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { counted as countedNoun } from '../../shared/plural';
import { useDebounced } from '../lib/hooks';
import { errorMessage, fmtMetric } from '../lib/format';
import { mayCall } from '../lib/roles';
import { ChoiceSelect } from '../components/ChoiceSelect';

type Row = LabelOrderStanding['rankers'][number];

/** The runs sharing the highest estimate (no run leads). */
function tiedLeaders(lo: LabelOrderStanding): string[] {
  const top = Math.max(...lo.rankers.map((r) => r.map ?? -Infinity));
  return lo.rankers.filter((r) => r.map !== null && Math.abs(r.map - top) <= 1e-12).map((r) => r.run);
}

/**
 * Where the pool's runs stand under its labeling order: each run's MAP estimated over the whole
 * pool (selection-corrected for the adaptive orders) with a 95% interval — an estimate of this pool's
 * MAP, exact once every query is labeled — and, separately, whether the best run is decided on queries
 * like these: the paired t-test over the labeled queries rejects against every other run (Holm-corrected
 * p < 0.05, as `eval --compare … --baseline BEST`) — the point where a team can stop labeling if
 * choosing the best run is the goal. Counted as the metrics table above it: the same label source,
 * convention (undefined: the pool's own) and partly labeled queries or not. Owners change the order here.
 */
export function LabelOrderPanel({
  pool,
  annotator,
  convention,
  partial,
  ties = 'pool-order',
  threshold = 1,
  role,
}: {
  pool: string;
  annotator: string | undefined;
  convention: Convention | undefined;
  partial: boolean;
  /** As the table above: how equal scores are ranked and the grade from which a label is relevant. */
  ties?: TieRule;
  threshold?: number;
  role: CallerRole;
}): ReactNode {
  const { client } = useApp();
  // The standing is kept with the options it was computed for: after a switch of pool (or of what
  // counts), the previous pool's standing is never shown under the new pool's table while the new
  // one is on its way.
  const optionsKey = JSON.stringify([pool, annotator ?? null, convention ?? null, partial, ties, threshold]);
  const [shown, setShown] = useState<{ key: string; lo: LabelOrderStanding } | null>(null);
  const lo = shown?.key === optionsKey ? shown.lo : null;
  const setLo = (next: LabelOrderStanding): void => setShown({ key: optionsKey, lo: next });
  const [failed, setFailed] = useState<{ key: string; message: string } | null>(null);
  const error = failed?.key === optionsKey ? failed.message : null;
  const setError = (message: string | null): void => setFailed(message === null ? null : { key: optionsKey, message });
  // A reply for other options than the current ones is dropped (the options changed while it was on its way).
  const seq = useRef(0);
  const load = useCallback(() => {
    const my = ++seq.current;
    const key = optionsKey;
    client
      .invoke('eval.order', { pool, ...(annotator ? { annotator } : {}), ...(convention ? { convention } : {}), partial, ties, threshold })
      .then((r) => my === seq.current && setShown({ key, lo: r }))
      .catch((e: unknown) => my === seq.current && setFailed({ key, message: errorMessage(e) }));
  }, [client, pool, annotator, convention, partial, ties, threshold, optionsKey]);
  useEffect(load, [load]);
  const reload = useDebounced(load, 150);
  useEvent('label.changed', (rec) => rec.pool === pool && reload());
  useEvent('workspace.changed', load);
  useReconnect(load);
  if (!lo) return error ? <p className="error" role="alert" data-testid="label-order-load-error">{error}</p> : null;
  const setOrder = (order: QueryOrder): void => {
    setError(null);
    setLo({ ...lo, order });
    client
      .invoke('pool.set', { pool, order })
      .then(load)
      .catch((e: unknown) => {
        setError(errorMessage(e));
        load();
      });
  };
  const leader = lo.best;
  const counted = countedQueries(lo);
  const scope =
    lo.estimator === 'bounds'
      ? `the ${countedNoun(lo.used, 'opened query', 'opened queries')} (a query without a similar candidate counts 0)`
      : lo.counting.convention === 'skip'
        ? `the pool's queries with a similar candidate (of ${lo.population})`
        : `all ${lo.population} queries of the pool (a query without a similar candidate counts 0)`;
  return (
    <section className="card" data-testid="label-order">
      <div className="row wrap">
        <h2 className="grow">Labeling order</h2>
        {mayCall(role, 'pool.set') ? (
          <label className="inline">
            Next query
            <ChoiceSelect testId="label-order-select" choices={QUERY_ORDERS} value={lo.order} onChange={setOrder} title={(o) => QUERY_ORDER_HELP[o]} />
          </label>
        ) : (
          <span className="muted">order: {lo.order}</span>
        )}
      </div>
      <p className="small muted">{QUERY_ORDER_HELP[lo.order]}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className={lo.decided ? 'ok' : 'muted'} data-testid="label-order-decided" role="status">
        {lo.used === 0
          ? `The estimates appear once a query counts (${lo.order === 'pool' ? 'a labeled query, as the table above counts them' : 'the first drawn query, labeled'}${lo.counting.convention === 'skip' ? ', with a similar candidate' : ''}).`
          : lo.rankers.length < 2
            ? 'Deciding which run is best needs two or more runs in the pool.'
            : leader === null
              ? `Not decided: no run leads — ${tiedLeaders(lo).join(', ')} share the highest MAP over the ${counted}.`
              : lo.decided
                ? `Decided: ${leader} is best on queries like these — the paired test over the ${counted} puts every other run below it (Holm-corrected p < 0.05). If choosing the best run is the goal, labeling can stop.`
                : `Not decided: ${leader} ${notDecidedReason(lo, `the ${counted}`)}${lo.estimator === 'exact' && !lo.bestTrainedOn && !lo.bestSelectedOn ? ' — the pool’s MAPs are exact, but the gap may not hold on other queries like these' : ''}.`}
      </p>
      <p className="small muted" data-testid="label-order-estimator">
        {lo.estimator === 'bounds'
          ? `MAP over the ${lo.used} opened queries (of ${lo.population}), from each query's AP bounds: the interval holds whatever the missing labels say, and p is an upper bound; a query without a similar candidate counts 0.`
          : `MAP over ${scope}, estimated from ${lo.used} (${lo.estimator}); counted as the table above: ${lo.counting.convention === 'skip' ? 'a query without a similar candidate is left out' : 'a query without a similar candidate counts 0'}${lo.counting.partial ? ', partly labeled queries count' : ''}.`}
      </p>
      <DataTable<Row>
        testId="label-order-table"
        rows={lo.rankers}
        rowId={(r) => r.run}
        initialSort={{ id: 'map', desc: true }}
        caption={`MAP over ${scope}, estimated from ${lo.used} (${lo.estimator})`}
        columns={[
          { id: 'run', header: 'Run', cell: (r) => r.run, sortValue: (r) => r.run },
          { id: 'map', header: 'MAP estimate', className: 'num', cell: (r) => fmtMetric(r.map), sortValue: (r) => r.map, cellTestId: (r) => `label-order-map-${r.run}` },
          { id: 'ci', header: '95% interval', className: 'num', cell: (r) => (r.ci ? `${fmtMetric(r.ci[0])}–${fmtMetric(r.ci[1])}` : '—') },
          {
            id: 'p',
            header: <abbr title="Holm-corrected p-value of the paired test over the labeled queries against the leading run (not the pool MAP's interval)">p vs leader</abbr>,
            className: 'num',
            cell: (r) => (r.run === leader ? 'leader' : r.adjustedP === null ? '—' : r.adjustedP < 0.001 ? '< 0.001' : r.adjustedP.toFixed(3)),
            sortValue: (r) => (r.run === leader ? -1 : r.adjustedP),
          },
        ]}
      />
      <p className="small muted" data-testid="label-order-note">
        {lo.note}.{lo.order !== 'pool' ? ` ${lo.drawn} of ${lo.population} queries drawn so far.` : ''}
      </p>
    </section>
  );
}
