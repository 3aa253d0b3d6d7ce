import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { IMPORT_FORMATS, NAME_MAX_LENGTH, type ImportFormat } from '../../shared/contract';
import { isLabelScheme, LABEL_SCHEMES } from '../../shared/labels';
import { CancelledError, QPairsError } from '../errors';
import { Workspace } from '../workspace/workspace';
import { restoreAdvice, shellQuote } from '../workspace/db';
import { runImport, createPool, questionSources, setPoolSettings } from '../engine/work';
import { parse, parseConvention, requireString, optionalInt, table, takePositionals, UsageError } from './args';
import { ProgressBar } from './progress';
import { isQueryOrder, orderAtRandomReason, QUERY_ORDER_HELP, QUERY_ORDERS, type QueryOrder } from '../../shared/label-order';
import { counted } from '../../shared/plural';
import { alreadyHeld, NOTHING_CHANGED } from '../../shared/import-unchanged';
import { readPoolOrder } from '../active/draw-log';
import { cmdAgreement } from './commands/agreement';
import { cmdImportUndo } from './commands/import-undo';
import { cmdAnnotators } from './commands/annotators';
import { cmdAssign } from './commands/assign';
import { cmdAggregate } from './commands/aggregate';
import { cmdAdjudicate } from './commands/adjudicate';
import { cmdLabel } from './commands/label';
import { cmdExport } from './commands/export';
import { cmdEval } from './commands/eval';
import { cmdCorpus } from './commands/corpus';
import { ANALYZER_NAMES, isAnalyzerName } from '../bm25/analyzers';
import { cmdScore, cmdModels } from './commands/models';
import { cmdTrain } from './commands/train';
import { closeWorkspace, commandWorkspace, json, openWorkspace, setCommandLine } from './commands/common';
import { asksForHelp, COMMAND_USAGE, commandName, commandUsage, SUBCOMMANDS, subcommandUsage, USAGE } from './usage';
import { catchInterrupt } from './interrupt';
import { stdioOut, type Out } from './stdio';
import { subcommandError, unknownChoice } from '../../shared/suggest';
import { versionText } from './version';
import { maxTrainingsFlag, portFlag } from '../serve/serve-flags';
import { uploadLimitBytes } from '../serve/upload-limit';
import { cannotRead } from '../import/reader';
import { queriesWithoutCandidateNote } from '../../shared/pool-notes';
import { DEFAULT_POOL_DEPTH, MAX_POOL_DEPTH, MAX_POOL_SAMPLE } from '../../shared/pool-limits';

async function cmdInit(argv: string[], out: Out): Promise<number> {
  const { positionals } = parse(argv, {});
  const w = positionals[0];
  if (!w) throw new UsageError('usage: qpairs init W');
  takePositionals(positionals, ['W'], 'init');
  if (existsSync(w)) throw new QPairsError(`${w} already exists; not overwriting it`);
  Workspace.create(w).close();
  out.log(`created workspace ${w}`);
  return 0;
}

/** Import formats that bring texts (and AskUbuntu's pairs) but no pool or labels: --pool, --annotator, --scheme mean nothing to them. */
const TEXT_ONLY_FORMATS: ReadonlySet<string> = new Set(['questions-jsonl', 'questions-csv', 'askubuntu-corpus', 'askubuntu-pairs', 'stackexchange']);

/** Import formats that write into a pool named by --pool (the importers' requirePoolName). */
const POOL_FORMATS: ReadonlySet<string> = new Set(['labels-csv', 'labels-jsonl', 'qrels', 'trec-run', 'semeval-relevancy']);

