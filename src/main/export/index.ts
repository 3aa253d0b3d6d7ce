/**
 * Gold export: `buildExport` renders a pool in one of the formats (formats.ts) plus its
 * datasheet (datasheet.ts); `writeExport` writes them atomically (write.ts).
 *
 * Files: the export goes to OUT; `trec-run` without a chosen run writes one file per run,
 * `STEM.RUN.EXT` for OUT = `STEM.EXT` (OUT itself when the pool has a single run); `askubuntu`
 * with text also writes its corpus `STEM.corpus.txt` (`id \t title \t body`). The datasheet is
 * `OUT.datasheet.md`, except for `hf-dataset`, where OUT is a folder holding `data/pairs.jsonl`
 * and `README.md` (the dataset card: YAML front matter + the datasheet). Without an OUT
 * (serve-mode downloads) the names are derived from the pool: `P.txt` (askubuntu), `P.qrels`,
 * `P.run`, `P.jsonl`, `P.csv`, `P.relevancy`, `P` (hf-dataset folder).
 *
 * Question text (title + body of queries and candidates) is included by default (`text`): jsonl,
 * csv and hf-dataset rows carry it and askubuntu writes its corpus file, so the gold set stands
 * alone; `text: false` (CLI `--no-text`) writes ids only.
 *
 * Labels come from `annotator` when given (a name or `@aggregate`), else the pool's default
 * source (gold when it has gold labels, else the aggregate; gold/state.ts defaultLabelSource).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Question } from '../../shared/types';
import { AGGREGATE, CLI_EXPORT_CONTROLS, EXPORT_FILES_EXIST, EXPORT_FORMATS, type AgreementView, type ExportControls, type ExportFormat } from '../../shared/gold';
import { NotFoundError, QPairsError } from '../errors';
import { poolAgreement } from '../gold/agreement';
import { poolRatingTable } from '../gold/rating-table';
import { AGREEMENT_WORK_LIMIT, maxAgreementBootstrap } from '../gold/budget';
import { defaultLabelSourceIn, loadPoolState, pairKey, sourceLabels, type PoolState } from '../gold/state';
import type { Workspace } from '../workspace/workspace';
import { datasheet, labelSourceText } from './datasheet';
import { hfColumns, render, type FileRole, type RunData } from './formats';
import { fileSink, headSink, memorySink, removeTempFiles, tempFileName, type FileSink, type LineSink } from './line-sink';
import { cardLicence, poolImports, poolQuestionSources, workspaceImports } from './licence';
import { REAL_NAMES, workspacePseudonyms } from './pseudonyms';
import { readHeader } from '../workspace/undo-journal';
import { checkTargetFolder, checkWriteTarget, makeFolder, removeFolders, writeFilesAtomic, writeFilesAtomicCancellable, type WrittenTemp } from './write';
import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { counted } from '../../shared/plural';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../shared/stat-defaults';
import type { ExportProgress } from './progress';

export { render, formatScore, csvField } from './formats';
export { datasheet } from './datasheet';
export { checkWriteTarget, writeFilesAtomic, type WriteOptions } from './write';
export { EXPORT_CANCELLED, PREVIEW_CANCELLED, PREVIEW_SUPERSEDED, exportProgressMessage, exportStageText, type ExportProgress, type ExportStage } from './progress';

/** What follows a rendering as it runs (functions: not part of ExportOptions, which crosses to the compute worker). */
export interface ExportRun {
  onProgress?: ExportProgress;
  /** Stops the agreement bootstrap between resamples (CancelledError). */
  signal?: AbortSignal;
}

