/**
 * Engine handlers of the gold workflow (contract commands annotator.add, annotator.setRole,
 * pool.assign, pool.assignment, pool.setAggregation, pool.aggregation, agreement.report,
 * review.queue, review.settle, eval.compare, export.preview, export.write) and their access
 * rules for serve-mode tokens (`authorizeGold`):
 * - a token acts as one annotator: it may only ask for / settle a review queue as that judge,
 *   and may not change annotator roles (no one makes themself a judge);
 * - an annotator of a pool stays blind: their token may not read that pool's agreement report,
 *   review queue or exports (which show other annotators' labels);
 * - `export.write` with a path writes on the engine's machine: only the desktop app (Electron
 *   transport) may; over HTTP the files come back as content for download;
 * - names starting with "@" (the `@aggregate` pseudo-annotator) cannot label or annotate.
 */
import { ContractError, type CommandName, type CommandResult, type ParsedArgs, type AppInfo } from '../../shared/contract';
import { isReservedAnnotatorName, type ExportWritten } from '../../shared/gold';
import { QPairsError } from '../errors';
import { buildExport, defaultExportName, writeExport } from '../export';
import {
  addAnnotator,
  aggregationSummary,
  assignPool,
  assignmentView,
  checkJudge,
  comparePoolRuns,
  isDisagreementEntry,
  loadPoolState,
  pairKey,
  poolAgreement,
  reviewQueue,
  setAggregation,
  setAnnotatorRole,
} from '../gold';
import type { Engine } from './engine';
import { setLabel } from './annotate';

type GoldCommand =
  | 'annotator.add'
  | 'annotator.setRole'
  | 'pool.assign'
  | 'pool.assignment'
  | 'pool.setAggregation'
  | 'pool.aggregation'
  | 'agreement.report'
  | 'review.queue'
  | 'review.settle'
  | 'eval.compare'
  | 'export.preview'
  | 'export.write';

type Ctx = { annotator: string | null };
export type GoldHandlers = { [C in GoldCommand]: (args: ParsedArgs<C>, ctx: Ctx) => CommandResult<C> | Promise<CommandResult<C>> };

const BLIND_COMMANDS: ReadonlySet<string> = new Set(['agreement.report', 'review.queue', 'export.preview', 'export.write']);

/** Access rules for serve-mode tokens and transports (see the module comment); throws ContractError 'forbidden'. */
export function authorizeGold(engine: Engine, transport: AppInfo['transport'], command: CommandName, args: unknown, ctx: Ctx): void {
  const a = (args ?? {}) as Record<string, unknown>;
  if ((command === 'label.set' || command === 'annotate.query' || command === 'annotate.navigate') && typeof a.annotator === 'string' && isReservedAnnotatorName(a.annotator)) {
    throw new ContractError(`annotator names starting with "@" are reserved ("${a.annotator}")`, 'invalid-argument');
  }
  if (command === 'export.write' && a.path !== undefined && transport !== 'electron') {
    throw new ContractError('export.write with a path is only for the desktop app; in serve mode omit the path and download the files', 'forbidden');
  }
  if (!ctx.annotator) return;
  if (command === 'annotator.add' || command === 'annotator.setRole') {
    throw new ContractError('annotator roles cannot be changed with an annotator token (use the desktop app or: qpairs annotators)', 'forbidden');
  }
  if ((command === 'review.queue' || command === 'review.settle') && a.judge !== ctx.annotator) {
    throw new ContractError(`this token acts as annotator "${ctx.annotator}" only`, 'forbidden');
  }
  if (BLIND_COMMANDS.has(command) && typeof a.pool === 'string' && engine.ws.findPool(a.pool)) {
    const s = loadPoolState(engine.ws, a.pool);
    if (s.annotators.includes(ctx.annotator)) {
      throw new ContractError(`"${ctx.annotator}" annotates pool "${a.pool}" blind and cannot see other annotators' labels`, 'forbidden');
    }
  }
}

