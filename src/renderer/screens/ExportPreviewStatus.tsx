/**
 * The Export screen's line about the preview's datasheet agreement (useExportPreview.ts): while it is
 * computed, a bar with its stage and the bootstrap's resamples done of all, and Cancel; once cancelled
 * or failed, what happened in plain words and a button that computes it again (which takes the focus
 * from Cancel, so a keyboard user stays on the screen).
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { ProgressBar } from '../components/ProgressBar';
import type { ExportPreviewState } from './useExportPreview';

export function ExportPreviewStatus({ state }: { state: Pick<ExportPreviewState, 'agreement' | 'job' | 'cancel' | 'computeAgreement'> }): ReactNode {
  const { agreement, job } = state;
  const again = useRef<HTMLButtonElement>(null);
  // Cancel goes away with the step: a keyboard user who was on it (now on the page's body) goes on from "Compute the agreement".
  useEffect(() => {
    if (agreement.step !== 'cancelled' && agreement.step !== 'failed') return;
    const active = document.activeElement;
    if (!active || active === document.body) again.current?.focus();
  }, [agreement.step]);

  if (agreement.step === 'none') return null;
  if (agreement.step === 'computing') {
    const p = job?.progress;
    return (
      <div className="note-box" data-testid="preview-progress">
        <div className="row">
          <strong className="grow">Datasheet: computing the agreement and its CIs…</strong>
          <button type="button" data-testid="preview-cancel" onClick={() => state.cancel()}>
            Cancel
          </button>
        </div>
        <ProgressBar label="preview progress" done={p?.done ?? 0} total={p?.total ?? 0} />
        <p className="small muted" data-testid="preview-stage">
          {p?.message ?? 'starting…'}
        </p>
      </div>
    );
  }
  const retry = (
    <button type="button" ref={again} data-testid="preview-agreement-again" onClick={state.computeAgreement}>
      Compute the agreement
    </button>
  );
  if (agreement.step === 'cancelled' && agreement.forExport) {
    return (
      <div className="note-box" data-testid="preview-paused">
        Datasheet: the agreement is left to the export under way, which computes it too; it comes back here once the export is over.
      </div>
    );
  }
  if (agreement.step === 'cancelled') {
    return (
      <div className="note-box" data-testid="preview-stopped">
        <span>Cancelled: the datasheet below lacks its agreement section; the files and the export itself are not affected.</span> {retry}
      </div>
    );
  }
  return (
    <div className="error-box" role="alert" data-testid="preview-stopped">
      <strong>The datasheet's agreement could not be computed:</strong> {agreement.message} {retry}
    </div>
  );
}
