/**
 * An export's progress: which stage it is in, and within the agreement bootstrap (most of a large
 * pool's export: ~20 s of a 23 s export of 40,000 pairs and 3 annotators) the resamples done of all.
 * Reported by buildExport (reading, rendering, agreement) and by whoever writes the files (writing);
 * the engine's export job, the compute worker and the CLI say it with exportProgressMessage.
 */
export type ExportStage = 'waiting' | 'reading' | 'rendering' | 'agreement' | 'writing';

/** `total` 0: a stage without a count (the bar is indeterminate). 'waiting' (for the compute worker): `done` is how many computations are before it. */
export type ExportProgress = (stage: ExportStage, done: number, total: number) => void;

/** How a stage reads, in the app's bar and the CLI's lines. */
export function exportStageText(stage: ExportStage): string {
  if (stage === 'waiting') return 'waiting for the compute worker';
  if (stage === 'reading') return "reading the pool's labels";
  if (stage === 'rendering') return 'rendering the files';
  if (stage === 'agreement') return "the datasheet's agreement bootstrap";
  return 'writing the files';
}

/** The stage, and the resamples done of all during the agreement bootstrap. */
export function exportProgressMessage(stage: ExportStage, done: number, total: number): string {
  const text = exportStageText(stage);
  if (stage === 'waiting') return `${text}: ${done === 1 ? '1 computation' : `${done.toLocaleString('en-US')} computations`} before this one (agreement reports, comparisons, exports)`;
  return total > 0 ? `${text}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} resamples` : text;
}

/** Said for an export cancelled (job.cancel, Ctrl-C): its files are written to temporary names and renamed at the end. */
export const EXPORT_CANCELLED = 'export cancelled: nothing was written';

/** Said for an export.preview whose datasheet agreement the caller cancelled (job.cancel): its files' first lines were shown. */
export const PREVIEW_CANCELLED = "preview cancelled: the datasheet's agreement was not computed";

/** Said for an export.preview that a newer one from the same caller replaced (another format, pool or option). */
export const PREVIEW_SUPERSEDED = 'preview replaced by a newer one (another format, pool or option): not computed further';