async function cmdImport(argv: string[], out: Out, signal: AbortSignal): Promise<number> {
  if (argv[0] === 'undo') return cmdImportUndo(argv.slice(1), out, signal);
  const { values, positionals } = parse(argv, {
    format: { type: 'string', short: 'f' },
    pool: { type: 'string' },
    annotator: { type: 'string' },
    scheme: { type: 'string' },
    source: { type: 'string' },
    update: { type: 'boolean' },
    strict: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const [w, ...files] = positionals;
  const format = requireString(values.format, '--format F');
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(unknownChoice('format', format, IMPORT_FORMATS));
  if (files.length === 0) throw new UsageError('import needs at least one FILE');
  if (values.scheme !== undefined && !isLabelScheme(values.scheme)) throw new UsageError(unknownChoice('scheme', values.scheme, LABEL_SCHEMES));
  if (TEXT_ONLY_FORMATS.has(format)) {
    // They were ignored: `--format questions-jsonl q.jsonl --pool dev` succeeded and made no pool.
    const unused = (['pool', 'annotator', 'scheme'] as const).filter((k) => values[k] !== undefined).map((k) => `--${k}`);
    if (unused.length > 0) {
      throw new UsageError(
        `${unused.join(', ')} ${unused.length > 1 ? 'are' : 'is'} not used by ${format}, which imports questions${format === 'askubuntu-pairs' ? ' and pairs' : ''}, no pool or labels ` +
          `(a pool of these questions: qpairs pool create W --name P --queries FILE; labels: --format labels-csv, labels-jsonl or qrels)`,
      );
    }
  }
  // Formats that import into a pool: without --pool they failed after opening the workspace, exit 1, as if the file were at fault.
  if (POOL_FORMATS.has(format) && !values.pool?.trim()) {
    throw new UsageError(
      format === 'trec-run'
        ? '--format trec-run needs --pool P: the existing pool whose candidates the run scores'
        : `--format ${format} needs --pool P: the pool the labels go into (a name the workspace lacks makes a new pool from the file's pairs)`,
    );
  }
  const ws = openWorkspace(w, { write: 'import', out });
  const bar = new ProgressBar(`importing ${format}`);
  try {
    const report = await runImport(ws, format as ImportFormat, files, {
      pool: values.pool,
      annotator: values.annotator,
      scheme: values.scheme as never,
      source: values.source,
      update: values.update,
      strict: values.strict,
      signal,
      onProgress: (done, total, note) => bar.update(done, total, note),
    });
    bar.done();
    // changedDocs (the BM25 doc numbers the import touched, one per question) is the engine's, for the index, and
    // poolsChangedInPlace for its event: not printed.
    const { changedDocs: _internal, poolsChangedInPlace: _event, ...printed } = report;
    if (values.json) out.log(json(printed));
    else {
      const counts = Object.entries(report.counts).filter(([, n]) => n > 0);
      out.log(`imported ${files.join(', ')} (${format})`);
      if (report.unchanged) out.log(`  ${NOTHING_CHANGED}: ${alreadyHeld(files.length)}`);
      for (const [k, n] of counts) out.log(`  ${k}: ${n}`);
      for (const [k, n] of Object.entries(report.skipped)) if (n > 0) out.log(`  skipped ${k}: ${n}`);
      for (const wmsg of report.warnings) out.log(`  warning: ${wmsg}`);
    }
    return 0;
  } finally {
    bar.done();
    closeWorkspace(ws);
  }
}

/** A labeling order named on the command line (undefined when not given). */
function parseOrder(x: string | undefined): QueryOrder | undefined {
  if (x === undefined) return undefined;
  if (!isQueryOrder(x)) throw new UsageError(unknownChoice('order', x, QUERY_ORDERS));
  return x;
}

/** "true"/"false" (also on/off, yes/no) for a flag such as --blind. */
function parseOnOff(v: string, flag: string): boolean {
  const l = v.trim().toLowerCase();
  if (['true', 'on', 'yes', '1'].includes(l)) return true;
  if (['false', 'off', 'no', '0'].includes(l)) return false;
  throw new UsageError(`${flag} takes true or false, not "${v}"`);
}

/** The most a pool's guidelines hold: the app's pool.setGuidelines takes no more. */
const GUIDELINES_MAX_CHARS = 200_000;

/** `pool set --guidelines FILE`: the Markdown text of FILE, read before the workspace opens. */
async function readGuidelines(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new QPairsError(`--guidelines ${file}: ${cannotRead(e)}`);
  });
  if (text.length > GUIDELINES_MAX_CHARS) {
    throw new QPairsError(`--guidelines ${file}: ${text.length.toLocaleString('en-US')} characters, more than a pool's guidelines hold (${GUIDELINES_MAX_CHARS.toLocaleString('en-US')}, as in the app); nothing was changed`);
  }
  return text;
}