export interface ExportOptions {
  /** Run for askubuntu / semeval-relevancy (default the pool's first run), or the one run for trec-run (default all). */
  run?: string;
  /** Label source: an annotator or "@aggregate" (default: gold if present, else the aggregate). */
  annotator?: string;
  /**
   * Bootstrap of the datasheet's agreement CIs (default 1000 resamples, seed 1): at most as many
   * resamples as the agreement work budget allows for the pool's size (see datasheetAgreement).
   */
  bootstrap?: number;
  seed?: number;
  /** The agreement work budget of the datasheet (default AGREEMENT_WORK_LIMIT, gold/budget.ts). */
  agreementWorkLimit?: number;
  version?: string;
  /** Export time written in the datasheet (default now). */
  now?: Date;
  /** Include question text (default true; see the module comment). */
  text?: boolean;
  /** Replace files that already exist (issue 23: otherwise an existing file is refused, nothing written). */
  force?: boolean;
  /**
   * Replace OUT itself when it exists, and only it (the desktop app: its native save dialog has asked
   * about that file, not about the datasheet, the askubuntu corpus or trec-run's per-run files beside
   * it, nor the files inside an hf-dataset folder, which stay refused unless `force`).
   */
  replaceChosen?: boolean;
  /** How the refusal for files in the way names the surface's controls (default the CLI's: --force). */
  controls?: ExportControls;
  /**
   * The datasheet's agreement as an earlier export of the same pool computed it (BuiltExport
   * datasheetAgreement), when nothing was written to the workspace since, with the same bootstrap,
   * seed and work budget: it depends on nothing else, and is most of a large pool's export time.
   */
  datasheetAgreement?: DatasheetAgreement;
  /**
   * Only each file's first N lines are wanted (export.preview): a file's content holds those only
   * (its `lines` still counts them all), and a jsonl, csv or hf-dataset export reads the text of
   * the questions of its first N pairs only. A preview read every question of the pool with its
   * text and rendered the whole export to show ten lines (6–7 s for a 3,000-query pool, 59 MB).
   */
  previewLines?: number;
  /**
   * Replace every person's name in every file written — label columns, votes, judges, notes, the
   * datasheet and card — with a pseudonym A1, A2, … (pseudonyms.ts; default false: names as they are).
   */
  pseudonymize?: boolean;
  /**
   * Leave the datasheet's agreement (its bootstrap: most of a large pool's export) for later, unless
   * given as `datasheetAgreement`: its section says it is not in the preview yet (export.preview's first answer,
   * so the Export screen shows the files' first lines at once), and `datasheetAgreement.pending` is set.
   */
  agreementLater?: boolean;
  /**
   * Stream each file's lines to a temporary file beside its target as they are rendered (line-sink.ts),
   * named with this token (openExportStream), rather than keeping them as the file's content: a written
   * export's files are never whole in memory. Ignored by a preview (previewLines).
   */
  streamToken?: string;
}

/** The datasheet's agreement section: the report (null below two annotators or over budget) and its note. */
export interface DatasheetAgreement {
  agreement: AgreementView | null;
  note: string | null;
  /** Left for later (ExportOptions.agreementLater): not the pool's agreement, never to be reused. */
  pending?: boolean;
}

/** The datasheet's agreement section while it is left for later (agreementLater). */
export function pendingAgreement(annotators: number): DatasheetAgreement {
  return {
    agreement: null,
    note: `Not in this preview yet: the agreement of the pool's ${annotators} annotators and its bootstrap CIs are computed after the files (the exported datasheet always has them).`,
    pending: true,
  };
}

export interface BuiltFile {
  name: string;
  /** The file's text ('' when it was streamed to `temp`). */
  content: string;
  lines: number;
  /** The temporary file holding it, when streamed (ExportOptions.streamToken), and its size in bytes. */
  temp?: string;
  bytes?: number;
}

export interface BuiltExport {
  pool: string;
  format: ExportFormat;
  source: string;
  run: string | null;
  files: BuiltFile[];
  datasheet: BuiltFile;
  warnings: string[];
  /** The agreement the datasheet shows (to pass back as ExportOptions.datasheetAgreement). */
  datasheetAgreement: DatasheetAgreement;
}

const EXT: Record<ExportFormat, string> = {
  askubuntu: '.txt',
  qrels: '.qrels',
  'trec-run': '.run',
  jsonl: '.jsonl',
  csv: '.csv',
  'semeval-relevancy': '.relevancy',
  'hf-dataset': '',
};

/** The formats that use a run: askubuntu and semeval-relevancy rank by one, trec-run writes one or all. */
const RUN_FORMATS: readonly ExportFormat[] = ['askubuntu', 'semeval-relevancy', 'trec-run'];

