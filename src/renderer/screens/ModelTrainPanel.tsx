/** The Models screen's training job panel: progress, live loss and dev plots, cancel, and the outcome. */
import { useEffect, useState, type ReactNode } from 'react';
// Types only from the contract: importing its values would bundle zod, whose eval probe trips the CSP.
import type { JobDone, ModelInfoView } from '../../shared/contract';
import { preparingStep, type TrainReportView } from '../../shared/models';
import { ProgressBar } from '../components/ProgressBar';
import { fmtInt, fmtMetric } from '../lib/format';
import { describeCv, describeProgress, fmtSeconds, traceFraction, traceSeries, trainJobScoring, type TrainTrace } from '../lib/models';
import { TrainCurves } from './TrainCurves';

/** The report of a finished models.train job. */
export interface TrainJobReport {
  name: string;
  report: TrainReportView;
  /** What it was trained on; `cv` when cross-validated (as the Models table row). */
  training?: Pick<ModelInfoView['training'], 'cv'>;
  scored: Array<{ pool: string; pairs: number }>;
}

/** The training job under way (or the last one): progress, live plots, cancel, outcome. */
export function TrainPanel({
  job,
  mine,
  cancelling,
  onCancel,
  modelNames,
  listed,
}: {
  job: { progress: { done: number; total: number; message: string; phase?: 'scoring' } | null; done: JobDone | null; trace: TrainTrace | null };
  mine: { name: string; kind: string; devPool: string | null; existedBefore: boolean } | undefined;
  cancelling: boolean;
  onCancel: () => void;
  modelNames: string[];
  listed: boolean;
}): ReactNode {
  const { done, trace } = job;
  const name = trace?.name ?? mine?.name ?? (done?.report as TrainJobReport | undefined)?.name ?? 'model';
  const scoring = trainJobScoring(job);
  const state = done ? (done.ok ? 'done' : done.cancelled ? 'cancelled' : 'failed') : scoring ? 'scoring' : 'running';
  const charts = traceSeries(trace);
  const p = trace?.last ?? null;
  // Before the first counted step (no report yet, or a preparation such as reading the texts): a waiting bar.
  const waiting = !p || (preparingStep(p) !== null && (trace?.shown ?? 0) === 0);
  // One bar for the whole job: pre-training phases, then training; it never goes back.
  const frac = done?.ok ? 1 : traceFraction(trace);
  // The wall time from the job's first progress event to its end (the report's seconds count the training epochs only).
  const [endedAt, setEndedAt] = useState<number | null>(null);
  useEffect(() => {
    if (done && endedAt === null) setEndedAt(Date.now());
    if (!done && endedAt !== null) setEndedAt(null);
  }, [done, endedAt]);
  const wallSeconds = trace?.firstAt && endedAt ? (endedAt - trace.firstAt) / 1000 : null;
  const report = done?.ok ? (done.report as TrainJobReport) : null;
  // A cancel that came after the model was stored (while pools were being scored) leaves it behind.
  const leftBehind = done?.cancelled && listed && modelNames.includes(name) && mine && !mine.existedBefore;

  let status: string;
  if (done) status = done.ok ? 'done' : done.cancelled ? 'cancelled' : 'failed';
  else if (scoring) status = `training done: the model is stored; scoring the pools with it, to the end (Cancel no longer applies)…`;
  else if (p) status = describeProgress(p);
  else status = job.progress?.message || 'preparing the training data…';

  return (
    <div className="train-panel" data-testid="train-panel" data-state={state} data-model={name}>
      <div className="row wrap">
        <h3 className="grow">
          {done ? 'Last training' : 'Training'}: <span data-testid="train-name">{name}</span>
          {mine && <span className="muted small"> ({mine.kind})</span>}
        </h3>
        {!done && !scoring && (
          // Not while scoring: the model is stored and the pools are scored to the end (the job then ends "done").
          // aria-disabled while cancelling: a button that turns disabled under the focus drops it to the page.
          <button data-testid="train-cancel" onClick={() => !cancelling && onCancel()} aria-disabled={cancelling || undefined}>
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </div>
      <ProgressBar
        testId="train-progress"
        label="training progress"
        done={scoring || (waiting && !done) ? 0 : Math.round(frac * 1000)}
        total={scoring || (waiting && !done) ? 0 : 1000}
        text={done ? (done.ok ? '100%' : '') : scoring ? '…' : waiting ? 'preparing…' : `${Math.round(frac * 100)}%`}
      />
      <p className="small muted" data-testid="train-status">
        {status}
      </p>
      {done && done.ok && report && (
        <div className="ok-box" data-testid="train-done">
          <strong>Model “{report.name}” trained</strong> in{' '}
          <span data-testid="train-wall-time" title={`wall time of the whole job, pre-training and scoring included; the training epochs took ${fmtSeconds(report.report.seconds)}`}>
            {fmtSeconds(wallSeconds !== null ? Math.max(wallSeconds, report.report.seconds) : report.report.seconds)}
          </span>
          {wallSeconds !== null && wallSeconds > report.report.seconds * 1.05 && <span className="muted"> (training epochs {fmtSeconds(report.report.seconds)})</span>}: kept epoch {report.report.bestEpoch} of {report.report.epochs}
          {report.report.bestDevMRR !== undefined && (
            <>
              {' '}
              (dev MRR <span data-testid="train-done-mrr">{fmtMetric(report.report.bestDevMRR)}</span>, MAP {fmtMetric(report.report.bestDevMAP)})
            </>
          )}
          . Scored {report.scored.length} pool{report.scored.length === 1 ? '' : 's'} as the run “{report.name}”
          {report.scored.length > 0 && <> ({report.scored.map((s) => `${s.pool}: ${fmtInt(s.pairs)} pairs`).join(', ')})</>}.
          {report.training?.cv && <div data-testid="train-done-cv">{describeCv(report.training.cv)}</div>}
        </div>
      )}
      {done && done.cancelled && (
        <div className={leftBehind ? 'error-box' : 'note-box'} role="status" data-testid="train-cancelled">
          {leftBehind ? (
            <>
              <strong>Training cancelled while the pools were being scored:</strong> the model “{name}” had already been stored and is in the table below;
              delete it if you do not want it.
            </>
          ) : (
            <>
              <strong>Training cancelled.</strong> {mine?.existedBefore ? `The existing model “${name}” was kept unchanged.` : `No model “${name}” was stored.`}
            </>
          )}
        </div>
      )}
      {done && !done.ok && !done.cancelled && (
        <div className="error-box" role="alert" data-testid="train-error">
          <strong>Training failed; no model was stored.</strong>
          <pre>{done.error ?? 'unknown error'}</pre>
        </div>
      )}
      <TrainCurves charts={charts} devExpected={mine ? mine.devPool !== null : charts.dev.length > 0} testPrefix="train" />
    </div>
  );
}
