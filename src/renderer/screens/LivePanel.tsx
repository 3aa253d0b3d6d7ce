import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { describeCopiesLeftOut, LIVE_MODELS, liveRunName, type LiveStatus } from '../../shared/live';
import { isQueuedTrainingNote } from '../../shared/models';
import type { CallerRole } from '../../shared/roles';
import { LineChart } from '../components/LineChart';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { errorMessage, fmtMetric } from '../lib/format';
import { mayCall } from '../lib/roles';
import { useDebounced } from '../lib/hooks';
import { liveStatusSentence } from './liveStatusLine';

/**
 * "Learn as we label": the owner switches live retraining on for the pool (every N labels, or after
 * some idle seconds), picks the fast models, and everyone who may see metrics follows the learning
 * curve — each point the out-of-fold MAP of a retrain (every labeled query scored by a model trained
 * without it), against the number of labels then. The live runs (`live-<model>`) are runs like any
 * other: in the table above, in Annotate (outside blind mode) and in the comparison.
 */
export function LivePanel({ pool, pools, role }: { pool: string; /** The workspace's pools (training pools to offer). */ pools: readonly string[]; role: CallerRole }): ReactNode {
  const { client } = useApp();
  const [status, setStatus] = useState<LiveStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const owner = mayCall(role, 'live.set');

  const load = useCallback(() => {
    client
      .invoke('live.status', { pool })
      .then((s) => {
        setStatus(s);
        if (!s.running) setProgress(null);
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [client, pool]);
  useEffect(load, [load]);
  useEvent('workspace.changed', load);
  // A team's labels come in bursts: the status once a burst settles, not a request per label (an open
  // Evaluate asked 20 times a second while one annotator labeled).
  const loadSoon = useDebounced(load, 300);
  useEvent('label.changed', (rec) => rec.pool === pool && loadSoon());
  useEvent('job.progress', (p) => {
    // Another pool's retrain is not this pool's (it marked this panel as retraining).
    if (p.kind !== 'live' || p.pool !== pool) return;
    setProgress(p.message);
    setStatus((s) => (s && (!s.running || s.jobId !== p.jobId) ? { ...s, running: true, jobId: p.jobId } : s));
  });
  useEvent('job.done', (d) => d.kind === 'live' && d.pool === pool && load());
  useReconnect(load);

  const change = (patch: Partial<Pick<LiveStatus, 'enabled' | 'everyLabels' | 'idleSeconds' | 'models' | 'trainPools'>>): void => {
    if (!status) return;
    const next = { pool, enabled: status.enabled, everyLabels: status.everyLabels, idleSeconds: status.idleSeconds, models: status.models, trainPools: status.trainPools, ...patch };
    setError(null);
    setStatus({ ...status, ...patch }); // at once; the engine's answer (or a reload on error) follows
    client
      .invoke('live.set', next as never)
      .then(setStatus)
      .catch((e: unknown) => {
        setError(errorMessage(e));
        load();
      });
  };
  if (!status) return error ? <p className="error" role="alert" data-testid="live-load-error">{error}</p> : null;

  const series = status.models.map((m) => ({
    name: liveRunName(m),
    points: status.curve.filter((p) => p.model === m && p.MAP !== null).map((p) => [p.labels, 100 * p.MAP!] as [number, number]),
  }));
  const last = status.curve.at(-1) ?? null;
  // The other pools, and any training pool the list no longer shows (so it can still be unticked).
  const trainable = [...new Set([...pools.filter((p) => p !== pool), ...status.trainPools])];
  // Queued behind other trainings (serve's --max-trainings): its progress says so, or the status did when loaded.
  const waiting = status.running && (progress !== null ? isQueuedTrainingNote(progress) : status.queuedBehind !== null);
  return (
    <section className="card" data-testid="live-panel">
      <div className="row wrap">
        <h2 className="grow">Learn as we label</h2>
        {owner ? (
          <label className="inline">
            <input type="checkbox" data-testid="live-enabled" checked={status.enabled} onChange={(e) => change({ enabled: e.target.checked })} />
            retrain the models as labels arrive
          </label>
        ) : (
          <span className="muted">{status.enabled ? 'on' : 'off'}</span>
        )}
      </div>
      {status.unreadable.length > 0 && (
        <p className="note-box" role="status" data-testid="live-unreadable">
          This pool&apos;s stored setting could not be read (
          {status.unreadable
            .map((c) => (c === 'models' ? (status.unknownModels.length > 0 ? `its models: ${status.unknownModels.join(', ')} ${status.unknownModels.length > 1 ? 'are' : 'is'} not a model it retrains` : 'its models') : 'its other training pools'))
            .join(', ')}
          ): read as none.
          {owner ? ' Choose again to save it.' : ''}
        </p>
      )}
      {owner && (
        <div className="row wrap">
          <IntegerSetting before="every" after="labels" min={1} max={10000} testId="live-every" value={status.everyLabels} onChange={(everyLabels) => change({ everyLabels })} />
          <IntegerSetting before="or after" after="s idle (0 = never)" min={0} max={86400} testId="live-idle" value={status.idleSeconds} onChange={(idleSeconds) => change({ idleSeconds })} />
          <fieldset className="inline">
            <legend className="visually-hidden">models</legend>
            {LIVE_MODELS.map((m) => (
              <label key={m} className="inline">
                <input
                  type="checkbox"
                  data-testid={`live-model-${m}`}
                  checked={status.models.includes(m)}
                  onChange={(e) => {
                    const models = e.target.checked ? [...status.models, m] : status.models.filter((x) => x !== m);
                    if (models.length) change({ models });
                  }}
                />
                {m}
              </label>
            ))}
          </fieldset>
          {trainable.length > 0 && (
            <fieldset className="radio-row inline" data-testid="live-train-pools">
              <legend>also train on</legend>
              {trainable.map((p) => (
                <label key={p} className="inline" title={`train the live models on pool ${p}'s labels too (its copies of this pool's held-out queries are left out)`}>
                  <input
                    type="checkbox"
                    data-testid={`live-train-pool-${p}`}
                    checked={status.trainPools.includes(p)}
                    onChange={(e) => change({ trainPools: e.target.checked ? [...status.trainPools, p] : status.trainPools.filter((x) => x !== p) })}
                  />
                  {p}
                </label>
              ))}
            </fieldset>
          )}
          {/* aria-disabled while a retrain runs: a button that turns disabled under the focus drops it to the page. */}
          <button
            type="button"
            data-testid="live-retrain"
            aria-disabled={status.running || undefined}
            onClick={() => !status.running && client.invoke('live.retrain', { pool }).then(load).catch((e: unknown) => setError(errorMessage(e)))}
          >
            Retrain now
          </button>
        </div>
      )}
      <p className="small" data-testid="live-status" role="status">
        {liveStatusSentence(status, progress, waiting)}
        {last ? ` Last: ${last.model} ${fmtMetric(last.MAP)} MAP over ${last.heldOutQueries} queries out of fold (at ${last.labels} labels, ${last.seconds.toFixed(0)} s).` : ''}
        {status.trainPools.length ? ` Also trained on: ${status.trainPools.join(', ')}.` : ''}
        {describeCopiesLeftOut(status.trainingCopiesLeftOut) ? ` ${describeCopiesLeftOut(status.trainingCopiesLeftOut)}.` : ''}
      </p>
      {owner && status.running && status.jobId && (
        <button
          type="button"
          data-testid="live-cancel"
          onClick={() => client.invoke('job.cancel', { jobId: status.jobId! }).catch((e: unknown) => setError(errorMessage(e)))}
        >
          Cancel the retrain
        </button>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {status.lastError && !status.running && (
        <p className="small muted" data-testid="live-last-error">
          Last retrain: {status.lastError}
        </p>
      )}
      {status.curve.length > 0 && (
        <>
          <LineChart testId="live-curve" series={series} xLabel="labels in the pool" yLabel="out-of-fold MAP (%)" yMin={0} yMax={100} yDigits={0} />
          <p className="small muted">
            Each point is one retrain: every fully labeled query scored by a model trained without it (grouped folds: near-duplicates together), so the figure is held out; a query counts 0 without a similar candidate. Queries
            still being labeled are not trained on.
          </p>
        </>
      )}
    </section>
  );
}

/**
 * A labelled whole-number input. Typing edits a draft; Enter or leaving the field applies it (a value
 * outside [min, max] goes back to the setting, Esc too). Applying on every keystroke set the values
 * typed on the way (typing 100 set 1 first, which started a retrain at once).
 */
function IntegerSetting(p: { before: string; after: string; min: number; max: number; testId: string; value: number; onChange: (v: number) => void }): ReactNode {
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? String(p.value);
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(n) && n >= p.min && n <= p.max;
  const apply = (): void => {
    if (draft === null) return;
    if (valid && n !== p.value) p.onChange(n);
    setDraft(null);
  };
  return (
    <label className="inline" title={`a whole number from ${p.min} to ${p.max}; Enter or leaving the field applies it, Esc restores it`}>
      {p.before}
      <input
        type="number"
        min={p.min}
        max={p.max}
        data-testid={p.testId}
        value={text}
        aria-invalid={draft !== null && !valid ? true : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
          else if (e.key === 'Escape') setDraft(null);
        }}
        style={{ width: '5em' }}
      />
      {p.after}
    </label>
  );
}