const safeName = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '_') || 'pool';

/** The default file name of an export of a pool (serve-mode downloads). */
export function defaultExportName(pool: string, format: ExportFormat): string {
  return `${safeName(pool)}${EXT[format]}`;
}

export function isExportFormat(s: string): s is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(s);
}

/**
 * The datasheet's agreement of the pool's annotators (none below two). An export is never refused
 * for its datasheet: a pool too large for `bootstrap` resamples within the agreement work budget
 * gets its CIs from as many resamples as the budget allows, and the note says so; when even the
 * point estimates are over it, the datasheet says agreement was not computed and why.
 */
function datasheetAgreement(ws: Workspace, pool: string, state: PoolState, o: ExportOptions, run: ExportRun): DatasheetAgreement {
  const m = state.annotators.length;
  if (m < 2) return { agreement: null, note: null };
  const wanted = o.bootstrap ?? DEFAULT_RESAMPLES;
  const limit = o.agreementWorkLimit ?? AGREEMENT_WORK_LIMIT;
  // Built once: it sizes the bootstrap here and is the report's table below.
  const built = poolRatingTable(state, state.annotators);
  const items = built.table.items.length;
  const most = maxAgreementBootstrap(items, m, limit);
  const size = `${counted(items, 'labeled pair')}, ${counted(m, 'annotator')}`;
  if (most < 1) {
    return {
      agreement: null,
      note: `Not computed: the pool is too large for an agreement report (${size}). \`qpairs agreement\` computes it for some of the annotators (--annotators) or queries (--queries).`,
    };
  }
  const bootstrap = Math.min(wanted, most);
  const onProgress = run.onProgress;
  const agreement = poolAgreement(
    ws,
    pool,
    { bootstrap, seed: o.seed ?? DEFAULT_SEED, workLimit: limit, signal: run.signal, ...(onProgress ? { onProgress: (d: number, t: number) => onProgress('agreement', d, t) } : {}) },
    state,
    built,
  );
  const note =
    bootstrap < wanted ? `The CIs use ${bootstrap} bootstrap resamples rather than ${wanted}: the most the agreement work budget allows for this pool (${size}).` : null;
  return { agreement, note };
}

/**
 * Renders an export of a pool to OUT (nothing is written; see writeExport), from one snapshot of
 * the workspace: its files and datasheet read many times, and a label another process commits
 * between two of those reads would be in one and not the other.
 */
export function buildExport(ws: Workspace, pool: string, format: ExportFormat, out: string, o: ExportOptions = {}, run: ExportRun = {}): BuiltExport {
  return ws.snapshot(() => buildExportNow(ws, pool, format, out, o, run));
}

