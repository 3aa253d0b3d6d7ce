import { parseArgs, isCommandName, ContractError, commandRoles, roleAllows, wireReason } from '../../shared/contract';
import type {
  CommandName,
  CommandResult,
  EventName,
  EventPayloads,
  ParsedArgs,
  AppInfo,
} from '../../shared/contract';
import type { WorkspaceNotice } from '../../shared/types';
import { NotFoundError, QPairsError, unlessAborted } from '../errors';
import { Workspace } from '../workspace/workspace';
import { EventHub } from './events';
import { JobRunner } from './jobs';
import { WriteGate } from './write-gate';
import { annotateQuery, annotatorQueryList, navigate, poolProgress, setLabel, changedRecord, undoLabel } from './annotate';
import { drawForAnnotator, labelOrderOf, needsDraw } from './label-order';
import { LiveTrainer } from './live-training';
import { readLiveSetting, writeLiveSetting } from '../training/live-store';
import { createPoolJob, importJob, indexReady, preloadIndex, setPoolSettings } from './work';
import { finishUndoInBackground, undoImportJob } from './undo-import';
import { undoableImport } from '../workspace/undo-last';
import { evaluateQuery, withPoolConvention } from './evaluate';
import { LivePoolEvaluations } from './live-metrics';
import { browseIndex, highlightVocabulary, loadHighlightIndex, searchQuestions, showQuestion } from './browse';
import { deleteModelCommand, loadedModelBackend, modelsView, scoreJob, trainJob, withModelOverlap } from './models';
import { goldHandlers } from './gold';
import type { EngineCore } from './core';
import { stopComputations } from './compute';
import { AsyncLocalStorage } from 'node:async_hooks';
import { basename } from 'node:path';
import { localUserName } from './local-user';
import { checkSameWorkspace, ensureWorkspaceId } from './workspace-id';
import { hasLiveToken, inviteAnnotator, revokeAnnotator, teamWithServerTokens, TokenVerifier } from '../team/tokens';
import { DEFAULT_MAX_TRAININGS, TrainingQueue } from './training-queue';
import { withoutServerPaths } from './server-paths';
import { followOpenPools } from './pools-told';
import { DownloadStore, type TakenDownload } from '../export/downloads';
import { argsForCaller, authorize, authorizeCommand, authorizeDownload, runsHiddenFrom, withPeopleNamed, seqsFromCaller, messageForCaller, eventForCaller, canSee, filterResult, LOCAL_OWNER, principalOf, resolveCaller, type AccessContext, type Caller, type CallerInput } from './access';

export interface EngineOptions {
  transport: AppInfo['transport'];
  version?: string;
  /** Serve mode: maps an upload id (POST /api/upload) to the file it was stored in. */
  resolveUpload?: (uploadId: string) => string;
  /** How many model trainings may run at once (default 1); more wait, shown as queued. */
  maxTrainings?: number;
  /**
   * Load the BM25 index in the background, in slices, when the engine opens and after each import
   * or undo (the app and serve mode: work.ts preloadIndex), rather than in one go at the first
   * search or query view, which held every request for seconds on a large workspace.
   */
  preloadIndex?: boolean;
  /**
   * What the process that opened the engine tells the workspace's owners, with the open's own notices
   * (app.info): the desktop app's `last-missing`. An owner not on this machine gets them without server paths.
   */
  startNotices?: WorkspaceNotice[];
  /** Where exports to download are kept (default: downloads.ts defaultDownloadBase). */
  downloadBase?: string;
}

type Handler<C extends CommandName> = (args: ParsedArgs<C>, ctx: Caller) => CommandResult<C> | Promise<CommandResult<C>>;
type Handlers = { [C in CommandName]: Handler<C> };

/**
 * The engine: one workspace, the command handlers of the contract, the job runner and the
 * event hub. Transports (Electron IPC, serve mode's HTTP/WebSocket, tests) call `invoke` with
 * raw, untrusted arguments; every argument is validated here before any handler runs.
 */
