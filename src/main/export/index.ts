/**
 * Gold export: `buildExport` renders a pool in one of the formats (formats.ts) plus its
 * datasheet (datasheet.ts); `writeExport` writes them atomically (write.ts).
 *
 * Files: the export goes to OUT; `trec-run` without a chosen run writes one file per run,
 * `STEM.RUN.EXT` for OUT = `STEM.EXT` (OUT itself when the pool has a single run). The datasheet
 * is always `OUT.datasheet.md`. Without an OUT (serve-mode downloads) the names are derived from
 * the pool: `P.txt` (askubuntu), `P.qrels`, `P.run`, `P.jsonl`, `P.csv`, `P.relevancy`.
 *
 * Labels come from `annotator` when given (a name or `@aggregate`), else the pool's default
 * source (gold when it has gold labels, else the aggregate; gold/state.ts defaultLabelSource).
 */
import path from 'node:path';
import { EXPORT_FORMATS, type ExportFormat } from '../../shared/gold';
import { QPairsError } from '../errors';
import { poolAgreement } from '../gold/agreement';
import { defaultLabelSource, loadPoolState, sourceLabels } from '../gold/state';
import type { Workspace } from '../workspace/workspace';
import { datasheet } from './datasheet';
import { render, type RunData } from './formats';
import { checkWriteTarget, writeFilesAtomic } from './write';

export { render, formatScore, csvField } from './formats';
export { datasheet } from './datasheet';
export { checkWriteTarget, writeFilesAtomic, type WriteOptions } from './write';

export interface ExportOptions {
  /** Run for askubuntu / semeval-relevancy (default the pool's first run), or the one run for trec-run (default all). */
  run?: string;
  /** Label source: an annotator or "@aggregate" (default: gold if present, else the aggregate). */
  annotator?: string;
  /** Bootstrap of the datasheet's agreement CIs (default 1000 resamples, seed 1). */
  bootstrap?: number;
  seed?: number;
  version?: string;
  /** Export time written in the datasheet (default now). */
  now?: Date;
}

export interface BuiltFile {
  name: string;
  content: string;
  lines: number;
}

export interface BuiltExport {
  pool: string;
  format: ExportFormat;
  source: string;
  run: string | null;
  files: BuiltFile[];
  datasheet: BuiltFile;
  warnings: string[];
}

const EXT: Record<ExportFormat, string> = {
  askubuntu: '.txt',
  qrels: '.qrels',
  'trec-run': '.run',
  jsonl: '.jsonl',
  csv: '.csv',
  'semeval-relevancy': '.relevancy',
};

const safeName = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '_') || 'pool';

/** The default file name of an export of a pool (serve-mode downloads). */
export function defaultExportName(pool: string, format: ExportFormat): string {
  return `${safeName(pool)}${EXT[format]}`;
}

export function isExportFormat(s: string): s is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(s);
}

/** Renders an export of a pool to OUT (nothing is written; see writeExport). */
export function buildExport(ws: Workspace, pool: string, format: ExportFormat, out: string, o: ExportOptions = {}): BuiltExport {
  if (!isExportFormat(format)) throw new QPairsError(`unknown export format "${format}" (formats: ${EXPORT_FORMATS.join(', ')})`);
  const state = loadPoolState(ws, pool);
  const source = o.annotator ?? defaultLabelSource(ws, pool);
  const labels = sourceLabels(ws, pool, source, state);
  const warnings: string[] = [];
  if (labels.values.size === 0) warnings.push(`${source} has no labels in pool "${pool}"`);
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
  const r = render(format, { pool, queries: state.queries, labels, state, runs, run });
  warnings.push(...r.warnings);

  const ext = path.extname(out);
  const stem = ext ? out.slice(0, -ext.length) : out;
  const files: BuiltFile[] = r.files.map((f) => {
    const name = f.run !== null && r.files.length > 1 ? `${stem}.${safeName(f.run)}${ext}` : out;
    const content = f.lines.length ? f.lines.join('\n') + '\n' : '';
    return { name, content, lines: f.lines.length };
  });
  const agreement =
    state.annotators.length >= 2 ? poolAgreement(ws, pool, { bootstrap: o.bootstrap ?? 1000, seed: o.seed ?? 1 }, state) : null;
  const sheet = datasheet({
    ws,
    state,
    format,
    source,
    run: run?.name ?? null,
    files: files.map((f) => ({ name: path.basename(f.name), lines: f.lines })),
    distribution: r.distribution,
    labels: r.labels,
    queries: r.queries,
    agreement,
    warnings,
    exportedAt: (o.now ?? new Date()).toISOString(),
    version: o.version ?? '0.1.0',
  });
  const dsName = `${out}.datasheet.md`;
  return { pool, format, source, run: run?.name ?? null, files, datasheet: { name: dsName, content: sheet, lines: sheet.split('\n').length }, warnings };
}

/**
 * Renders and writes an export and its datasheet atomically; returns what was written. No file
 * it writes may be the workspace, its -wal/-shm/-journal/.lock files, or any SQLite database
 * (checkWriteTarget): such a target is refused before anything is rendered or written.
 */
export function writeExport(ws: Workspace, pool: string, format: ExportFormat, out: string, o: ExportOptions = {}): BuiltExport {
  const abs = path.resolve(out);
  const protect = { protect: [ws.path] };
  checkWriteTarget(abs, protect);
  checkWriteTarget(`${abs}.datasheet.md`, protect);
  const built = buildExport(ws, pool, format, abs, o);
  writeFilesAtomic([...built.files, built.datasheet].map((f) => ({ path: f.name, content: f.content })), protect);
  return built;
}
