/**
 * Who may do what: the one place the engine checks a caller against the contract's role table
 * (`commandRoles` in src/shared/contract.ts) and the rules that depend on the arguments, before
 * any handler runs; what of a result an annotator of a blind pool may see; and which events reach
 * which caller. Transports only say who is calling (see `CallerInput`); they decide nothing.
 */
import { ContractError, commandRoles, roleAllows, type CallerRole, type CommandName, type CommandResult, type EventName, type EventPayloads, type ParsedArgs } from '../../shared/contract';
import { isReservedAnnotatorName, reservedAnnotatorNameError } from '../../shared/gold';
import type { Workspace } from '../workspace/workspace';
import { poolClosedReason, usablePools } from './pool-access';
import { getAssignment } from '../gold/store';
import { globalSeq, ownRecord, ownSeq, ownSeqsInMessage } from './own-seq';
import { liveOnBlindLabels, modelsTrainedOnBlindLabels, runsOnBlindLabels } from './run-visibility';
import { peopleShownTo } from './people-shown';
import { noteShownPools, openPoolsChangedFor } from './pools-told';
import { withoutAbsolutePaths, withoutServerPaths } from './server-paths';

/** What a transport knows about a call. */
export interface CallerInput {
  /** The serve-mode token's annotator; null = no token (the desktop user, or loopback serve without tokens). */
  annotator: string | null;
  /**
   * Whether the caller is on the engine's machine and may name its files: true for the desktop
   * app and loopback serve mode without tokens; false for every token holder (default: annotator === null).
   */
  local?: boolean;
  /** Aborted when the caller goes away (an HTTP client disconnects): long reads stop. */
  signal?: AbortSignal;
}

/** A caller with its role resolved from the workspace at the time of the call. */
export interface Caller {
  annotator: string | null;
  role: CallerRole;
  local: boolean;
  signal?: AbortSignal;
}

/** The desktop user (and tests): the owner, on the engine's machine. */
export const LOCAL_OWNER: CallerInput = { annotator: null, local: true };

/** Identifies who started a job, for routing its events (owners see every job). */
export function principalOf(c: { annotator: string | null }): string {
  return c.annotator === null ? '@owner' : `token:${c.annotator}`;
}

/**
 * Resolves a caller's role: no token = owner; a token = its annotator's workspace role (owner or
 * judge), anything else (unknown name, annotator, gold, system) = annotator.
 */
export function resolveCaller(ws: Workspace, input: CallerInput): Caller {
  if (input.annotator === null) return { annotator: null, role: 'owner', local: input.local ?? true, signal: input.signal };
  // Names compare in NFC (Workspace.personName): a tokens-file line's "Zoë" is the stored Zoë however each was typed.
  const annotator = ws.personName(input.annotator);
  const stored = ws.listAnnotators().find((a) => a.name === annotator)?.role;
  const role: CallerRole = stored === 'owner' ? 'owner' : stored === 'judge' ? 'judge' : 'annotator';
  return { annotator, role, local: false, signal: input.signal };
}

/**
 * The arguments with every person's name as the workspace has it (Workspace.personName): a stored
 * name NFC-equal to the one given, else the given name in NFC — "Zoë" precomposed and "Zoe" + U+0308
 * are one person, wherever a name is taken (annotator.* `name`, `annotator`, `judge`, `annotators`).
 */
export function withPeopleNamed<A>(ws: Workspace, command: CommandName, args: A): A {
  const a = args as Record<string, unknown>;
  if (a === null || typeof a !== 'object') return args;
  const out: Record<string, unknown> = { ...a };
  const one = (v: unknown): unknown => (typeof v === 'string' ? ws.personName(v) : v);
  if (command.startsWith('annotator.') && 'name' in a) out.name = one(a.name);
  if ('annotator' in a) out.annotator = one(a.annotator);
  if ('judge' in a) out.judge = one(a.judge);
  if (Array.isArray(a.annotators)) out.annotators = a.annotators.map(one);
  return out as A;
}

