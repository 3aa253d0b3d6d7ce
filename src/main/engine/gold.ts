/**
 * Engine handlers of the gold workflow (contract commands annotator.add, annotator.setRole,
 * pool.assign, pool.assignment, pool.setAggregation, pool.aggregation, agreement.report,
 * review.queue, review.settle, eval.compare, export.preview, export.write). Who may call them is
 * decided before they run, in access.ts.
 */
import type { AppInfo, CommandResult, ParsedArgs } from '../../shared/contract';
import { assignmentNotes, poolVoters } from '../team/assign-notes';
import { knownPeople } from '../team/new-person';
import { setRoleWithNotes } from '../team/role-notes';
import { API_EXPORT_CONTROLS, APP_EXPORT_CONTROLS, type ExportFormat, type ExportWritten } from '../../shared/gold';
import { NotFoundError } from '../errors';
import { abandonExportStream, defaultExportName, finishExportWriteCancellable, openExportStream, prepareExportWrite, type BuiltExport, type DatasheetAgreement, type ExportOptions, type ExportRun } from '../export';
import {
  addAnnotator,
  aggregationSummary,
  assignPool,
  assignmentView,
  checkJudge,
  KeptPoolState,
  needsReview,
  loadPoolState,
  type PoolState,
  pairKey,
  reviewPair,
  reviewQueue,
  setAggregation,
} from '../gold';
import type { EngineCore as Engine } from './core';
import { changedRecord, setLabel } from './annotate';
import { takenBefore } from './label-stamps';
import { checkRulingSeen } from '../gold/ruling-seen';
import { compute } from './compute';
import { runExportJob } from './export-job';
import { downloadStatuses, writeForDownload } from './export-download';
import { PreviewJobs, agreementHoldsBack, previewOf } from './export-preview';
import { principalOf } from './access';
import { StampedCache } from '../workspace/stamped-cache';

type GoldCommand =
  | 'annotator.add'
  | 'annotator.setRole'
  | 'pool.assign'
  | 'pool.assignment'
  | 'pool.setAggregation'
  | 'pool.aggregation'
  | 'agreement.report'
  | 'review.queue'
  | 'review.pair'
  | 'review.settle'
  | 'eval.compare'
  | 'export.preview'
  | 'export.write'
  | 'export.downloads';

type Ctx = { annotator: string | null };
export type GoldHandlers = { [C in GoldCommand]: (args: ParsedArgs<C>, ctx: Ctx) => CommandResult<C> | Promise<CommandResult<C>> };

/** Whether a stamped ruling was taken already (the outbox's resend of a ruling saved before its answer was lost). */
function stampTaken(ws: Engine['ws'], a: { pool: string; queryId: string; candidateId: string; judge: string; stamp?: Parameters<typeof takenBefore>[1] }): boolean {
  try {
    return !!a.stamp && takenBefore(ws, a.stamp, String(ws.poolId(a.pool)), { queryId: a.queryId, candidateId: a.candidateId, annotator: a.judge }) !== undefined;
  } catch {
    return false;
  }
}