async function cmdPool(argv: string[], out: Out, signal: AbortSignal): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'list') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
    takePositionals(positionals, ['W'], 'pool list');
    const ws = openWorkspace(positionals[0], { out });
    try {
      const pools = ws.listPools();
      if (values.json) out.log(json(pools));
      else
        out.log(
          table(
            ['pool', 'scheme', 'queries', 'pairs', 'blind', 'order', 'convention', 'retriever'],
            pools.map((p) => [p.name, p.scheme, p.queries, p.pairs, p.blind ? 'yes' : 'no', !p.label_order || p.label_order === 'pool' ? 'pool' : `${p.label_order} (seed ${p.order_seed ?? 1}${orderAtRandomReason(p.label_order, p.runs ?? 0) ? ', at random for now' : ''})`, p.convention ?? 'zero', p.retriever ?? '']),
          ),
        );
      return 0;
    } finally {
      ws.close();
    }
  }
  if (sub === 'set') {
    const { values, positionals } = parse(rest, { pool: { type: 'string' }, blind: { type: 'string' }, order: { type: 'string' }, 'order-seed': { type: 'string' }, convention: { type: 'string' }, guidelines: { type: 'string' }, json: { type: 'boolean' } });
    const pool = requireString(values.pool, '--pool P');
    takePositionals(positionals, ['W'], 'pool set');
    if (values.blind === undefined && values.order === undefined && values['order-seed'] === undefined && values.convention === undefined && values.guidelines === undefined) {
      throw new UsageError('give --blind true|false, --order O, --order-seed S, --convention skip|zero or --guidelines FILE');
    }
    const convention = parseConvention(values.convention);
    const blind = values.blind === undefined ? undefined : parseOnOff(values.blind, '--blind');
    const order = parseOrder(values.order);
    const orderSeed = optionalInt(values['order-seed'], '--order-seed');
    const guidelines = values.guidelines === undefined ? undefined : await readGuidelines(values.guidelines);
    const ws = openWorkspace(positionals[0], { write: 'pool set', out });
    try {
      const info = ws.transaction(() => {
        if (guidelines !== undefined) ws.setGuidelines(pool, guidelines);
        return blind === undefined && order === undefined && orderSeed === undefined && convention === undefined ? ws.pool(pool) : setPoolSettings(ws, pool, { blind, order, orderSeed, convention });
      });
      if (values.json) out.log(json(info));
      else {
        if (guidelines !== undefined) {
          out.log(guidelines.trim() ? `pool ${info.name}'s guidelines are now ${values.guidelines}'s text (${counted(guidelines.length, 'character')}): annotators see them, every export's datasheet carries them` : `pool ${info.name} has no guidelines now (${values.guidelines} is empty)`);
        }
        if (blind !== undefined) out.log(`pool ${info.name} is now ${info.blind ? 'blind: annotators see only their own labels' : 'open: annotators see rankers\' scores and each other\'s labels'}`);
        if (convention !== undefined) out.log(`pool ${info.name} is evaluated with convention ${info.convention} unless eval is told otherwise`);
        if (order !== undefined || orderSeed !== undefined) {
          // readPoolOrder names the order with its seed (a candidate-level order lives in pool_candidate_orders, migration 12).
          const o = readPoolOrder(ws, info.name);
          const atRandom = orderAtRandomReason(o.order, info.runs ?? 0);
          // The pool order draws nothing: its seed was printed beside it as though it applied (the pool list and the Pools screen show none).
          if (o.order === 'pool') {
            out.log(`pool ${info.name} labels in pool order: ${QUERY_ORDER_HELP.pool}`);
            if (orderSeed !== undefined) out.log(`  note: the pool order draws nothing, so seed ${o.seed} does not apply to it; it is kept for a drawing order (${DRAWING_ORDERS}) set later`);
          } else out.log(`pool ${info.name} labels in ${o.order} order (seed ${o.seed}): ${QUERY_ORDER_HELP[o.order]}${atRandom ? `; ${atRandom}` : ''}`);
        }
      }
      return 0;
    } finally {
      closeWorkspace(ws);
    }
  }
  if (sub !== 'create') throw new UsageError(subcommandError('pool', sub, SUBCOMMANDS.pool!));
  const { values, positionals } = parse(rest, {
    blind: { type: 'string' },
    name: { type: 'string' },
    queries: { type: 'string' },
    sample: { type: 'string' },
    seed: { type: 'string' },
    depth: { type: 'string' },
    scheme: { type: 'string' },
    source: { type: 'string' },
    analyzer: { type: 'string' },
    order: { type: 'string' },
    'order-seed': { type: 'string' },
    convention: { type: 'string' },
    json: { type: 'boolean' },
  });
  // Trimmed, at most NAME_MAX_LENGTH characters, as the app's pool.create takes it: " p1 " or a longer name made a pool
  // that no command of the app could name (the contract trims " p1 " to "p1": no pool named "p1").
  const name = requireString(values.name?.trim(), '--name P');
  if (name.length > NAME_MAX_LENGTH) throw new UsageError(`--name is at most ${NAME_MAX_LENGTH} characters (the app and serve mode take no longer pool name), not ${name.length}`);
  takePositionals(positionals, ['W'], 'pool create');
  const convention = parseConvention(values.convention);
  const order = parseOrder(values.order);
  const orderSeed = optionalInt(values['order-seed'], '--order-seed');
  if (values.analyzer !== undefined && !isAnalyzerName(values.analyzer)) throw new UsageError(unknownChoice('analyzer', values.analyzer, ANALYZER_NAMES));
  const sample = optionalInt(values.sample, '--sample');
  const seed = optionalInt(values.seed, '--seed');
  const depth = optionalInt(values.depth, '--depth') ?? DEFAULT_POOL_DEPTH;
  if ((values.queries ? 1 : 0) + (sample !== undefined ? 1 : 0) !== 1) throw new UsageError('give either --queries FILE or --sample N --seed S');
  if (sample !== undefined && seed === undefined) throw new UsageError('--sample needs --seed S (so the sample can be reproduced)');
  if (sample !== undefined && sample < 1) throw new UsageError('--sample must be at least 1');
  // The app's form and pool.create take no more: a pool the CLI made would be one they could not make again.
  if (sample !== undefined && sample > MAX_POOL_SAMPLE) throw new UsageError(`--sample is at most ${MAX_POOL_SAMPLE.toLocaleString('en-US')} queries`);
  if (depth < 1) throw new UsageError('--depth must be at least 1');
  if (depth > MAX_POOL_DEPTH) throw new UsageError(`--depth is at most ${MAX_POOL_DEPTH.toLocaleString('en-US')} candidates per query`);
  if (values.scheme !== undefined && !isLabelScheme(values.scheme)) throw new UsageError(unknownChoice('scheme', values.scheme, LABEL_SCHEMES));
  let queries: string[] | undefined;
  if (values.queries) {
    const text = await readFile(values.queries, 'utf8').catch((e: NodeJS.ErrnoException) => {
      // In words, as an import says it ("ENOENT: no such file or directory, open 'x'" before).
      throw new QPairsError(`--queries ${values.queries}: ${cannotRead(e)}`);
    });
    queries = text.split(/[\s,]+/).filter(Boolean);
    if (queries.length === 0) throw new QPairsError(`${values.queries} lists no query ids`);
  }
  const ws = openWorkspace(positionals[0], { write: 'pool create', out });
  const bar = new ProgressBar(`pool ${name}`);
  try {
    const blind = values.blind === undefined ? true : parseOnOff(values.blind, '--blind');
    const source = values.source;
    const sources = questionSources(ws);
    const info = await createPool(ws, { name, queries, sample: sample !== undefined ? { n: sample, seed: seed! } : undefined, depth, scheme: (values.scheme as never) ?? 'binary', blind, source, analyzer: values.analyzer, order, orderSeed, convention }, {
      signal,
      onProgress: (d, t, note) => bar.update(d, t, note),
    });
    bar.done();
    const mixed = source === undefined && sources.length > 1;
    const withoutCandidate = ws.queriesWithoutCandidates(info.name);
    if (values.json) out.log(json({ ...info, source: source ?? null, ...(mixed ? { mixedSources: sources } : {}), queriesWithoutCandidate: withoutCandidate }));
    else {
      out.log(`created pool ${info.name}: ${counted(info.queries, 'query', 'queries')}, ${counted(info.pairs, 'candidate pair')} (BM25 top-${depth}${source !== undefined ? `, source ${source} only` : ''})`);
      if ((order ?? 'pool') === 'pool' && orderSeed !== undefined) {
        out.log(`  note: the pool order draws nothing, so --order-seed ${orderSeed} does not apply to it; it is kept for a drawing order (${DRAWING_ORDERS}) set later`);
      }
      if (mixed) {
        out.log(`  note: no --source given, so queries and candidates mix the workspace's ${sources.length} sources (${sources.map((s) => `${s.source}: ${s.questions}`).join(', ')}); use --source S to keep one corpus`);
      }
      // A query BM25 finds nothing for (a title of stop words, an empty text) is in the pool with nothing to label.
      const empty = queriesWithoutCandidateNote(withoutCandidate, info.queries);
      if (empty) out.log(`  note: ${empty}`);
    }
    return 0;
  } finally {
    bar.done();
    closeWorkspace(ws);
  }
}