function forbidden(message: string): ContractError {
  return new ContractError(message, 'forbidden');
}

const who = (c: Caller): string => (c.annotator === null ? 'the owner' : `"${c.annotator}" (${c.role})`);

/** Commands whose `annotator` argument says who acts (below owner, only as oneself). */
const ACTS_AS_ANNOTATOR: ReadonlySet<CommandName> = new Set(['annotate.query', 'annotate.navigate', 'annotate.queries', 'label.set', 'label.undo']);
/** Commands whose `judge` argument says who acts. */
const ACTS_AS_JUDGE: ReadonlySet<CommandName> = new Set(['review.queue', 'review.pair', 'review.settle']);
/** Commands refused to an annotator on a blind pool: they show rankers' scores or other people's labels. */
const HIDDEN_IN_BLIND_POOLS: ReadonlySet<CommandName> = new Set(['eval.pool', 'eval.query', 'live.status', 'eval.order']);

/**
 * Why an owner signed in with a link may not run a team command on themself, or null. Demoting
 * themself, revoking their link or replacing it (a new link ends the one in use) would end the
 * session that runs the team; while a server holds the workspace the CLI cannot undo it, so with
 * no other owner nobody could. The local owner is no person and is never locked out.
 */
function selfLockout(command: CommandName, a: Record<string, unknown>, caller: Caller): string | null {
  if (caller.annotator === null || typeof a.name !== 'string' || a.name.trim() !== caller.annotator) return null;
  const elsewhere = 'another owner can do it in Team access, or stop the server and use `qpairs annotators`';
  if (command === 'annotator.revoke') return `"${caller.annotator}", that is your own link: revoking it would lock you out (to leave this browser, use Sign out); ${elsewhere}`;
  if (command === 'annotator.invite') return `"${caller.annotator}", that is you: a new link would end the one you are signed in with; ${elsewhere}`;
  if ((command === 'annotator.setRole' || command === 'annotator.add') && a.role !== undefined && a.role !== caller.role) {
    return `"${caller.annotator}", that is you: changing your own role from ${caller.role} to ${String(a.role)} would take your ${caller.role}’s rights away at once; ${elsewhere}`;
  }
  return null;
}

/**
 * Why a token's name is a label source and not a person, or null: "gold" (imported gold labels,
 * which eval and exports use by default) or an annotator whose role is gold or system. No token
 * acts as one — invitations refuse them, and a server's own token (--tokens-file) named "gold"
 * must not write gold labels either.
 */
function labelSourceCaller(ws: Workspace, caller: Caller): string | null {
  if (caller.annotator === null) return null;
  const stored = ws.listAnnotators().find((x) => x.name === caller.annotator)?.role;
  if (caller.annotator !== 'gold' && stored !== 'gold' && stored !== 'system') return null;
  return `"${caller.annotator}" is ${caller.annotator === 'gold' ? 'the name imported gold labels go under' : `the workspace's ${stored} annotator`}, not a person; tokens are for people`;
}

export interface AccessContext {
  ws: Workspace;
  /** Who started a job (principalOf), or undefined when the job is unknown or finished. */
  jobStarter(jobId: string): string | undefined;
  /** Whether a job still runs (a system job, started for no caller, runs with no starter). */
  jobRunning(jobId: string): boolean;
}

/**
 * Whether the caller's role may call the command at all, before its arguments are read: a caller
 * who may not is told so (403), never how the command's arguments are checked (a 400 for a bad
 * argument told an annotator what an owner-only command takes). `authorize` checks it again.
 */
export function authorizeCommand(ctx: AccessContext, command: CommandName, caller: Caller): void {
  const source = labelSourceCaller(ctx.ws, caller);
  if (source) throw forbidden(source);
  const needed = commandRoles[command];
  if (!roleAllows(caller.role, needed)) throw forbidden(`${command} is for ${needed === 'owner' ? 'the owner' : `a ${needed} or the owner`}; ${who(caller)} may not`);
}

