/** One trained model in the Models screen's table: its report, what it was trained on, scoring a pool, curves and feature importance, deleting. */
import type { ReactNode } from 'react';
// Types only from the contract: importing its values would bundle zod, whose eval probe trips the CSP.
import type { JobDone, ModelInfoView } from '../../shared/contract';
import { fmtInt, fmtMetric } from '../lib/format';
import { describeCv, describeTraining, fmtRate, fmtSeconds, historySeries } from '../lib/models';
import { describeSettings } from '../../shared/models';
import { earlyStoppingNoteForApp } from '../../shared/early-stopping';
import { describeSelectedOn } from '../../shared/selected-on';
import { FeatureImportance } from './FeatureImportance';
import { TrainCurves } from './TrainCurves';
import { ChoiceSelect } from '../components/ChoiceSelect';

function fmtCreated(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function ModelRows({
  m,
  pools,
  pool,
  onPool,
  onScore,
  score,
  confirming,
  onDelete,
  onConfirmDelete,
  onKeep,
  canDelete,
  curves,
  onCurves,
}: {
  m: ModelInfoView;
  pools: string[];
  pool: string;
  onPool: (p: string) => void;
  onScore: () => void;
  score: { pool: string; error: string | null; started: boolean; done: JobDone | null } | null;
  confirming: boolean;
  onDelete: () => void;
  onConfirmDelete: () => void;
  onKeep: () => void;
  /** Deleting a model is the owner's. */
  canDelete: boolean;
  curves: boolean;
  onCurves: () => void;
}): ReactNode {
  const r = m.report;
  const t = m.training;
  const scoring = !!score && score.started && !score.done;
  const scored = score?.done?.ok ? (score.done.report as { queries: number; pairs: number } | undefined) : undefined;
  return (
    <>
      <tr data-testid={`model-row-${m.name}`}>
        <td>
          <strong>{m.name}</strong>
          <div className="small muted">{fmtInt(Math.round(m.bytes / 1024))} KB</div>
        </td>
        <td data-testid={`model-kind-${m.name}`}>{m.kind}</td>
        <td className="num" data-testid={`model-epoch-${m.name}`}>
          {r.bestEpoch ?? '—'} / {r.epochs ?? '—'}
        </td>
        <td className="num" data-testid={`model-mrr-${m.name}`}>
          {fmtMetric(r.bestDevMRR)}
        </td>
        <td className="num" data-testid={`model-map-${m.name}`}>
          {fmtMetric(r.bestDevMAP)}
        </td>
        <td className="small trained-on" data-testid={`model-trained-on-${m.name}`}>
          {describeTraining(t)}
          <div className="muted">
            dev: {t.devPool === undefined ? '—' : (t.devPool ?? 'none')} · seed {t.seed ?? '—'} · <span data-testid={`model-settings-${m.name}`}>{describeSettings(t.config)}</span>
          </div>
          {t.overlap && t.overlap.overlapping > 0 && (
            <div className="muted" data-testid={`model-dev-overlap-${m.name}`}>
              {t.overlap.kept ? `kept ${t.overlap.overlapping} training queries that are dev queries` : `dropped ${t.overlap.dropped} training queries that are dev queries`}
            </div>
          )}
          {t.cv && <div data-testid={`model-cv-${m.name}`}>{describeCv(t.cv)}</div>}
          {t.earlyStopping && (
            <div className="muted" data-testid={`model-early-stopping-${m.name}`}>
              {earlyStoppingNoteForApp(t.earlyStopping.note)}
            </div>
          )}
          {t.inSampleRunsLeftOut && t.inSampleRunsLeftOut.length > 0 && (
            <div className="muted" data-testid={`model-in-sample-${m.name}`} title="their models were trained on these training queries: in-sample scores are no fair feature">
              not as features (in-sample): {t.inSampleRunsLeftOut.map((r) => r.run).join(', ')}
            </div>
          )}
          {(m.overlap ?? [])
            .filter((o) => o.trainedOn > 0)
            .map((o) => (
              <div key={o.pool} className="error" data-testid={`model-saw-${m.name}-${o.pool}`}>
                trained on {o.trainedOn} of the {o.of} evaluated queries of {o.pool}
              </div>
            ))}
          {(m.overlap ?? [])
            .filter((o) => o.selectedOn)
            .map((o) => (
              <div key={`chosen-${o.pool}`} className="error" data-testid={`model-chosen-${m.name}-${o.pool}`}>
                on {o.pool}: {describeSelectedOn(m.name, o.selectedOn!)} — optimistic, not held out
              </div>
            ))}
        </td>
        <td className="num small" title={r.backend ? `training throughput on the ${r.backend} backend` : undefined}>
          {fmtRate(r.examplesPerSecond, r.exampleUnit)}
        </td>
        <td className="num small">{fmtSeconds(r.seconds)}</td>
        <td className="small" title={m.created}>
          {fmtCreated(m.created)}
        </td>
        <td className="model-actions">
          <div className="row">
            <ChoiceSelect testId={`model-score-pool-${m.name}`} choices={pools} value={pool} onChange={onPool} ariaLabel={`pool to score with ${m.name}`} />
            {/* aria-disabled while scoring: a button that turns disabled under the focus drops it to the page. */}
            <button data-testid={`model-score-${m.name}`} onClick={() => !scoring && onScore()} disabled={!pool} aria-disabled={scoring || undefined} title="store the model's scores as a run of this pool">
              {scoring ? 'Scoring…' : 'Score'}
            </button>
          </div>
          <div className="row">
            <button className="link-button underline" data-testid={`model-curves-${m.name}`} onClick={onCurves} aria-expanded={curves}>
              {curves ? 'Hide curves' : 'Curves'}
            </button>
            {!canDelete ? null : confirming ? (
              <span
                className="confirm"
                role="alertdialog"
                aria-label={`Delete ${m.name}?`}
                onKeyDown={(e) => {
                  if (e.key !== 'Escape') return;
                  e.stopPropagation();
                  onKeep();
                }}
              >
                Delete “{m.name}”? <span className="muted">(its runs in the pools go too)</span>{' '}
                {m.featureOf?.length ? (
                  <span className="warn-text" data-testid={`model-delete-feature-of-${m.name}`}>
                    {m.featureOf.join(', ')} {m.featureOf.length === 1 ? 'takes' : 'take'} its run as a feature: scored again, {m.featureOf.length === 1 ? 'it ranks' : 'they rank'} without it.{' '}
                  </span>
                ) : null}
                <button className="danger" data-testid={`model-delete-confirm-${m.name}`} onClick={onConfirmDelete}>
                  Delete
                </button>{' '}
                {/* The question takes the focus from the Delete… it replaces, on the choice that changes nothing. */}
                <button data-testid={`model-delete-keep-${m.name}`} onClick={onKeep} autoFocus>
                  Keep
                </button>
              </span>
            ) : (
              <button data-testid={`model-delete-${m.name}`} onClick={onDelete}>
                Delete…
              </button>
            )}
          </div>
        </td>
      </tr>
      {score && (score.error || score.started) && (
        <tr className="sub-row">
          <td colSpan={10} data-testid={`model-score-status-${m.name}`} data-state={score.error || (score.done && !score.done.ok) ? 'failed' : score.done ? 'done' : 'running'}>
            {/* A live region: screen readers hear the scoring start and end (the Score button keeps the focus). */}
            <div role="status">
              {score.error ? (
                <span className="error">Scoring {score.pool} did not start: {score.error}</span>
              ) : !score.done ? (
                <span className="muted">Scoring {score.pool} with {m.name}…</span>
              ) : score.done.ok ? (
                <span className="ok">
                  Scored {score.pool}: {fmtInt(scored?.queries ?? 0)} queries, {fmtInt(scored?.pairs ?? 0)} pairs stored as the run “{m.name}”.
                </span>
              ) : (
                <span className="error">Scoring {score.pool} {score.done.cancelled ? 'was cancelled' : `failed: ${score.done.error ?? 'unknown error'}`}.</span>
              )}
            </div>
          </td>
        </tr>
      )}
      {curves && (
        <tr className="sub-row">
          <td colSpan={10} data-testid={`model-curves-panel-${m.name}`}>
            <TrainCurves charts={historySeries(r.history)} devExpected={t.devPool != null} testPrefix={`model-${m.name}`} width={460} />
            {t.importance && t.importance.length > 0 && <FeatureImportance model={m.name} importance={t.importance} />}
          </td>
        </tr>
      )}
    </>
  );
}