export function goldHandlers(engine: Engine, version = '0.1.0', transport: AppInfo['transport'] = 'electron'): GoldHandlers {
  const ws = engine.ws;
  /** A pool's settings or assignment (`pool`), or a person's role (`annotator`), changed: access.ts canSee says who is told. */
  const changed = (about: { pool: string } | { annotator: string }): void => engine.hub.emit('workspace.changed', { what: 'pool', ...about });
  /** Writes go through the engine's write gate (one writer at a time, after running imports). */
  const write = <T>(fn: () => T): Promise<T> => engine.writes.run(fn);
  /**
   * The datasheet agreement of each pool's last export, with the workspace's change stamp when it
   * was started: the Export screen renders a preview on every change of format or options, and the
   * agreement (the same for all of them) took 20–40 s on a 40,000-pair pool. Any write makes it stale.
   */
  const agreements = new StampedCache<string, DatasheetAgreement>(ws, 8);
  /**
   * The last pool state read, with the workspace's change stamp: the Review screen asks for the
   * pool's judges (pool.assignment), then for the queue and the pair under the cursor at each j/k
   * (review.pair), a ruling (review.settle) reads the state before and after it, and the queue is
   * read again after it; reading a pool's labels took 50-150 ms on a 6,000-pair pool (200-500 ms
   * for 17,000 labels on a 300-query pool, read twice when Review opened: pool.assignment, then
   * review.queue). A label updates it (kept-state.ts: only the labeled pairs are computed again;
   * 600-1,355 ms per pair read during a burst of labels on a 3,000-query pool); any other write
   * makes it stale.
   */
  const reviewStates = new KeptPoolState(ws);
  const reviewStateOf = (pool: string): PoolState => reviewStates.get(pool);
  /** Each caller's running preview job, which their next export.preview cancels. */
  const previews = new PreviewJobs(engine);
  /** An export rendered (compute.ts: inline when small, else in a worker on a snapshot of the workspace). */
  const renderExport = async (pool: string, format: ExportFormat, out: string, options: Omit<ExportOptions, 'force'>, run: ExportRun): Promise<BuiltExport> => {
    const stamp = ws.changeStamp();
    const known = agreements.at(pool, stamp);
    const reuse = known ? { datasheetAgreement: known } : {};
    const b = await compute(ws, { kind: 'export', pool, format, out, options: { ...options, ...reuse } }, { signal: run.signal, onProgress: run.onProgress });
    if (!b.datasheetAgreement.pending) agreements.put(pool, stamp, b.datasheetAgreement);
    return b;
  };
  return {
    'annotator.add': (a) =>
      write(() => {
        const role = addAnnotator(ws, a.name, a.role);
        changed({ annotator: a.name.trim() });
        return { name: a.name, role };
      }),
    'annotator.setRole': (a) =>
      write(() => {
        // A person of the server's tokens file whom the workspace does not know yet signs in as an annotator: their role is kept here too.
        const { role, notes } = setRoleWithNotes(ws, a.name, a.role, { signsIn: engine.signsInWithServerToken(a.name.trim()) });
        changed({ annotator: a.name.trim() });
        return notes.length ? { name: a.name, role, notes } : { name: a.name, role };
      }),
    'pool.assign': (a) =>
      write(() => {
        const known = knownPeople(ws);
        const voters = poolVoters(ws, a.pool);
        assignPool(ws, a.pool, a.annotators, a.perQuery ?? null, a.seed);
        changed({ pool: a.pool });
        const notes = assignmentNotes(ws, a.annotators, known, voters);
        return notes.length ? { ...assignmentView(ws, a.pool), notes } : assignmentView(ws, a.pool);
      }),
    'pool.assignment': (a) => assignmentView(ws, a.pool, a.annotator, reviewStateOf(a.pool)),
    'pool.setAggregation': (a) =>
      write(() => {
        setAggregation(ws, a.pool, a.rule, a.threshold);
        changed({ pool: a.pool });
        return aggregationSummary(loadPoolState(ws, a.pool));
      }),
    'pool.aggregation': (a) => aggregationSummary(reviewStateOf(a.pool)),
    // Heavy and read-only: off the engine's thread when large (compute.ts); ctx.signal (the
    // transport's, when the client goes away) cancels it.
    'agreement.report': (a, ctx) =>
      compute(
        ws,
        { kind: 'agreement', pool: a.pool, annotators: a.annotators, queries: a.queries, bootstrap: a.bootstrap, seed: a.seed },
        { signal: (ctx as { signal?: AbortSignal }).signal },
      ),
    'review.queue': (a) => reviewQueue(ws, a.pool, a.judge, { includeSettled: a.includeSettled, limit: a.limit, since: a.since, queries: a.queries }, reviewStateOf(a.pool)),
    'review.pair': (a) => reviewPair(ws, a.pool, a.judge, a.queryId, a.candidateId, reviewStateOf(a.pool)),
    'review.settle': (a) =>
      write(() => {
        // The state the queue was read from, unless something changed since (reviewStateOf).
        const s = reviewStateOf(a.pool);
        checkJudge(ws, s, a.judge);
        if (!s.byKey.has(pairKey(a.queryId, a.candidateId))) throw new NotFoundError(`pair ${a.queryId} → ${a.candidateId} is not in pool "${a.pool}"`);
        // Another judge's ruling given since the client last saw the pair is not overruled unseen (a resent ruling already taken is not checked again).
        if (!(a.stamp && stampTaken(ws, a))) checkRulingSeen(s, a.judge, a, a.value, a.ifRuling);
        // The ruling itself ("?" settles nothing; only a pair in dispute) is checked where every
        // judge's label is: setLabel → checkRuling (gold/review.ts).
        const args = { pool: a.pool, queryId: a.queryId, candidateId: a.candidateId, annotator: a.judge, value: a.value, note: a.note, ifLatest: a.ifLatest, ifNote: a.ifNote, stamp: a.stamp };
        const ack = setLabel(ws, args, s);
        const rec = changedRecord(ws, args, ack);
        if (rec) engine.hub.emit('label.changed', rec);
        // Kept for the queue and pair reads that follow the ruling.
        const after = reviewStateOf(a.pool);
        const remaining = after.pairs.filter((x) => needsReview(x) && !x.judge).length;
        return { ...ack, remaining };
      }),
    'eval.compare': (a, ctx) =>
      compute(
        ws,
        {
          kind: 'compare',
          pool: a.pool,
          runs: a.runs,
          metric: a.metric,
          annotator: a.annotator,
          convention: a.convention,
          ties: a.ties,
          threshold: a.threshold,
          bootstrap: a.bootstrap,
          permutations: a.permutations,
          seed: a.seed,
          alpha: a.alpha,
          baseline: a.baseline,
        },
        { signal: (ctx as { signal?: AbortSignal }).signal },
      ),
    // Rendered off the engine's thread when large (compute.ts): the datasheet's agreement bootstrap
    // took 25–40 s on a 40,000-pair pool, and no annotator's label was taken meanwhile. In two steps,
    // the second a job that the caller's next preview supersedes (export-preview.ts).
    'export.preview': async (a, ctx) => {
      const options = { run: a.run, annotator: a.annotator, version, text: a.text, previewLines: a.lines, pseudonymize: a.pseudonymize };
      const out = defaultExportName(a.pool, a.format);
      const transport = (ctx as { signal?: AbortSignal }).signal;
      const caller = principalOf(ctx);
      if (a.agreementLater) {
        previews.supersede(caller);
        const later = agreementHoldsBack(ws, { pool: a.pool, format: a.format, out, options });
        return previewOf(await renderExport(a.pool, a.format, out, { ...options, agreementLater: later }, { signal: transport }), a.lines);
      }
      return previews.run(caller, a.pool, transport, async (run) => previewOf(await renderExport(a.pool, a.format, out, options, run), a.lines));
    },
    // A job of kind 'export' (export-job.ts): its progress moves the Export screen's bar, job.cancel stops it.
    'export.write': (a, ctx): Promise<ExportWritten> => {
      const options = { run: a.run, annotator: a.annotator, version, text: a.text, pseudonymize: a.pseudonymize };
      if (a.path !== undefined) {
        // A refused target is refused before the (long) rendering; the files are written here, all or none.
        // The refusal for files in the way names the desktop app's "Replace them", not the CLI's --force; in
        // serve mode (whose Export screen downloads, never names a path) the caller is a script: its force argument.
        const replace = { force: a.force, replaceChosen: a.replaceChosen, controls: transport === 'electron' ? APP_EXPORT_CONTROLS : API_EXPORT_CONTROLS };
        const target = prepareExportWrite(ws, a.format, a.path, { ...replace, pool: a.pool, run: a.run, text: a.text });
        return runExportJob(engine, (ctx as { signal?: AbortSignal }).signal, async (run) => {
          // The files are streamed to temporary names as they are rendered, never whole in memory (export/line-sink.ts).
          const stream = openExportStream(target);
          let built: BuiltExport;
          try {
            built = await renderExport(a.pool, a.format, target.abs, { ...options, streamToken: stream.token }, run);
          } catch (e) {
            abandonExportStream(target, stream);
            throw e;
          }
          run.onProgress('writing', 0, 0);
          // A cancel while the files are written removes their temporary files: nothing is renamed.
          const b = await finishExportWriteCancellable(target, built, replace, run.signal, stream);
          return {
            pool: b.pool,
            format: b.format,
            files: [...b.files, b.datasheet].map((f) => ({ name: f.name, bytes: f.bytes ?? Buffer.byteLength(f.content) })),
            warnings: b.warnings,
          };
        });
      }
      if (a.download) {
        // Streamed to the server's own folder and fetched by id (export-download.ts), never whole in memory.
        const request = { pool: a.pool, format: a.format, run: a.run, text: a.text, owner: principalOf(ctx) };
        return runExportJob(engine, (ctx as { signal?: AbortSignal }).signal, (run) =>
          writeForDownload(engine, request, (out, streamToken, r) => renderExport(a.pool, a.format, out, { ...options, streamToken }, r), run),
        );
      }
      return runExportJob(engine, (ctx as { signal?: AbortSignal }).signal, async (run) => {
        const b = await renderExport(a.pool, a.format, defaultExportName(a.pool, a.format), options, run);
        return {
          pool: b.pool,
          format: b.format,
          files: [...b.files, b.datasheet].map((f) => ({ name: f.name, bytes: Buffer.byteLength(f.content), content: f.content })),
          warnings: b.warnings,
        };
      });
    },
    // What became of the caller's own downloads (the Export screen's per-file state); anyone else's id reads as unknown.
    'export.downloads': (a, ctx) => downloadStatuses(engine.downloads, a.ids, ctx),
  };
}