async function cmdStats(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } });
  takePositionals(positionals, ['W'], 'stats');
  const ws = openWorkspace(positionals[0], { out });
  try {
    const s = ws.stats();
    if (values.json) out.log(json(s));
    else {
      out.log(table(['', 'count'], [
        ['questions', s.questions],
        ['answers', s.answers],
        ['indexed for BM25', s.indexedQuestions],
        ['duplicate pairs', s.duplicatePairs],
        ['pools', s.pools],
        ['labels (current)', s.labels],
        ['label events', s.labelEvents],
        ['annotators', s.annotators],
        ['runs', s.runs],
      ]));
    }
    return 0;
  } finally {
    ws.close();
  }
}

async function cmdServe(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string', multiple: true },
    'tokens-file': { type: 'string' },
    'require-tokens': { type: 'boolean' },
    'max-trainings': { type: 'string' },
    'max-upload-mb': { type: 'string' },
  });
  const w = positionals[0];
  if (!w) throw new UsageError('usage: qpairs serve W [--port P]');
  takePositionals(positionals, ['W'], 'serve');
  // Checked before anything starts (as npm run serve checks them): out of range, they ended in an internal error and a stack trace.
  let port: number | undefined;
  let maxTrainings: number | undefined;
  let maxUploadBytes: number | undefined;
  try {
    port = portFlag(values.port);
    maxTrainings = maxTrainingsFlag(values['max-trainings']);
    maxUploadBytes = uploadLimitBytes(values['max-upload-mb']);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { serveWorkspace } = await import('../serve/cli-serve');
  return serveWorkspace({
    workspace: w,
    port,
    host: values.host,
    tokens: values.token ?? [],
    tokensFile: values['tokens-file'],
    requireTokens: values['require-tokens'],
    maxTrainings,
    maxUploadBytes,
    log: out.log,
  });
}