export class Engine implements EngineCore {
  readonly hub = new EventHub();
  /** The caller of the command being handled (jobs remember who started them). */
  private readonly calling = new AsyncLocalStorage<Caller>();
  readonly jobs = new JobRunner(this.hub, () => {
    const c = this.calling.getStore();
    return c ? principalOf(c) : undefined;
  });
  private readonly access: AccessContext;
  /** Every write goes through this gate (see write-gate.ts). */
  readonly writes = new WriteGate();
  private readonly handlers: Handlers;
  /** eval.pool's per-query results kept between labels (live-metrics.ts). */
  readonly liveEvaluations: LivePoolEvaluations;
  /** "Learn as we label": retrains pools' live models as labels arrive (live-training.ts). */
  readonly live: LiveTrainer;
  /** Serve-mode tokens stored in the workspace (issue 23; src/main/team/tokens.ts). */
  readonly tokens: TokenVerifier;
  /** At most `maxTrainings` model trainings at once; the others queue (issue 23; training-queue.ts). */
  readonly trainings: TrainingQueue;
  /**
   * People who sign in with a token serve mode holds in memory (`--tokens-file`, `--token`), not in
   * the workspace: annotator.revoke cannot end those, and says where to (setServerTokenNames).
   */
  private serverTokenNames: ReadonlySet<string> = new Set();
  readonly downloads: DownloadStore;

  constructor(
    readonly ws: Workspace,
    private readonly opts: EngineOptions,
  ) {
    this.access = { ws, jobStarter: (id) => this.jobs.starterOf(id), jobRunning: (id) => this.jobs.isRunning(id) };
    followOpenPools(ws, this.hub);
    this.tokens = new TokenVerifier(ws);
    this.downloads = new DownloadStore(opts.downloadBase);
    this.trainings = new TrainingQueue(opts.maxTrainings ?? DEFAULT_MAX_TRAININGS);
    this.liveEvaluations = new LivePoolEvaluations(ws);
    this.workspaceId = ensureWorkspaceId(ws);
    this.handlers = this.makeHandlers();
    this.live = new LiveTrainer(this);
    this.indexChanged();
  }

  /**
   * Starts finishing, as a background job, an undo of the last import that a crash or kill stopped partway and
   * that this engine's open left (Engine.openLocked; undo-import.ts finishUndoInBackground): called by the app and serve
   * mode once they hold the workspace's lock. Returns the job's id, or null when there is none.
   */
  finishInterruptedUndo(): string | null {
    return finishUndoInBackground(this);
  }

  /** The workspace's own id (workspace-id.ts), made when it opens. */
  private readonly workspaceId: string | null;

  /** Stops a background index load when the engine closes. */
  private readonly closing = new AbortController();

  indexChanged(): void {
    if (this.opts.preloadIndex && !this.ws.readonly) void preloadIndex(this.ws, this.closing.signal);
  }

  /**
   * Tests and scripts, which hold no lock on the workspace: what a writer whose process is gone left (an interrupted
   * import, runs half stored) is not rolled back, since another process may be writing or recovering it (the app and
   * serve mode use openLocked, which rolls it back once the lock is held); an undo a crash or kill stopped partway is
   * left too, for finishInterruptedUndo. Before, this open rolled back what it found before any lock.
   */
  static open(path: string, opts: EngineOptions): Engine {
    return Engine.openLocked(path, opts, () => false);
  }

  /**
   * The app and serve mode, which hold the workspace's lock: `holdLock` is called on the opened workspace
   * (before anything is written) and takes the lock, saying whether it is held; only then is what a writer whose process
   * is gone left rolled back (an interrupted import, runs half stored: Workspace.recoverLeftWrites) — not while another
   * process writes, nor by two processes at once. Without the lock (read-only) it is left. A throw closes the workspace;
   * the lock is the caller's to release.
   */
  static openLocked(path: string, opts: EngineOptions, holdLock: (ws: Workspace) => boolean): Engine {
    const ws = Workspace.open(path, { interruptedUndo: 'leave', recovery: 'later' });
    try {
      if (holdLock(ws)) ws.recoverLeftWrites();
      return new Engine(ws, opts);
    } catch (e) {
      ws.close();
      throw e;
    }
  }