/**
 * Whether a download id is the caller's own (whoever exported: the same token, or the local owner). Anyone
 * else's is answered as one that does not exist — fetched (authorizeDownload) or asked about (export.downloads).
 */
export function ownsDownload(download: { owner: string } | undefined, caller: { annotator: string | null }): download is { owner: string } {
  return download !== undefined && download.owner === principalOf(caller);
}

/**
 * Whether the caller may fetch an export's download (GET /api/download/ID; export.write with `download`):
 * only whoever asked for it (the same token, or the local owner), and only while their role may still
 * export. Someone else's id answers as an id that does not exist (404): it is neither told apart nor
 * used up.
 */
export function authorizeDownload(ctx: AccessContext, download: { owner: string } | undefined, caller: Caller): void {
  if (!ownsDownload(download, caller)) {
    throw new ContractError('no such download: each is fetched once, by whoever exported, within 15 minutes; export again', 'not-found');
  }
  authorizeCommand(ctx, 'export.write', caller);
}

/** Throws ContractError 'forbidden' (or 'invalid-argument') unless the caller may run the command with these arguments. */
export function authorize(ctx: AccessContext, command: CommandName, args: unknown, caller: Caller): void {
  const a = (args ?? {}) as Record<string, unknown>;
  authorizeCommand(ctx, command, caller);

  if (ACTS_AS_ANNOTATOR.has(command) && typeof a.annotator === 'string' && isReservedAnnotatorName(a.annotator)) {
    throw new ContractError(reservedAnnotatorNameError(a.annotator), 'invalid-argument');
  }
  if (command === 'export.write' && a.path !== undefined && a.download === true) {
    throw new ContractError('export.write takes a path (written there) or download (fetched from the server), not both', 'invalid-argument');
  }
  const paths = command === 'import.start' ? ((a.sources as Array<Record<string, unknown>>) ?? []).some((s) => 'path' in s) : command === 'export.write' && a.path !== undefined;
  if (paths && !(caller.role === 'owner' && caller.local)) {
    throw forbidden(
      command === 'import.start'
        ? 'files on the server can be imported only by its owner on the server itself: upload the file instead'
        : 'export.write with a path writes on the server: only the owner on the server itself may; omit the path and download the files',
    );
  }
  if (command === 'job.cancel') {
    const starter = ctx.jobStarter(String(a.jobId));
    if (caller.role !== 'owner' && starter !== principalOf(caller)) throw forbidden('only the owner or whoever started a job may cancel it');
  }
  if (command === 'job.status') {
    const jobId = String(a.jobId);
    if (caller.role !== 'owner' && ctx.jobRunning(jobId) && ctx.jobStarter(jobId) !== principalOf(caller)) throw forbidden('only the owner or whoever started a job may follow it');
  }
  const lockout = selfLockout(command, a, caller);
  if (lockout) throw forbidden(lockout);
  if (caller.role === 'owner') return;

  if (ACTS_AS_ANNOTATOR.has(command) && a.annotator !== caller.annotator) throw forbidden(`this token acts as "${caller.annotator}" only`);
  if (ACTS_AS_JUDGE.has(command) && a.judge !== caller.annotator) throw forbidden(`this token acts as "${caller.annotator}" only`);
  if (caller.role !== 'annotator') return;

  // Settings only, here and below: findPool() counts the pool's rows (~2 ms a call at 60,000 pairs), on every call and event.
  const pool = typeof a.pool === 'string' ? ctx.ws.findPoolSettings(a.pool) : null;
  // The handler's "no pool named …" lists the workspace's pools, those closed to this annotator too.
  if (typeof a.pool === 'string' && !pool) throw new ContractError(`no pool named "${a.pool}"`, 'not-found');
  // Issue 23: annotators work only in pools assigned to them (or open, non-gold pools; pool-access.ts).
  const undone = command === 'label.undo' && typeof a.seq === 'number' ? ctx.ws.labelEvent(a.seq) : null;
  // Someone else's event is refused by the handler without naming it; only the caller's own event's pool is checked here.
  const poolName = typeof a.pool === 'string' ? a.pool : undone?.annotator === caller.annotator ? undone.pool : undefined;
  const closed = poolName !== undefined ? poolClosedReason(ctx.ws, poolName, caller.annotator!) : null;
  // A pool closed to her answers exactly as a missing one (not-found, the same words): a 403 "not
  // assigned" against a 404 would let her probe which pool names exist. Her own undone event's pool
  // she knows already: that refusal says why.
  if (closed && typeof a.pool === 'string') throw new ContractError(`no pool named "${a.pool}"`, 'not-found');
  if (closed) throw forbidden(closed);
  if (command === 'pool.assignment' && a.annotator !== undefined && a.annotator !== caller.annotator) {
    throw forbidden(`this token may list only its own assigned queries ("${caller.annotator}")`);
  }
  if (pool?.blind && HIDDEN_IN_BLIND_POOLS.has(command)) {
    throw forbidden(`pool "${pool.name}" is blind: its annotators see only their own labels, not metrics, rankers' scores or others' labels`);
  }
}