export const COMMANDS: Record<string, (argv: string[], out: Out, signal: AbortSignal) => Promise<number>> = {
  init: cmdInit,
  import: cmdImport,
  pool: cmdPool,
  stats: cmdStats,
  eval: cmdEval,
  train: cmdTrain,
  score: cmdScore,
  models: cmdModels,
  serve: cmdServe,
  annotators: cmdAnnotators,
  assign: cmdAssign,
  label: cmdLabel,
  agreement: cmdAgreement,
  aggregate: cmdAggregate,
  adjudicate: cmdAdjudicate,
  export: cmdExport,
  corpus: cmdCorpus,
};

/**
 * The commands Ctrl-C (and SIGTERM, SIGHUP) cancels ("cancelled; nothing was changed", exit 130): they take the signal
 * main hands them and change nothing once it is aborted. Other commands keep Node's default: the
 * process ends at once (a writer's SQLite transaction rolls back, and the lock file it leaves is
 * taken over by the next writer, with a note). `corpus export` writes no workspace, but a file: cancelled, it
 * removes its temporary file (Node's default left it beside OUT). `export` too, at any stage: its rendering runs
 * as the engine's does (in a compute worker when large, which a Ctrl-C terminates), and its files are written to
 * temporary names, removed when cancelled ("cancelled; nothing was written").
 */
/** The orders a seed applies to: every one but `pool`, which draws nothing. */
const DRAWING_ORDERS = QUERY_ORDERS.filter((o) => o !== 'pool').join(', ');

const CANCELLABLE: ReadonlySet<string> = new Set(['import', 'pool create', 'train', 'score', 'corpus index', 'corpus export', 'export']);

/**
 * A message for errors that come from the machine rather than from a bug — SQLite's (read-only,
 * busy, full disk, corrupt file) and the file system's (permission denied, no such file) — so
 * they print as one line, not a stack trace. Null for anything else.
 */