export function goldHandlers(engine: Engine, version = '0.1.0'): GoldHandlers {
  const ws = engine.ws;
  const changed = (): void => engine.hub.emit('workspace.changed', { what: 'pool' });
  /** Writes go through the engine's write gate (one writer at a time, after running imports). */
  const write = <T>(fn: () => T): Promise<T> => engine.writes.run(fn);
  return {
    'annotator.add': (a) =>
      write(() => {
        const role = addAnnotator(ws, a.name, a.role);
        changed();
        return { name: a.name, role };
      }),
    'annotator.setRole': (a) =>
      write(() => {
        const role = setAnnotatorRole(ws, a.name, a.role);
        changed();
        return { name: a.name, role };
      }),
    'pool.assign': (a) =>
      write(() => {
        assignPool(ws, a.pool, a.annotators, a.perQuery ?? null, a.seed);
        changed();
        return assignmentView(ws, a.pool);
      }),
    'pool.assignment': (a) => assignmentView(ws, a.pool, a.annotator),
    'pool.setAggregation': (a) =>
      write(() => {
        setAggregation(ws, a.pool, a.rule, a.threshold);
        changed();
        return aggregationSummary(loadPoolState(ws, a.pool));
      }),
    'pool.aggregation': (a) => aggregationSummary(loadPoolState(ws, a.pool)),
    'agreement.report': (a) => poolAgreement(ws, a.pool, { annotators: a.annotators, queries: a.queries, bootstrap: a.bootstrap, seed: a.seed }),
    'review.queue': (a) => reviewQueue(ws, a.pool, a.judge, { includeSettled: a.includeSettled, limit: a.limit }),
    'review.settle': (a) =>
      write(() => {
        const s = loadPoolState(ws, a.pool);
        checkJudge(ws, s, a.judge);
        const e = s.byKey.get(pairKey(a.queryId, a.candidateId));
        if (!e) throw new QPairsError(`pair ${a.queryId} → ${a.candidateId} is not in pool "${a.pool}"`);
        if (a.value !== null && !isDisagreementEntry(e)) {
          throw new QPairsError(`pair ${a.queryId} → ${a.candidateId} is not a disagreement of pool "${a.pool}" (nothing to settle)`);
        }
        const ack = setLabel(ws, { pool: a.pool, queryId: a.queryId, candidateId: a.candidateId, annotator: a.judge, value: a.value });
        if (ack.record) engine.hub.emit('label.changed', ack.record);
        const after = loadPoolState(ws, a.pool);
        const remaining = after.pairs.filter((x) => isDisagreementEntry(x) && !x.judge).length;
        return { ...ack, remaining };
      }),
    'eval.compare': (a) =>
      comparePoolRuns(ws, a.pool, {
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
      }),
    'export.preview': (a) => {
      const b = buildExport(ws, a.pool, a.format, defaultExportName(a.pool, a.format), { run: a.run, annotator: a.annotator, version });
      return {
        pool: b.pool,
        format: b.format,
        datasheet: b.datasheet.content,
        files: b.files.map((f) => ({ name: f.name, lines: f.lines, head: f.lines ? f.content.split('\n').slice(0, a.lines) : [] })),
        warnings: b.warnings,
      };
    },
    'export.write': (a): ExportWritten => {
      if (a.path !== undefined) {
        const b = writeExport(ws, a.pool, a.format, a.path, { run: a.run, annotator: a.annotator, version });
        return {
          pool: b.pool,
          format: b.format,
          files: [...b.files, b.datasheet].map((f) => ({ name: f.name, bytes: Buffer.byteLength(f.content) })),
          warnings: b.warnings,
        };
      }
      const b = buildExport(ws, a.pool, a.format, defaultExportName(a.pool, a.format), { run: a.run, annotator: a.annotator, version });
      return {
        pool: b.pool,
        format: b.format,
        files: [...b.files, b.datasheet].map((f) => ({ name: f.name, bytes: Buffer.byteLength(f.content), content: f.content })),
        warnings: b.warnings,
      };
    },
  };
}