function buildExportNow(ws: Workspace, pool: string, format: ExportFormat, out: string, o: ExportOptions, progress: ExportRun): BuiltExport {
  if (!isExportFormat(format)) throw new QPairsError(`unknown export format "${format}" (formats: ${EXPORT_FORMATS.join(', ')})`);
  progress.onProgress?.('reading', 0, 0);
  const state = loadPoolState(ws, pool);
  // From the state just read: defaultLabelSource would read the whole pool's state a second time (+68 MB of RSS at 100,000 pairs).
  const source = o.annotator ?? defaultLabelSourceIn(state);
  const labels = sourceLabels(ws, pool, source, state);
  const names = o.pseudonymize ? workspacePseudonyms(ws) : REAL_NAMES;
  const warnings: string[] = [];
  if (labels.values.size === 0) {
    // A name nobody has (a typo) would write every pair as "?": refused, as agreement refuses it.
    // The default source of a pool no one has labeled (gold, in a workspace with no gold yet) is no
    // typo: the pairs are written unlabeled (a sheet to label elsewhere), with the warning below.
    if (o.annotator !== undefined && source !== AGGREGATE && !ws.listAnnotators().some((a) => a.name === source)) {
      // Every label source with labels in the pool — judges and gold too: each exports with --annotator.
      const withLabels = [...state.labels.keys()];
      const have = withLabels.length ? `annotators with labels in the pool: ${withLabels.join(', ')}, or ${AGGREGATE}` : `the pool has no labels yet`;
      throw new NotFoundError(`no annotator named "${source}" (${have})`);
    }
    warnings.push(`${names.of(source)} has no labels in pool "${pool}"`);
  }
  checkRunFormat(format, o.run);
  const runInfos = ws.listRuns(pool);
  const runs: RunData[] = runInfos.map((r) => ({ name: r.name, scores: ws.runScores(r.id) }));
  let run: RunData | null = null;
  if (o.run !== undefined) {
    run = runs.find((r) => r.name === o.run) ?? null;
    if (!run) throw new QPairsError(`pool "${pool}" has no run "${o.run}" (runs: ${runs.map((r) => r.name).join(', ') || 'none'})`);
  } else if (format === 'askubuntu' || format === 'semeval-relevancy') {
    run = runs[0] ?? null;
  }
  if ((format === 'askubuntu' || format === 'trec-run') && runs.length === 0) {
    throw new QPairsError(`pool "${pool}" has no runs: the ${format} format needs scores`);
  }
  progress.onProgress?.('rendering', 0, 0);
  const withText = o.text ?? true;
  const textFormats: readonly ExportFormat[] = ['askubuntu', 'jsonl', 'csv', 'hf-dataset'];
  let text: Map<string, Question> | null = null;
  if (withText && textFormats.includes(format)) {
    // askubuntu's corpus file lists the questions that have text, so it needs them all; the other
    // formats write one line per pair, whatever the text, so a preview reads only its lines' text.
    const head = o.previewLines !== undefined && format !== 'askubuntu' ? o.previewLines : Infinity;
    const ids = new Set<string>();
    let pairs = 0;
    for (const q of state.queries) {
      if (pairs >= head) break;
      ids.add(q.queryId);
      for (const c of q.candidates) if (pairs++ < head) ids.add(c);
    }
    text = ws.getQuestions([...ids]);
  }
  // Issue 24: the notes the export carries — the source annotator's own, or (aggregate, and imported
  // gold, which stands for the dataset's labels as the aggregate does and has no notes of its own)
  // everyone's: a gold export re-imported restores its notes under their annotators, and the pool's
  // next export (gold by default) would otherwise drop them.
  const notes = new Map<string, Array<{ annotator: string; note: string }>>();
  for (const n of ws.labelNotes(pool, carriesEveryNote(source) ? {} : { annotator: source })) {
    const k = pairKey(n.queryId, n.candidateId);
    const list = notes.get(k) ?? [];
    list.push({ annotator: names.of(n.annotator), note: names.inText(n.note) });
    notes.set(k, list);
  }
  const named = names.replaced ? { labels: { ...labels, source: names.of(source) }, nameOf: names.of } : { labels };
  // trec-run writes a file per run: STEM.RUN.EXT when there are several.
  const runFiles = format === 'trec-run' ? (run ? 1 : runs.length) : 0;
  const nameOf = (f: FileRole): string => exportFileName(f, out, runFiles);
  const streamed: FileSink[] = [];
  const token = o.previewLines === undefined ? o.streamToken : undefined;
  const open = (f: FileRole): LineSink => {
    if (token === undefined) return o.previewLines === undefined ? memorySink() : headSink(o.previewLines);
    const sink = fileSink(tempFileName(nameOf(f), token), nameOf(f));
    streamed.push(sink);
    return sink;
  };
  try {
    const r = render(format, { pool, queries: state.queries, state, runs, run, text, notes, ...named, open });
    for (const f of streamed) f.close();
    return finishBuild(ws, pool, format, out, o, progress, { state, source, labels, names, warnings, run, text, notes, r, nameOf });
  } catch (e) {
    for (const f of streamed) {
      try {
        f.close();
      } catch {
        /* failing already */
      }
      try {
        unlinkSync(f.temp);
      } catch {
        /* gone */
      }
    }
    throw e;
  }
}

