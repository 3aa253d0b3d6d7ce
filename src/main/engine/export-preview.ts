/**
 * export.preview in two steps, so the Export screen shows a large pool's files at once: asked with
 * `agreementLater`, it answers with the files' first lines and the datasheet, whose agreement section
 * says it is not in the preview yet (unless an earlier export computed it: `agreementPending` is then unset);
 * asked without it, it renders the whole datasheet as a job of kind 'preview' (export-job.ts), whose
 * `job.progress` events name the pool and say the stage and the bootstrap's resamples done of all, and
 * `job.cancel` stops it. The bootstrap took ~10 s of a 40,000-pair, 3-annotator pool's preview, with
 * nothing on screen and no way to stop it; another format started another one.
 *
 * A caller's newer preview (another format, pool or option, either step) cancels their older preview
 * job, which answers PREVIEW_SUPERSEDED: the older never overwrites the newer on screen, nor keeps a
 * compute worker busy for a result no one will see.
 */
import type { ExportPreview } from '../../shared/gold';
import { QPairsError } from '../errors';
import { PREVIEW_CANCELLED, PREVIEW_SUPERSEDED, type BuiltExport } from '../export';
import type { Workspace } from '../workspace/workspace';
import { estimateWork, type ExportTask } from './compute-task';
import type { EngineCore as Engine } from './core';
import { runRenderJob, type ExportJobRun } from './export-job';

/**
 * A preview's agreement is left for later only when it would hold the answer back (estimated, compute-task.ts):
 * a small pool's preview comes whole at once, with no "computing" step flashing by.
 */
export const AGREEMENT_LATER_MS = 250;

export function agreementHoldsBack(ws: Workspace, task: Omit<ExportTask, 'kind'>): boolean {
  return estimateWork(ws, { kind: 'export', ...task }, AGREEMENT_LATER_MS).ms > AGREEMENT_LATER_MS;
}

/** What the preview shows of a rendered export: each file's first `lines` lines, and the datasheet. */
export function previewOf(b: BuiltExport, lines: number): ExportPreview {
  return {
    pool: b.pool,
    format: b.format,
    datasheet: b.datasheet.content,
    files: b.files.map((f) => ({ name: f.name, lines: f.lines, head: f.lines ? f.content.split('\n').slice(0, lines) : [] })),
    warnings: b.warnings,
    ...(b.datasheetAgreement.pending ? { agreementPending: true } : {}),
  };
}

/** The running preview job of each caller (access.ts principalOf), which their next preview supersedes. */
export class PreviewJobs {
  private readonly running = new Map<string, string>();
  private readonly superseded = new Set<string>();

  constructor(private readonly engine: Engine) {}

  /** Cancels `caller`'s running preview job, if any: they asked for another preview. */
  supersede(caller: string): void {
    const jobId = this.running.get(caller);
    if (jobId === undefined) return;
    this.running.delete(caller);
    if (this.engine.jobs.cancel(jobId)) this.superseded.add(jobId);
  }

  /** Renders `pool`'s preview as `caller`'s preview job, superseding their older one. */
  async run(caller: string, pool: string, transport: AbortSignal | undefined, work: (run: ExportJobRun) => Promise<ExportPreview>): Promise<ExportPreview> {
    this.supersede(caller);
    let jobId = '';
    const report = (p: ExportPreview): unknown => ({ pool: p.pool, format: p.format, files: p.files.map((f) => ({ name: f.name, lines: f.lines })) });
    const onStart = (id: string): void => {
      jobId = id;
      this.running.set(caller, id);
    };
    try {
      return await runRenderJob(this.engine, transport, work, { kind: 'preview', pool, cancelled: PREVIEW_CANCELLED, report, onStart });
    } catch (e) {
      throw this.superseded.has(jobId) ? new QPairsError(PREVIEW_SUPERSEDED) : e;
    } finally {
      this.superseded.delete(jobId);
      if (this.running.get(caller) === jobId) this.running.delete(caller);
    }
  }
}