  /**
   * Serve mode tells who holds an in-memory token (at start, and whenever --tokens-file changes). Kept
   * and compared in NFC: a line's "Zoë" is the stored Zoë however each is spelled (Workspace.personName).
   */
  setServerTokenNames(names: Iterable<string>): void {
    this.serverTokenNames = new Set([...names].map((n) => n.normalize('NFC')));
  }

  signsInWithServerToken(name: string): boolean {
    return this.serverTokenNames.has(name.normalize('NFC'));
  }

  /** The file behind an upload id (serve mode); a readable error elsewhere. */
  resolveUpload(uploadId: string, name: string): string {
    if (!this.opts.resolveUpload) throw new QPairsError(`cannot import upload "${name}": uploads exist only in serve mode`);
    return this.opts.resolveUpload(uploadId);
  }

  close(): void {
    this.closing.abort();
    this.live.close();
    stopComputations(this.ws.path);
    this.downloads.clear();
    this.ws.close();
  }

  on<E extends EventName>(event: E, fn: (payload: EventPayloads[E]) => void): () => void {
    return this.hub.on(event, fn);
  }

  /**
   * Validates and runs a command for a caller: the arguments against the contract, then the
   * caller's role and rights (access.ts), then the handler; an annotator of a blind pool gets only
   * what is theirs of the result. Default caller: the owner on this machine (desktop app, tests).
   */
  async invoke(command: unknown, rawArgs: unknown, input: CallerInput = LOCAL_OWNER): Promise<unknown> {
    if (!isCommandName(command)) throw new ContractError(`unknown command: ${String(command)}`, 'invalid-argument');
    this.ws.noticeExternalChanges(); // another process's commits: reload cached indexes and scores
    const caller = resolveCaller(this.ws, input);
    authorizeCommand(this.access, command, caller);
    // An annotator numbers her label events by her own count (own-seq.ts): the workspace's numbers here.
    const args = seqsFromCaller(this.ws, command, withPeopleNamed(this.ws, command, parseArgs(command, rawArgs)), caller);
    authorize(this.access, command, args, caller);
    try {
      checkSameWorkspace(this.ws, this.workspaceId, command, args);
      const runArgs = argsForCaller(command, args, caller);
      const result = await this.calling.run(caller, () => (this.handlers[command] as Handler<typeof command>)(runArgs as never, caller));
      return filterResult(this.ws, command, args, result as never, caller);
    } catch (e) {
      const message = e instanceof QPairsError ? messageForCaller(this.ws, command, e.message, caller) : '';
      if (e instanceof NotFoundError) throw new ContractError(message, 'not-found', wireReason(e.details.reason));
      if (e instanceof QPairsError) throw new ContractError(message, 'user-error', wireReason(e.details.reason));
      throw e;
    }
  }

  /**
   * Whether a caller's role may call a command at all (the role table; arguments are checked when
   * it is called). Serve mode asks before taking an upload: uploads only feed import.start.
   */
  mayCall(input: CallerInput, command: CommandName): boolean {
    return roleAllows(resolveCaller(this.ws, input).role, commandRoles[command]);
  }

  /**
   * Takes an export's download for a caller (serve mode's GET /api/download/ID), once: refused unless the
   * caller asked for it and may still export (access.ts authorizeDownload). Its paths are the server's, to
   * send from; call `sent` once the bytes are out (the files are then removed), `unsent` when the transfer
   * was cut off (the id is given back: the browser's Retry fetches it).
   */
  takeDownload(id: string, input: CallerInput): TakenDownload {
    authorizeDownload(this.access, this.downloads.peek(id), resolveCaller(this.ws, input));
    return this.downloads.take(id)!;
  }

  /** Whether an event may reach a caller (transports ask before sending each event). */
  canSee<E extends EventName>(input: CallerInput, event: E, payload: EventPayloads[E]): boolean {
    return canSee(this.access, resolveCaller(this.ws, input), event, payload);
  }

  /** The event as a caller who may see it gets it (an annotator's label events by her own numbers; access.ts eventForCaller). */
  eventFor<E extends EventName>(input: CallerInput, event: E, payload: EventPayloads[E]): EventPayloads[E] {
    return eventForCaller(this.ws, resolveCaller(this.ws, input), event, payload);
  }