/** What buildExportNow has read and rendered, for finishBuild. */
interface Rendering {
  state: PoolState;
  source: string;
  labels: ReturnType<typeof sourceLabels>;
  names: ReturnType<typeof workspacePseudonyms>;
  warnings: string[];
  run: RunData | null;
  text: Map<string, Question> | null;
  notes: Map<string, Array<{ annotator: string; note: string }>>;
  r: ReturnType<typeof render>;
  nameOf: (f: FileRole) => string;
}

/** buildExportNow's second half: the files' names and content, the datasheet (and hf-dataset's card). */
function finishBuild(ws: Workspace, pool: string, format: ExportFormat, out: string, o: ExportOptions, progress: ExportRun, g: Rendering): BuiltExport {
  const { state, source, labels, names, warnings, run, text, notes, r, nameOf } = g;
  warnings.push(...r.warnings);
  // Imports commit in chunks: one under way (or interrupted and not yet undone) has rows in this snapshot that it may still add to or take back.
  const unfinished = readHeader(ws.db);
  if (unfinished?.state === 'running') {
    warnings.push(
      `an unfinished ${names.inText(unfinished.what)} (started ${unfinished.started}) was in the workspace when this export was taken: what it had written so far is in this export, ` +
        'and it may still add more, or be undone if it fails or was interrupted — export again once it has finished',
    );
  }

  const hf = format === 'hf-dataset';
  const files: BuiltFile[] = r.files.map((f) => {
    const name = nameOf(f);
    const sink = f.lines as LineSink & Partial<FileSink>;
    if (sink.kept === null) return { name, content: '', lines: sink.count, temp: sink.temp!, bytes: sink.bytes! };
    const kept = o.previewLines === undefined ? sink.kept : sink.kept.slice(0, o.previewLines);
    const content = kept.length ? kept.join('\n') + '\n' : '';
    return { name, content, lines: sink.count };
  });
  const later = o.agreementLater === true && state.annotators.length >= 2;
  const shown = o.datasheetAgreement ?? (later ? pendingAgreement(state.annotators.length) : datasheetAgreement(ws, pool, state, o, progress));
  const { agreement, note: agreementNote } = shown;
  const sheet = datasheet({
    ws,
    state,
    format,
    source,
    run: run?.name ?? null,
    files: files.map((f) => ({ name: path.basename(f.name), lines: f.lines })),
    outName: path.basename(out),
    distribution: r.distribution,
    labels: r.labels,
    queries: r.queries,
    agreement,
    agreementNote,
    handling: r.handling,
    text: text !== null,
    notes: [...notes.values()].reduce((n, l) => n + l.length, 0),
    warnings,
    unlabeled: labels.values.size === 0,
    exportedAt: (o.now ?? new Date()).toISOString(),
    version: o.version ?? '0.1.0',
    names,
  });
  const dsName = hf ? path.join(out, 'README.md') : `${out}.datasheet.md`;
  const card = hf ? datasetCard({ pool, scheme: state.scheme, rows: r.files[0]?.lines.count ?? 0, source, text: text !== null, license: cardLicence(poolImports(workspaceImports(ws).data, pool, poolQuestionSources(ws, pool))), labels: labelSourceText(ws, source, { rule: state.rule, unlabeled: labels.values.size === 0, poolLabeled: state.labels.size > 0, names }) }) + sheet : sheet;
  return { pool, format, source, run: run?.name ?? null, files, datasheet: { name: dsName, content: card, lines: card.split('\n').length }, warnings, datasheetAgreement: shown };
}

/** The name of one of the export's files to `out` (`runFiles`: how many run files trec-run writes). */
function exportFileName(f: FileRole, out: string, runFiles: number): string {
  if (f.role === 'corpus') return corpusFileName(out);
  if (f.role === 'data') return path.join(out, 'data', 'pairs.jsonl');
  return f.run !== null && runFiles > 1 ? runFileName(out, f.run) : out;
}

/** OUT without its extension: `dev.txt` → `dev`. */
function stemOf(out: string): string {
  const ext = path.extname(out);
  return ext ? out.slice(0, -ext.length) : out;
}

/** askubuntu's corpus file beside OUT: `dev.txt` → `dev.corpus.txt`. */
function corpusFileName(out: string): string {
  return `${stemOf(out)}.corpus.txt`;
}

