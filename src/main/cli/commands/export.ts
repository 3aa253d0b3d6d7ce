import { EXPORT_FORMATS, type ExportFormat } from '../../../shared/gold';
import { QPairsError } from '../../errors';
import {
  abandonExportStream,
  exportProgressMessage,
  exportStageText,
  finishExportWriteCancellable,
  isExportFormat,
  openExportStream,
  prepareExportWrite,
  type BuiltExport,
  type ExportProgress,
  type ExportStage,
} from '../../export';
import { compute } from '../../engine/compute';
import { ProgressBar } from '../progress';
import { parse, requireString, takePositionals, UsageError } from '../args';
import { unknownChoice } from '../../../shared/suggest';
import { json, withWorkspace, type Out } from './common';
import { counted } from '../../../shared/plural';

/**
 * `qpairs export W --pool P --format F OUT [--run R] [--annotator A] [--no-text] [--pseudonymize] [--json]`: writes the pool's
 * gold labels (default: gold if present, else the aggregate; `--annotator` picks one person or
 * @aggregate) in format F to OUT, atomically, and the datasheet beside it as OUT.datasheet.md.
 * trec-run without --run writes one file per run (OUT.EXT → OUT.RUN.EXT when there are several).
 * Question text is included (jsonl/csv columns, askubuntu's STEM.corpus.txt) unless --no-text;
 * `--pseudonymize` writes every person's name as A1, A2, … (export/pseudonyms.ts).
 * hf-dataset writes the folder OUT (data/pairs.jsonl + README.md dataset card). Existing files are
 * never replaced unless --force (issue 23). Progress goes to stderr: a bar on a terminal, else a line
 * per stage; Ctrl-C (SIGTERM, SIGHUP) at any stage stops it with nothing written (exit 130).
 */
export async function cmdExport(argv: string[], out: Out, signal: AbortSignal = new AbortController().signal): Promise<number> {
  const { values, positionals } = parse(argv, {
    pool: { type: 'string' },
    format: { type: 'string', short: 'f' },
    run: { type: 'string' },
    annotator: { type: 'string' },
    'no-text': { type: 'boolean' },
    pseudonymize: { type: 'boolean' },
    force: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const pool = requireString(values.pool, '--pool P');
  const format = requireString(values.format, '--format F');
  if (!isExportFormat(format)) throw new UsageError(unknownChoice('export format', format, EXPORT_FORMATS, 'formats'));
  const [w, target] = positionals;
  if (!target) throw new UsageError('export needs an output file OUT');
  // `-` is standard output for `qpairs corpus export`; here it made files named "-" and "-.datasheet.md".
  if (target === '-') {
    throw new UsageError('export writes OUT and its datasheet OUT.datasheet.md, so OUT is a file name, not "-" (standard output is only for qpairs corpus export; ./- names a file "-")');
  }
  takePositionals(positionals, ['W', 'OUT'], 'export');
  return withWorkspace(w, async (ws) => {
    const o = { run: values.run, annotator: values.annotator, text: !values['no-text'], pseudonymize: values.pseudonymize === true, force: values.force };
    const where = prepareExportWrite(ws, format, target, { ...o, pool });
    const progress = exportProgress(out, values.json === true);
    let b: BuiltExport;
    // The files are streamed to temporary names as they are rendered (never whole in memory), renamed only once all are written.
    const stream = openExportStream(where);
    try {
      // Rendered as the engine renders it (compute.ts: in a compute worker when large), so a Ctrl-C is heard
      // during the agreement bootstrap too.
      const { force: _force, ...options } = o;
      let built: BuiltExport;
      try {
        built = await compute(ws, { kind: 'export', pool, format, out: where.abs, options: { ...options, streamToken: stream.token } }, { signal, onProgress: progress.report });
        const empty = nothingToExport(built);
        if (empty) throw new QPairsError(`nothing to export: ${empty}; nothing was written`);
      } catch (e) {
        abandonExportStream(where, stream);
        throw e;
      }
      progress.report('writing', 0, 0);
      b = await finishExportWriteCancellable(where, built, o, signal, stream);
    } finally {
      progress.done();
    }
    const files = [...b.files, b.datasheet].map((f) => ({ file: f.name, lines: f.lines }));
    if (values.json) out.log(json({ pool: b.pool, format: b.format, labels: b.source, run: b.run, files, warnings: b.warnings }));
    else {
      out.log(`exported pool ${b.pool} (${b.format}, labels of ${b.source}${b.run ? `, run ${b.run}` : ''})`);
      for (const f of files) out.log(`  ${f.file} (${counted(f.lines, 'line')})`);
      for (const wmsg of b.warnings) out.log(`  note: ${wmsg}`);
    }
    return 0;
  }, { out });
}

/** The formats whose rows are labeled pairs only (qrels, semeval-relevancy) or queries with a label (askubuntu). */
const LABELED_ROWS_ONLY: readonly ExportFormat[] = ['qrels', 'semeval-relevancy', 'askubuntu'];

/**
 * Why an export's files hold no row (null when some do): a pool without candidate pairs, or a format that
 * writes labeled pairs only from a source with no decisive label in the pool. Written, such an export was
 * files of no line (a csv of its header alone) and a datasheet, exit 0, a script none the wiser. A pool no
 * one labeled exported as jsonl, csv or hf-dataset is no such case: every pair is written, unlabeled, a sheet
 * to label elsewhere.
 */
function nothingToExport(b: BuiltExport): string | null {
  const data = b.files.filter((f) => !/\.corpus\.txt$/.test(f.name) || b.format !== 'askubuntu');
  const rows = data.reduce((n, f) => n + f.lines - (b.format === 'csv' ? 1 : 0), 0);
  if (rows > 0) return null;
  if (b.format === 'trec-run') return `no run of pool ${b.pool} scores any of its candidates`;
  if (!LABELED_ROWS_ONLY.includes(b.format)) return `pool ${b.pool} has no candidate pair (BM25 found no other question for its queries)`;
  return (
    `the ${b.format} format writes ${b.format === 'askubuntu' ? 'the queries with a decisive label' : 'decisively labeled pairs'} only, and ${b.source} has none in pool ${b.pool}: ` +
    `label its pairs or import labels (then export again), choose another source (--annotator), or export jsonl, csv or hf-dataset, which write every pair, unlabeled ones with label "?"`
  );
}

/**
 * The export's progress on stderr: a bar with the stage where stderr is a terminal, else (a log, a
 * pipe) one line per stage begun (none with --json); the agreement bootstrap's line says how many resamples it runs.
 */
function exportProgress(out: Out, json: boolean): { report: ExportProgress; done: () => void } {
  const bar = new ProgressBar('export');
  const lines = !json && !process.stderr.isTTY;
  let stage: ExportStage | null = null;
  return {
    report: (s, done, total) => {
      bar.update(done, total, exportProgressMessage(s, done, total));
      if (lines && s !== stage) out.err(`export: ${exportStageText(s)}${total > 0 ? ` (${total.toLocaleString('en-US')} resamples)` : ''}…`);
      stage = s;
    },
    done: () => bar.done(),
  };
}