  /**
   * Makes the draws an annotator's next query needs (a write: inside the gate), tells the clients
   * (as draws: no label changed, and an open Review screen reads nothing again), then answers.
   */
  private drawThen<T>(pool: string, annotator: string, answer: () => T): Promise<T> {
    return this.writes.run(() => {
      if (drawForAnnotator(this.ws, pool, annotator) > 0) this.hub.emit('workspace.changed', { what: 'draws', pool, annotator });
      return answer();
    });
  }

  private makeHandlers(): Handlers {
    const ws = this.ws;
    return {
      'app.info': (_a, ctx) => ({
        version: this.opts.version ?? '0.1.0',
        workspaceName: basename(ws.path),
        workspaceId: this.workspaceId,
        transport: this.opts.transport,
        modelBackend: loadedModelBackend(),
        annotator: ctx.annotator,
        role: ctx.role,
        local: ctx.local,
        readonly: ws.db.readonly,
        suggestedAnnotator: ctx.local && ctx.role === 'owner' && ctx.annotator === null ? localUserName() : null,
        // Owners only; one not on this machine (a link's) gets them without server paths (server-paths.ts).
        notices:
          ctx.role === 'owner'
            ? [...(this.opts.startNotices ?? []), ...ws.openNotices(), ...ws.readonlyNotices()].map((n) => (ctx.local ? n : { ...n, message: withoutServerPaths(n.message, ws.path) }))
            : [],
      }),
      'workspace.stats': () => ws.stats(),
      'import.start': (a, c) => ({ jobId: importJob(this, a, c.annotator) }),
      'import.undoable': () => undoableImport(ws.db),
      'import.undo': (a) => ({ jobId: undoImportJob(this, a.started) }),
      'job.cancel': (a) => ({ cancelled: this.jobs.cancel(a.jobId) }),
      'job.status': (a) => ({ running: this.jobs.isRunning(a.jobId) }),
      'pool.list': () => ws.listPools(),
      // The index loading in the background first (not under the write gate: labels go on meanwhile).
      'pool.create': async (a) => {
        await indexReady(ws);
        return this.writes.run((letOthersRun) => createPoolJob(this, a, letOthersRun));
      },
      'pool.setGuidelines': (a) =>
        this.writes.run(() => {
          ws.setGuidelines(a.pool, a.markdown);
          this.hub.emit('workspace.changed', { what: 'guidelines', pool: a.pool });
          return ws.pool(a.pool);
        }),
      'pool.set': (a) =>
        this.writes.run(() => {
          const info = setPoolSettings(ws, a.pool, a);
          this.hub.emit('workspace.changed', { what: 'pool', pool: a.pool });
          return info;
        }),
      'pool.progress': (a) => poolProgress(ws, a.pool),
      'annotator.list': () => ws.listAnnotators().map((x) => ({ name: x.name, role: x.role })),
      // An ordered pool draws the next query when an annotator has done every drawn one (a write).
      // Issue 24: shared terms highlighted only when rare in the workspace (the index's document frequencies).
      'annotate.query': async (a) => {
        await loadHighlightIndex(ws, this.writes);
        return !a.queryId && needsDraw(ws, a.pool, a.annotator) ? this.drawThen(a.pool, a.annotator, () => annotateQuery(ws, a, highlightVocabulary(ws, this.writes))) : annotateQuery(ws, a, highlightVocabulary(ws, this.writes));
      },
      'annotate.navigate': async (a) => {
        await loadHighlightIndex(ws, this.writes);
        return a.direction === 'next-unlabeled' && needsDraw(ws, a.pool, a.annotator)
          ? this.drawThen(a.pool, a.annotator, () => annotateQuery(ws, { pool: a.pool, annotator: a.annotator }, highlightVocabulary(ws, this.writes)))
          : navigate(ws, a, highlightVocabulary(ws, this.writes));
      },
      'annotate.queries': (a) => annotatorQueryList(ws, a),
      'label.set': (a) =>
        this.writes.run(() => {
          const ack = setLabel(ws, a);
          const rec = changedRecord(ws, a, ack);
          if (rec) this.hub.emit('label.changed', rec);
          return ack;
        }),
      'label.undo': (a) =>
        this.writes.run(() => {
          const rec = undoLabel(ws, a.seq, a.annotator, a.note, a.pair);
          this.hub.emit('label.changed', rec);
          return rec;
        }),
      'live.set': (a) =>
        this.writes.run(() => {
          // Settings left out keep the pool's current ones (the defaults for a pool never set).
          const cur = readLiveSetting(ws, a.pool);
          writeLiveSetting(ws, a.pool, {
            enabled: a.enabled,
            everyLabels: a.everyLabels ?? cur.everyLabels,
            idleSeconds: a.idleSeconds ?? cur.idleSeconds,
            models: [...new Set(a.models ?? cur.models)],
            trainPools: [...new Set((a.trainPools ?? cur.trainPools).map((p) => ws.pool(p).name))],
          });
          this.live.consider(a.pool);
          return this.live.status(a.pool);
        }),
      'live.status': (a) => this.live.status(ws.pool(a.pool).name),
      'live.retrain': (a) => ({ jobId: this.live.start(ws.pool(a.pool).name) }),
      // An annotator's standing is of the runs she is shown (access.ts runsHiddenFrom), ranked without the others.
      'eval.order': (a, ctx) => labelOrderOf(ws, a.pool, a, runsHiddenFrom(ws, ctx, a.pool)),
      // One snapshot of the workspace: pool, runs, scores and labels are read by several statements, and
      // a label serve mode commits between two of them would otherwise be in some reads and not others.
      'eval.pool': (given) =>
        ws.snapshot(() => {
          const a = withPoolConvention(ws, given); // issue 24: the pool's own convention unless the caller names one
          const ev = this.liveEvaluations.evaluate(a);
          return withModelOverlap(ws, ev, () => this.liveEvaluations.countedQueryIds(a) ?? []);
        }),
      'eval.query': (a) => evaluateQuery(ws, a),
      // A caller gone while the index loads (3-8 s after a start or an import at 1M questions) stops waiting for it,
      // so the slot serve mode gave its search is free again; the load goes on for the next search.
      'questions.search': async (a, ctx) => searchQuestions(ws, a, await unlessAborted(browseIndex(ws, this.writes), ctx.signal)),
      'question.show': (a, ctx) => showQuestion(ws, a, ctx),
      'models.list': () => modelsView(this),
      'models.train': (a, ctx) => ({ jobId: trainJob(this, a, ctx) }),
      'models.score': (a) => ({ jobId: scoreJob(this, a) }),
      'models.delete': (a) => deleteModelCommand(this, a),
      // Issue 23: people live in the workspace. The token is returned this once (serve mode adds the link).
      'annotator.invite': (a) =>
        this.writes.run(() => {
          const inv = inviteAnnotator(ws, a.name, a.role);
          // A new link revokes the earlier one: its open event sockets close too, as on annotator.revoke.
          if (inv.revokedEarlier > 0) this.tokens.revoked(inv.name);
          this.hub.emit('workspace.changed', { what: 'team', annotator: inv.name });
          return { ...inv, link: null };
        }),
      'annotator.revoke': (a) =>
        this.writes.run(() => {
          // A person of the server's tokens file keeps signing in whatever is revoked here: say where their token is.
          // (Revoking only their workspace link would leave them in, and the file's next change would let them in again.)
          if (this.signsInWithServerToken(a.name)) {
            throw new QPairsError(
              `"${a.name}" signs in with a token the server was started with (--tokens-file, or --token), held in memory, not in the workspace: ` +
                `delete their line from the tokens file — the running server reads it again and revokes them at once (a --token needs a restart without it)` +
                (hasLiveToken(ws, a.name) ? '; then revoke their link here too' : ''),
            );
          }
          const r = revokeAnnotator(ws, a.name);
          this.tokens.revoked(r.name);
          this.hub.emit('workspace.changed', { what: 'team', annotator: r.name });
          return r;
        }),
      'annotator.team': () => teamWithServerTokens(ws, this.serverTokenNames),
      ...goldHandlers(this, this.opts.version, this.opts.transport),
    };
  }
}