/** trec-run's file of one of several runs: `STEM.RUN.EXT` for OUT = `STEM.EXT`. */
function runFileName(out: string, run: string): string {
  return `${stemOf(out)}.${safeName(run)}${path.extname(out)}`;
}

/** YAML double-quoted scalar. */
const yq = (s: string): string => JSON.stringify(s);

/**
 * The YAML front matter of a Hugging Face dataset card for an hf-dataset export: pretty name,
 * task, size category, the one data file (config "default", split "test") and its features.
 */
export function datasetCard(o: { pool: string; scheme: string; rows: number; source: string; text: boolean; labels: string; license?: string | null }): string {
  const size = o.rows < 1000 ? 'n<1K' : o.rows < 10_000 ? '1K<n<10K' : o.rows < 100_000 ? '10K<n<100K' : o.rows < 1_000_000 ? '100K<n<1M' : 'n>1M';
  // The rows' own column list (formats.ts hfColumns): features equal the columns, always.
  const features = hfColumns(o.text).flatMap(({ name, feature }) => {
    if ('dtype' in feature) return [`  - name: ${name}`, `    dtype: ${feature.dtype}`];
    const [key, fields] = 'list' in feature ? ['list', feature.list] : ['struct', feature.struct];
    return [`  - name: ${name}`, `    ${key}:`, ...fields.flatMap((f) => [`    - name: ${f.name}`, `      dtype: ${f.dtype}`])];
  });
  return [
    '---',
    `pretty_name: ${yq(`QPairs pool ${o.pool}`)}`,
    // Only when every import that brought data names one licence (licence.ts); else the datasheet says what to state.
    ...(o.license ? [`license: ${o.license}`] : []),
    // No `language`: QPairs does not know the corpus's (a Stack Exchange site's dump may be in any), and a
    // card that said English put every export under English on the Hub.
    'task_categories:',
    '- text-classification',
    '- text-retrieval',
    'task_ids:',
    '- semantic-similarity-classification',
    'size_categories:',
    `- ${size}`,
    'tags:',
    '- similar-questions',
    '- duplicate-question-detection',
    `- ${yq(`label-scheme-${o.scheme}`)}`,
    'configs:',
    '- config_name: default',
    '  data_files:',
    '  - split: test',
    '    path: data/pairs.jsonl',
    'dataset_info:',
    '  features:',
    ...features,
    '  splits:',
    '  - name: test',
    `    num_examples: ${o.rows}`,
    '---',
    '',
    `Labels: ${o.labels}${o.source === AGGREGATE ? ' (column annotator = "gold")' : ''}. The datasheet follows.`,
    '',
    '',
  ].join('\n');
}

/** Throws when any of `targets` but `chosen` exists (an export replaces files only with force; `chosen`, the file a save dialog asked about). */
function refuseExisting(targets: readonly string[], chosen: string | null, controls: ExportControls = CLI_EXPORT_CONTROLS): void {
  const existing = targets.filter((f) => f !== chosen && existsSync(f));
  if (existing.length === 0) return;
  throw new QPairsError(
    `refusing to overwrite ${existing.length === 1 ? 'an existing file' : `${existing.length} existing files`}: ${existing.join(', ')}; nothing was written ` +
      `(${controls.another}, or ${controls.replace(existing.length)})`,
    { file: existing[0]!, reason: EXPORT_FILES_EXIST },
  );
}

/**
 * Renders and writes an export and its datasheet atomically; returns what was written. No file
 * it writes may be the workspace, its -wal/-shm/-journal/.lock files, or any SQLite database
 * (checkWriteTarget): such a target is refused before anything is rendered or written.
 */
export function writeExport(ws: Workspace, pool: string, format: ExportFormat, out: string, o: ExportOptions = {}): BuiltExport {
  const target = prepareExportWrite(ws, format, out, { ...o, pool });
  return finishExportWrite(target, buildExport(ws, pool, format, target.abs, o), o);
}