export function environmentError(e: unknown, workspace?: string): string | null {
  const err = e as { code?: unknown; message?: unknown; path?: unknown; syscall?: unknown };
  if (!err || typeof err.code !== 'string' || typeof err.message !== 'string') return null;
  const code = err.code;
  if (code.startsWith('SQLITE_')) {
    if (code.startsWith('SQLITE_READONLY')) return `the workspace is read-only: ${err.message} (${code})`;
    if (code.startsWith('SQLITE_BUSY')) return `the workspace is busy (another process holds a write transaction too long): ${err.message} (${code})`;
    if (code === 'SQLITE_FULL') return `the disk is full: ${err.message} (${code})`;
    if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
      // Opening checks the header and the schema (a damaged one is refused there, by name); this is damage met later, in the data.
      const name = workspace === undefined ? 'the workspace file' : workspace;
      const check = workspace === undefined ? 'sqlite3 W' : `sqlite3 ${shellQuote(workspace)}`;
      return (
        `${name} is damaged: SQLite met a part it cannot read (${err.message}, ${code}). The command stopped. ` +
        `See how much is damaged with: ${check} "PRAGMA integrity_check". ${workspace === undefined ? 'Restore the workspace from a backup (see "Backups" in the README)' : restoreAdvice(workspace)}`
      );
    }
    if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_PERM')) return `cannot access the workspace file: ${err.message} (${code})`;
    return null;
  }
  if (/^E[A-Z]+$/.test(code) && typeof err.syscall === 'string') {
    const what: Record<string, string> = {
      EACCES: 'permission denied',
      EPERM: 'operation not permitted',
      ENOENT: 'no such file or directory',
      EISDIR: 'is a directory',
      ENOTDIR: 'not a directory',
      EROFS: 'read-only file system',
      ENOSPC: 'no space left on the device',
      EEXIST: 'already exists',
    };
    return `${typeof err.path === 'string' ? `${err.path}: ` : ''}${what[code] ?? err.message} (${code})`;
  }
  return null;
}

/** `unknown command "improt" (did you mean "import"? commands: …)` and where the usage is: short, so the suggestion is what one sees. */
function unknownCommand(cmd: string): string {
  return `${unknownChoice('command', cmd, Object.keys(COMMANDS))}\nrun "qpairs --help" for usage`;
}

/** Runs the CLI; returns the exit code (never calls process.exit, so tests can drive it). */
export async function main(argv: string[], out: Out = stdioOut()): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h') {
    // Asked for, the usage is the output (stdout, exit 0); with no command at all it is a usage error
    // (exit 2) and goes to stderr as every other one does: it went to stdout, into what a script captured.
    if (cmd) out.log(USAGE);
    else out.err(USAGE);
    return cmd ? 0 : 2;
  }
  if (cmd === '--version' || cmd === '-V' || cmd === 'version') {
    out.log(versionText());
    return 0;
  }
  if (cmd === 'help') {
    const about = rest[0];
    if (about !== undefined && !COMMAND_USAGE[about]) {
      out.err(`qpairs help: ${unknownCommand(about)}`);
      return 2;
    }
    const sub = rest[1];
    out.log(about === undefined ? USAGE : sub !== undefined && SUBCOMMANDS[about]?.includes(sub) ? subcommandUsage(about, sub) : commandUsage(about));
    return 0;
  }
  const run = COMMANDS[cmd];
  if (!run) {
    out.err(`qpairs: ${unknownCommand(cmd)}`);
    return 2;
  }
  if (COMMAND_USAGE[cmd] && asksForHelp(rest)) {
    // A subcommand's own usage (qpairs pool create --help); the command's whole usage for qpairs pool --help.
    const sub = rest[0];
    out.log(sub !== undefined && SUBCOMMANDS[cmd]?.includes(sub) ? subcommandUsage(cmd, sub) : commandUsage(cmd));
    return 0;
  }
  setCommandLine(argv);
  // Caught from before the command opens the workspace until after it has closed it (interrupt.ts).
  const interrupt = CANCELLABLE.has(cmd) || CANCELLABLE.has(`${cmd} ${rest[0]}`) ? catchInterrupt() : null;
  // Errors name the full subcommand: "qpairs pool create: …" (they said "qpairs pool:", for create, list and set alike).
  const name = commandName(cmd, rest[0]);
  try {
    return await run(rest, out, interrupt?.signal ?? new AbortController().signal);
  } catch (e) {
    if (e instanceof UsageError) {
      out.err(`qpairs ${name}: ${e.message}\nrun "qpairs ${name} --help" for usage`);
      return 2;
    }
    if (e instanceof CancelledError) {
      // An export changes nothing in the workspace: what it did not do is write its files.
      out.err(`qpairs ${name}: cancelled; nothing was ${cmd === 'export' ? 'written' : 'changed'}`);
      return 130;
    }
    if (e instanceof QPairsError) {
      out.err(`qpairs ${name}: ${e.message}`);
      return 1;
    }
    const known = environmentError(e, commandWorkspace());
    if (known) {
      out.err(`qpairs ${name}: ${known}`);
      return 1;
    }
    out.err(`qpairs ${name}: internal error: ${(e as Error).stack ?? String(e)}`);
    return 1;
  } finally {
    interrupt?.release();
  }
}