/**
 * An annotator's label.undo `seq` and label.set `ifLatest` are her own event numbers (own-seq.ts):
 * the workspace's numbers of those events, for the handlers. One she does not have is refused as
 * the handler refuses an event that is not hers.
 */
export function seqsFromCaller<A>(ws: Workspace, command: CommandName, args: A, caller: Caller): A {
  if (caller.role !== 'annotator') return args;
  const a = args as Record<string, unknown>;
  if (command === 'label.undo' && typeof a.seq === 'number') {
    const seq = globalSeq(ws, caller.annotator!, a.seq);
    if (seq === null) throw new ContractError(`no label event ${a.seq} of ${caller.annotator}`, 'not-found');
    return { ...a, seq } as A;
  }
  // None such: 0, which is no pair's latest event (the redo is refused as changed since).
  if (command === 'label.set' && typeof a.ifLatest === 'number') return { ...a, ifLatest: globalSeq(ws, caller.annotator!, a.ifLatest) ?? 0 } as A;
  return args;
}

/**
 * An error's message as the caller gets it: the label events an annotator's undo or redo names, by
 * her own numbers; and a query of the pool given to others (k per query) "not in pool" for her, as a
 * query the pool lacks — the handler's "for NAME (not assigned)" would let her probe which of the
 * pool's queries are others' (question.show places a question only in hers). A caller not on the
 * server's machine (every token holder) is told no server-side path (server-paths.ts).
 */
export function messageForCaller(ws: Workspace, command: CommandName, text: string, caller: Caller): string {
  const message = caller.local ? text : withoutServerPaths(text, ws.path);
  if (caller.role === 'annotator' && command === 'annotate.query') return message.replace(/^(query .* is not in pool ".*") for .* \(not assigned\)$/s, '$1');
  if (caller.role !== 'annotator' || (command !== 'label.undo' && command !== 'label.set')) return message;
  return ownSeqsInMessage(ws, caller.annotator!, message);
}

/**
 * An event as a caller who may see it (canSee) gets it: an annotator's label.changed by her own
 * number, another's with 0; a failed job's error without server-side paths (the workspace's, then
 * any absolute one by its base name) for a caller not on the server's machine.
 */