/** Where an export will be written, checked before anything is rendered (prepareExportWrite). */
export interface ExportTarget {
  /** OUT as an absolute path: render the export to this name. */
  abs: string;
  format: ExportFormat;
  protect: { protect: string[] };
}

/**
 * writeExport's first half: refuses a target that is the workspace, a device, a folder where a file
 * goes (or the reverse), or, without `force`, a file already there — before the export is rendered,
 * which can take long (the engine renders it off its thread between the two halves).
 */
export function prepareExportWrite(
  ws: Workspace,
  format: ExportFormat,
  out: string,
  o: Pick<ExportOptions, 'force' | 'replaceChosen' | 'run' | 'text' | 'controls'> & { pool?: string } = {},
): ExportTarget {
  checkRunFormat(format, o.run);
  const abs = path.resolve(out);
  const protect = { protect: [ws.path] };
  if (format === 'hf-dataset') {
    // OUT is a folder (created if need be): refuse a file there, or the workspace inside it.
    if (existsSync(abs) && !statSync(abs).isDirectory()) throw new QPairsError(`refusing to write ${abs}: the hf-dataset export is a folder and ${abs} is a file; nothing was written`);
    checkWriteTarget(path.join(abs, 'README.md'), protect);
    checkWriteTarget(path.join(abs, 'data', 'pairs.jsonl'), protect);
  } else {
    // `out/` names a folder: path.resolve drops the slash, and a file `out` (and `out.datasheet.md`) was written beside where it was asked.
    if (/[\\/]$/.test(out)) {
      const example = path.join(abs, `${safeName(o.pool ?? 'pool')}${EXT[format]}`);
      throw new QPairsError(`refusing to write ${out}: a name ending in "${out.slice(-1)}" is a folder, and the ${format} export writes a file (its datasheet beside it): name the file, as ${example}; nothing was written`);
    }
    checkWriteTarget(abs, protect);
    checkWriteTarget(`${abs}.datasheet.md`, protect);
    checkTargetFolder(abs);
  }
  // Issue 23: never overwrite what is there (a dataset card edited by hand, an earlier export) unless told to.
  // Every name the export will write is checked before rendering: a large pool's export (its agreement
  // bootstrap) can take a minute, a refusal should not wait for it, and it names every file in the way
  // (the desktop app asks once whether to replace them). trec-run's OUT becomes per-run files when the pool has several runs.
  const known =
    format === 'hf-dataset'
      ? [path.join(abs, 'README.md'), path.join(abs, 'data', 'pairs.jsonl')]
      : [...exportDataFiles(ws, format, abs, o), `${abs}.datasheet.md`];
  for (const t of known) checkWriteTarget(t, protect); // a database among them is refused as such first
  if (!o.force) refuseExisting(known, chosenFile(format, abs, o), o.controls);
  return { abs, format, protect };
}

/** A run given to a format that uses none was ignored, while the CLI and the datasheet said "run R": refused (before anything is read, by prepareExportWrite). */
function checkRunFormat(format: ExportFormat, run: string | undefined): void {
  if (run !== undefined && !RUN_FORMATS.includes(format)) {
    throw new QPairsError(`the ${format} export uses no run: a run (--run) applies to ${RUN_FORMATS.join(', ')} only`);
  }
}

/** The data files (not the datasheet) of a non-folder export to `abs`, named as buildExport names them. */
function exportDataFiles(ws: Workspace, format: ExportFormat, abs: string, o: { pool?: string; run?: string; text?: boolean }): string[] {
  if (format === 'askubuntu') return o.text === false ? [abs] : [abs, corpusFileName(abs)];
  if (format !== 'trec-run' || o.run !== undefined) return [abs];
  if (o.pool === undefined) return [];
  const runs = ws.listRuns(o.pool);
  return runs.length > 1 ? runs.map((r) => runFileName(abs, r.name)) : [abs];
}

/**
 * An export streamed to its folder (ExportOptions.streamToken): the token naming its temporary files,
 * and the folders it made for them (hf-dataset's OUT/data), made before the rendering writes there.
 */
export interface ExportStream {
  token: string;
  made: string[];
}

