import { parseArgs, isCommandName, ContractError } from '../../shared/contract';
import type {
  CommandName,
  CommandResult,
  EventName,
  EventPayloads,
  ParsedArgs,
  AppInfo,
} from '../../shared/contract';
import { QPairsError } from '../errors';
import { Workspace } from '../workspace/workspace';
import { EventHub } from './events';
import { JobRunner } from './jobs';
import { WriteGate } from './write-gate';
import { annotateQuery, navigate, poolProgress, setLabel, undoLabel } from './annotate';
import { createPoolJob, importJob } from './work';
import { evaluatePool, evaluateQuery } from './evaluate';
import { deleteModelCommand, loadedModelBackend, modelsView, scoreJob, trainJob } from './models';
import { authorizeGold, goldHandlers } from './gold';

export interface EngineOptions {
  transport: AppInfo['transport'];
  version?: string;
  /** Serve mode: maps an upload id (POST /api/upload) to the file it was stored in. */
  resolveUpload?: (uploadId: string) => string;
}

type Handler<C extends CommandName> = (args: ParsedArgs<C>, ctx: { annotator: string | null }) => CommandResult<C> | Promise<CommandResult<C>>;
type Handlers = { [C in CommandName]: Handler<C> };

/**
 * The engine: one workspace, the command handlers of the contract, the job runner and the
 * event hub. Transports (Electron IPC, serve mode's HTTP/WebSocket, tests) call `invoke` with
 * raw, untrusted arguments; every argument is validated here before any handler runs.
 */
export class Engine {
  readonly hub = new EventHub();
  readonly jobs = new JobRunner(this.hub);
  /** Every write goes through this gate (see write-gate.ts). */
  readonly writes = new WriteGate();
  private readonly handlers: Handlers;

  constructor(
    readonly ws: Workspace,
    private readonly opts: EngineOptions,
  ) {
    this.handlers = this.makeHandlers();
  }

  static open(path: string, opts: EngineOptions): Engine {
    return new Engine(Workspace.open(path), opts);
  }

  /** The file behind an upload id (serve mode); a readable error elsewhere. */
  resolveUpload(uploadId: string, name: string): string {
    if (!this.opts.resolveUpload) throw new QPairsError(`cannot import upload "${name}": uploads exist only in serve mode`);
    return this.opts.resolveUpload(uploadId);
  }

  close(): void {
    this.ws.close();
  }

  on<E extends EventName>(event: E, fn: (payload: EventPayloads[E]) => void): () => void {
    return this.hub.on(event, fn);
  }

  /**
   * Validates and runs a command. `ctx.annotator` (from a serve-mode token) restricts which
   * annotator the caller may act as.
   */
  async invoke(command: unknown, rawArgs: unknown, ctx: { annotator: string | null } = { annotator: null }): Promise<unknown> {
    if (!isCommandName(command)) throw new ContractError(`unknown command: ${String(command)}`, 'invalid-argument');
    const args = parseArgs(command, rawArgs);
    if (ctx.annotator && args && typeof args === 'object' && 'annotator' in args && (args as { annotator?: string }).annotator !== ctx.annotator) {
      if (command === 'label.set' || command === 'label.undo' || command === 'annotate.query' || command === 'annotate.navigate') {
        throw new ContractError(`this token acts as annotator "${ctx.annotator}" only`, 'forbidden');
      }
    }
    authorizeGold(this, this.opts.transport, command, args, ctx);
    if (ctx.annotator && (command === 'models.train' || command === 'models.score' || command === 'models.delete')) {
      const role = this.ws.listAnnotators().find((a) => a.name === ctx.annotator)?.role;
      if (role !== 'judge') throw new ContractError('training and scoring models is for the researcher (or a judge), not an annotator token', 'forbidden');
    }
    try {
      return await (this.handlers[command] as Handler<typeof command>)(args as never, ctx);
    } catch (e) {
      if (e instanceof QPairsError) throw new ContractError(e.message, 'user-error');
      throw e;
    }
  }

  private makeHandlers(): Handlers {
    const ws = this.ws;
    return {
      'app.info': (_a, ctx) => ({
        version: this.opts.version ?? '0.1.0',
        workspacePath: ws.path,
        transport: this.opts.transport,
        modelBackend: loadedModelBackend(),
        annotator: ctx.annotator,
      }),
      'workspace.stats': () => ws.stats(),
      'import.start': (a) => ({ jobId: importJob(this, a) }),
      'job.cancel': (a) => ({ cancelled: this.jobs.cancel(a.jobId) }),
      'pool.list': () => ws.listPools(),
      'pool.create': (a) => this.writes.run(() => createPoolJob(this, a)),
      'pool.setGuidelines': (a) =>
        this.writes.run(() => {
          ws.setGuidelines(a.pool, a.markdown);
          this.hub.emit('workspace.changed', { what: 'guidelines' });
          return ws.pool(a.pool);
        }),
      'pool.progress': (a) => poolProgress(ws, a.pool),
      'annotator.list': () => ws.listAnnotators().map((x) => ({ name: x.name, role: x.role })),
      'annotate.query': (a) => annotateQuery(ws, a),
      'annotate.navigate': (a) => navigate(ws, a),
      'label.set': (a) =>
        this.writes.run(() => {
          const ack = setLabel(ws, a);
          if (ack.record) this.hub.emit('label.changed', ack.record);
          return ack;
        }),
      'label.undo': (a) =>
        this.writes.run(() => {
          const rec = undoLabel(ws, a.seq, a.annotator);
          this.hub.emit('label.changed', rec);
          return rec;
        }),
      'eval.pool': (a) => evaluatePool(ws, a),
      'eval.query': (a) => evaluateQuery(ws, a),
      'models.list': () => modelsView(this),
      'models.train': (a) => ({ jobId: trainJob(this, a) }),
      'models.score': (a) => ({ jobId: scoreJob(this, a) }),
      'models.delete': (a) => deleteModelCommand(this, a),
      ...goldHandlers(this, this.opts.version),
    };
  }
}