export function eventForCaller<E extends EventName>(ws: Workspace, caller: Caller, event: E, payload: EventPayloads[E]): EventPayloads[E] {
  if (event === 'job.done' && !caller.local) {
    const done = payload as EventPayloads['job.done'];
    return (done.error === undefined ? done : { ...done, error: withoutAbsolutePaths(withoutServerPaths(done.error, ws.path)) }) as EventPayloads[E];
  }
  if (caller.role === 'annotator' && event === 'workspace.changed' && (payload as EventPayloads['workspace.changed']).pools !== undefined) {
    // An import's pools she is given are those open to her: a pool closed to her is never named.
    const change = payload as EventPayloads['workspace.changed'];
    return { ...change, pools: importPoolsShown(ws, caller.annotator!, change) } as EventPayloads[E];
  }
  if (caller.role !== 'annotator' || event !== 'label.changed') return payload;
  const rec = payload as EventPayloads['label.changed'];
  // Another's event: no number, and none in its origin either (`undo:N` the event it undid, `import:N`
  // the import's count in the workspace): the kind alone.
  return (rec.annotator === caller.annotator ? ownRecord(ws, caller.annotator, rec) : { ...rec, seq: 0, origin: rec.origin.replace(/:.*$/s, '') }) as EventPayloads[E];
}

/**
 * How many of a search's best matches an annotator's `questions.search` draws from, whatever
 * `limit` it asks: the matches come back as a set (by title, without scores), the first `limit` of
 * them by title. Were the cut made at `limit` by rank, asking limit 1, 2, 3… for a query's text
 * would add one candidate at a time and rebuild a BM25 pool's order.
 */
export const ANNOTATOR_SEARCH_DEPTH = 50;

/** The arguments a command runs with for this caller: an annotator's search always draws its ANNOTATOR_SEARCH_DEPTH best matches (filterResult cuts them to `limit`). */
export function argsForCaller<C extends CommandName>(command: C, args: ParsedArgs<C>, caller: Caller): ParsedArgs<C> {
  if (caller.role === 'annotator' && command === 'questions.search') return { ...(args as ParsedArgs<'questions.search'>), limit: ANNOTATOR_SEARCH_DEPTH } as ParsedArgs<C>;
  return args;
}

/**
 * What an annotator of a blind pool may see of a result that is theirs to ask for: their own
 * progress only. Everything else passes unchanged (authorize refused what it must). Notes (issue
 * 24) need no filter here: the only results an annotator gets them in are annotate.query/navigate,
 * which carry the caller's own notes alone (ACTS_AS_ANNOTATOR makes them act as themself), and
 * label.changed events carry no note text; access.test.ts checks both on blind and open pools.
 */