/** Starts a streamed export to `target`: pass `token` as ExportOptions.streamToken, then finishExportWriteCancellable(…, stream) or abandonExportStream. */
export function openExportStream(target: ExportTarget): ExportStream {
  const made = target.format === 'hf-dataset' ? makeFolder(path.join(target.abs, 'data')) : [];
  return { token: `${process.pid}.${randomBytes(6).toString('hex')}`, made };
}

/** Takes back a streamed export that failed or was cancelled: its temporary files (a stopped compute worker leaves them) and the folders it made. */
export function abandonExportStream(target: ExportTarget, stream: ExportStream): void {
  const folders = target.format === 'hf-dataset' ? [path.join(target.abs, 'data'), target.abs] : [path.dirname(target.abs)];
  removeTempFiles(folders, stream.token);
  removeFolders(stream.made);
}

/** writeExport's second half: checks the rendered export's every file name, then writes them all or none. */
export function finishExportWrite(target: ExportTarget, built: BuiltExport, o: Pick<ExportOptions, 'force' | 'replaceChosen' | 'controls'> = {}): BuiltExport {
  const { files, made } = beforeExportWrite(target, built, o);
  if (files.written.length) throw new Error('finishExportWrite: a streamed export is finished by finishExportWriteCancellable');
  try {
    writeFilesAtomic(files.content, target.protect);
  } catch (e) {
    removeFolders(made);
    throw e;
  }
  return built;
}

/**
 * finishExportWrite that a Ctrl-C (`signal`) stops while the files are written (the CLI's export): the
 * temporary files and the folders it made are removed, nothing is renamed, and it throws CancelledError.
 * `stream`: the export was streamed (openExportStream): its files, already in temporary files, are renamed
 * with the datasheet, or on a failure removed with the folders the stream made.
 */
export async function finishExportWriteCancellable(
  target: ExportTarget,
  built: BuiltExport,
  o: Pick<ExportOptions, 'force' | 'replaceChosen' | 'controls'>,
  signal: AbortSignal,
  stream?: ExportStream,
): Promise<BuiltExport> {
  try {
    const { files, made } = beforeExportWrite(target, built, o);
    try {
      await writeFilesAtomicCancellable(files.content, target.protect, signal, files.written);
    } catch (e) {
      removeFolders(made);
      throw e;
    }
  } catch (e) {
    if (stream) abandonExportStream(target, stream);
    throw e;
  }
  return built;
}

/** finishExportWrite's checks, and the folders an hf-dataset export needs (made: removed again if the write fails). */
function beforeExportWrite(
  target: ExportTarget,
  built: BuiltExport,
  o: Pick<ExportOptions, 'force' | 'replaceChosen' | 'controls'>,
): { files: { content: Array<{ path: string; content: string }>; written: WrittenTemp[] }; made: string[] } {
  const { abs, format, protect } = target;
  const targets = [...built.files, built.datasheet].map((f) => f.name);
  for (const t of targets) checkWriteTarget(t, protect); // a database among them is refused as such first
  if (!o.force) refuseExisting(targets, chosenFile(format, abs, o), o.controls);
  // An hf-dataset export that fails (a full disk) takes back the folders it made: "nothing was written" holds for them too.
  const made = format === 'hf-dataset' ? makeFolder(path.join(abs, 'data')) : [];
  const all = [...built.files, built.datasheet];
  const written = all.flatMap((f) => (f.temp === undefined ? [] : [{ tmp: f.temp, path: f.name }]));
  const content = all.filter((f) => f.temp === undefined).map((f) => ({ path: f.name, content: f.content }));
  return { files: { content, written }, made };
}

/** The one existing file `replaceChosen` lets the export replace: OUT, when it is a file (hf-dataset's OUT is a folder). */
function chosenFile(format: ExportFormat, abs: string, o: Pick<ExportOptions, 'replaceChosen'>): string | null {
  return o.replaceChosen && format !== 'hf-dataset' ? abs : null;
}

/** Whether an export from `source` carries every person's notes (the aggregate and imported gold) or only the source's own. */
export function carriesEveryNote(source: string): boolean {
  return source === AGGREGATE || source === 'gold';
}