export function filterResult<C extends CommandName>(ws: Workspace, command: C, args: unknown, result: CommandResult<C>, caller: Caller): CommandResult<C> {
  if (caller.role !== 'annotator') return result;
  // Her label events by her own numbers (own-seq.ts), never the workspace's.
  const own = (seq: number): number => ownSeq(ws, caller.annotator!, seq);
  if (command === 'label.set') {
    const r = result as CommandResult<'label.set'>;
    // The answer's seq is its record's: her count is read once (it counts her events: linear in them).
    const record = r.record && ownRecord(ws, caller.annotator!, r.record);
    // An unchanged label's `latest` (her latest event on the pair) by her count too.
    return { ...r, seq: r.seq === null ? null : record && r.record!.seq === r.seq ? record.seq : own(r.seq), record, ...(r.latest != null ? { latest: own(r.latest) } : {}) } as CommandResult<C>;
  }
  if (command === 'label.undo') return ownRecord(ws, caller.annotator!, result as CommandResult<'label.undo'>) as CommandResult<C>;
  // Issue 23: an annotator is shown only the pools they may work in.
  if (command === 'pool.list') {
    const mine = usablePools(ws, caller.annotator!);
    // What her screens show now: a later change is hers when it opens or closes a pool to her (pools-told.ts).
    noteShownPools(ws, caller.annotator!, mine);
    const tainted = modelsTrainedOnBlindLabels(ws);
    // Runs carrying a blind pool's labels are not counted either (run-visibility.ts).
    return (result as CommandResult<'pool.list'>)
      .filter((p) => mine.has(p.name))
      .map((p) => (p.runs === undefined ? p : { ...p, runs: Math.max(0, p.runs - runsOnBlindLabels(ws, p.name, tainted).size) })) as CommandResult<C>;
  }
  // Only herself and those whose labels she may see (people-shown.ts): never the whole team.
  if (command === 'annotator.list') return peopleShownTo(ws, caller.annotator!, result as CommandResult<'annotator.list'>) as CommandResult<C>;
  const hidden = withoutBlindTrainedRuns(ws, command, args, result, caller);
  if (hidden !== undefined) return hidden;
  if (command === 'workspace.stats') {
    // The workspace's label totals would show how far everyone else has got (blind pools too):
    // an annotator is given their own counts, the number of pools they may use, the people they are
    // shown (annotator.list: the team's size is not hers to know) and the runs they are shown (pool.list's
    // counts: every run counted, those of models and live retrains on blind labels moved as others labeled).
    const mine = usablePools(ws, caller.annotator!);
    const people = peopleShownTo(ws, caller.annotator!, ws.listAnnotators().map((a) => ({ name: a.name, role: a.role }))).length;
    return { ...(result as CommandResult<'workspace.stats'>), ...ws.labelCounts(caller.annotator!), pools: mine.size, annotators: people, runs: runsShownIn(ws, mine) } as CommandResult<C>;
  }
  if (command === 'questions.search') {
    // Blind means blind (issue 23): a BM25 search for a query's text would rebuild a BM25 pool's
    // candidate order, so an annotator gets the matches as a set — by title, without scores.
    const r = result as CommandResult<'questions.search'>;
    // …drawn from a fixed number of best matches (argsForCaller), cut to the limit asked by title, not by rank.
    const limit = (args as { limit?: number }).limit ?? ANNOTATOR_SEARCH_DEPTH;
    const results = r.results
      .map(({ id, title, source }) => ({ id, title, source }))
      .sort((x, y) => x.title.localeCompare(y.title) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
      .slice(0, limit);
    return { ...r, results, ranked: false } as CommandResult<C>;
  }
  if (command === 'question.show') {
    const mine = usablePools(ws, caller.annotator!);
    const r = result as CommandResult<'question.show'>;
    // In a pool assigned k per query, only the queries given to this annotator are theirs (Browse
    // offered the others' queries "open in Annotate", which then refused them).
    const plans = new Map<string, ReturnType<typeof getAssignment>>();
    const theirs = (pool: string, queryId: string): boolean => {
      let plan = plans.get(pool);
      if (!plan) plans.set(pool, (plan = getAssignment(ws, pool)));
      return plan.mode !== 'per-query' || (plan.perQueryAnnotators?.get(queryId) ?? []).includes(caller.annotator!);
    };
    return { ...r, pools: r.pools.filter((p) => mine.has(p.pool) && theirs(p.pool, p.queryId)) } as CommandResult<C>;
  }
  const pool = (args as { pool?: unknown }).pool;
  if (command === 'pool.assignment' && typeof pool === 'string' && ws.findPoolSettings(pool)?.blind === false) {
    // Who judges is not hers to know in an open pool either (annotator.list leaves every other person's
    // role out; a judge with no label there is not even listed): the workspace's judges were all named.
    const r = result as CommandResult<'pool.assignment'>;
    return { ...r, judges: r.judges.filter((x) => x === caller.annotator) } as CommandResult<C>;
  }
  if (command === 'pool.progress' && typeof pool === 'string' && ws.findPoolSettings(pool)?.blind === false) {
    // Nor which of the others judges (annotator.list gives her their names only): another person's
    // rulings are counted as any person's labels; a label source stays one (gold, system: what the labels are).
    const r = result as CommandResult<'pool.progress'>;
    return { ...r, annotators: r.annotators.map((x) => (x.kind === 'judge' && x.annotator !== caller.annotator ? { ...x, kind: 'annotator' as const } : x)) } as CommandResult<C>;
  }
  if (typeof pool !== 'string' || !ws.findPoolSettings(pool)?.blind) return result;
  if (command === 'pool.progress') {
    const r = result as CommandResult<'pool.progress'>;
    return { ...r, annotators: r.annotators.filter((x) => x.annotator === caller.annotator) } as CommandResult<C>;
  }
  if (command === 'pool.assignment') {
    // Who else labels a blind pool is not hers to know either (in a pool without an assignment its
    // annotators are whoever has labeled in it): she is listed alone, as in pool.progress.
    const r = result as CommandResult<'pool.assignment'>;
    const self = (x: string): boolean => x === caller.annotator;
    return { ...r, annotators: r.annotators.filter(self), judges: r.judges.filter(self), progress: r.progress.filter((x) => self(x.annotator)) } as CommandResult<C>;
  }
  return result;
}

/**
 * An annotator is never shown a run that carries a blind pool's labels (a model trained on one, a
 * live run learning from one; run-visibility.ts): in an open pool that shares pairs with the blind
 * one its scores and ranks would carry the others' blind labels. Such runs are left out of every
 * result with runs in it, names included; eval.order leaves them out before it ranks (the engine
 * passes runsHiddenFrom). Undefined: the command has no runs to leave out.
 */
function withoutBlindTrainedRuns<C extends CommandName>(ws: Workspace, command: C, args: unknown, result: CommandResult<C>, caller: Caller): CommandResult<C> | undefined {
  const pool = (args as { pool?: unknown }).pool;
  if (typeof pool !== 'string') return undefined;
  if (command === 'live.status') {
    const r = result as CommandResult<'live.status'>;
    const mine = usablePools(ws, caller.annotator!);
    const trainPools = r.trainPools.filter((p) => mine.has(p));
    // The trainings its retrain waits behind are the workspace's, a blind pool's live retrains (every few labels of the
    // others) and models trained on blind labels among them: not hers to count. Nor whether it runs: `running` stayed
    // true while it waited behind them, so how long it stayed so timed the others' trainings. Her screens have no use
    // for it (the retrain and its Cancel are the owner's); the runs it stores reach her as any change of her pool.
    const hidden = { queuedBehind: null, running: false, jobId: null };
    if (!liveOnBlindLabels(ws, pool) && runsOnBlindLabels(ws, pool).size === 0) return { ...r, trainPools, ...hidden } as CommandResult<C>;
    const blank: CommandResult<'live.status'> = { ...r, models: [], trainPools: [], lastError: null, trainingCopiesLeftOut: null, curve: [], ...hidden };
    return blank as CommandResult<C>;
  }
  if (command !== 'annotate.query' && command !== 'annotate.navigate' && command !== 'eval.pool' && command !== 'eval.query' && command !== 'eval.order') return undefined;
  if (result === null) return undefined;
  const gone = runsOnBlindLabels(ws, pool);
  if (gone.size === 0) return undefined;
  const keep = <T>(m: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(m).filter(([k]) => !gone.has(k)));
  if (command === 'annotate.query' || command === 'annotate.navigate') {
    const r = result as CommandResult<'annotate.query'>;
    return { ...r, runNames: r.runNames.filter((n) => !gone.has(n)), candidates: r.candidates.map((c) => ({ ...c, runs: keep(c.runs) })) } as CommandResult<C>;
  }
  if (command === 'eval.pool') {
    const r = result as CommandResult<'eval.pool'>;
    return { ...r, runs: keep(r.runs), curve: r.curve.map((pt) => ({ ...pt, runs: keep(pt.runs) })) } as CommandResult<C>;
  }
  // eval.query, and eval.order (ranked without them: runsHiddenFrom): their rankers, named by run.
  const r = result as CommandResult<'eval.query'> | CommandResult<'eval.order'>;
  return { ...r, rankers: (r.rankers as Array<{ run: string }>).filter((x) => !gone.has(x.run)) } as CommandResult<C>;
}

/** How many runs of these pools an annotator is shown: each pool's, less those carrying a blind pool's labels (as pool.list counts them). */
function runsShownIn(ws: Workspace, pools: ReadonlySet<string>): number {
  const tainted = modelsTrainedOnBlindLabels(ws);
  let n = 0;
  for (const pool of pools) {
    const hidden = runsOnBlindLabels(ws, pool, tainted);
    n += ws.runKinds(pool).filter((r) => !hidden.has(r.name)).length;
  }
  return n;
}

/** The runs of a pool a caller is not shown (an annotator's: run-visibility.ts), for handlers that rank runs against each other. */
export function runsHiddenFrom(ws: Workspace, caller: Caller, pool: string): ReadonlySet<string> {
  return caller.role === 'annotator' ? runsOnBlindLabels(ws, pool) : new Set();
}

/**
 * Whether an annotator is told of a workspace change. An import, a pool made, set or assigned, or a
 * role set is hers when it opened or closed a pool to her (pools-told.ts: her pool list follows), an
 * import when it wrote to a pool open to her, a role when it is hers; else not — a pool closed to her
 * is as one that does not exist, and what the owner imports is not hers to watch. One about a pool
 * (`pool`) is hers only when the pool is open to her; there, another's draw in a blind pool is not
 * (her socket would count how far the others have got), nor a change of runs all hidden from her (a
 * live retrain on blind labels, run every few labels of the others; run-visibility.ts). A stored model
 * trained or deleted is hers only when she is shown its runs (not trained on blind labels). Team
 * changes are sorted out in canSee.
 */
function changeShownTo(ws: Workspace, annotator: string, change: EventPayloads['workspace.changed']): boolean {
  if (change.what === 'import' || change.what === 'pool') {
    if (openPoolsChangedFor(ws, annotator, change)) return true;
    if (change.what === 'import') return importPoolsShown(ws, annotator, change).length > 0;
    if (change.pool === undefined) return change.annotator === annotator;
  }
  if (change.model !== undefined && change.pool === undefined) return !change.blindLabels && !modelsTrainedOnBlindLabels(ws).has(change.model);
  if (change.pool === undefined) return true;
  if (poolClosedReason(ws, change.pool, annotator) !== null) return false;
  if (change.what === 'draws') return change.annotator === annotator || ws.findPoolSettings(change.pool)?.blind === false;
  if (change.what === 'run' && change.runs !== undefined) {
    const hidden = runsOnBlindLabels(ws, change.pool);
    return change.runs.some((r) => !hidden.has(r));
  }
  return true;
}

/** The pools an import's event names (`pools`: those it wrote to) that are open to an annotator. */
function importPoolsShown(ws: Workspace, annotator: string, change: EventPayloads['workspace.changed']): string[] {
  if (!change.pools?.length) return [];
  const open = usablePools(ws, annotator);
  return change.pools.filter((p) => open.has(p));
}

/** Whether an event may be sent to a caller (owners get every event). */
export function canSee<E extends EventName>(ctx: AccessContext, caller: Caller, event: E, payload: EventPayloads[E]): boolean {
  if (caller.role === 'owner') return true;
  if (labelSourceCaller(ctx.ws, caller)) return false;
  switch (event) {
    case 'workspace.changed': {
      const change = payload as EventPayloads['workspace.changed'];
      // Who is invited or revoked is the owner's business: a person hears only of her own (her page then says her access ended).
      if (change.what === 'team') return change.annotator === caller.annotator;
      return caller.role === 'judge' || changeShownTo(ctx.ws, caller.annotator!, change);
    }
    case 'label.changed': {
      if (caller.role === 'judge') return true;
      const rec = payload as EventPayloads['label.changed'];
      if (rec.annotator !== caller.annotator && ctx.ws.findPoolSettings(rec.pool)?.blind !== false) return false;
      return poolClosedReason(ctx.ws, rec.pool, caller.annotator!) === null;
    }
    case 'job.progress':
    case 'job.done':
    case 'train.progress':
      return ctx.jobStarter((payload as { jobId: string }).jobId) === principalOf(caller);
    default:
      return false;
  }
}
