import { EXPORT_FORMATS } from '../../../shared/gold';
import { buildExport, finishExportWriteCancellable, isExportFormat, prepareExportWrite } from '../../export';
import { catchInterrupt } from '../interrupt';
import { parse, requireString, takePositionals, UsageError } from '../args';
import { unknownChoice } from '../../../shared/suggest';
import { json, withWorkspace, type Out } from './common';
import { counted } from '../../../shared/plural';

/**
 * `qpairs export W --pool P --format F OUT [--run R] [--annotator A] [--no-text] [--json]`: writes the pool's
 * gold labels (default: gold if present, else the aggregate; `--annotator` picks one person or
 * @aggregate) in format F to OUT, atomically, and the datasheet beside it as OUT.datasheet.md.
 * trec-run without --run writes one file per run (OUT.EXT → OUT.RUN.EXT when there are several).
 * Question text is included (jsonl/csv columns, askubuntu's STEM.corpus.txt) unless --no-text;
 * hf-dataset writes the folder OUT (data/pairs.jsonl + README.md dataset card). Existing files are
 * never replaced unless --force (issue 23).
 */
export async function cmdExport(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, {
    pool: { type: 'string' },
    format: { type: 'string', short: 'f' },
    run: { type: 'string' },
    annotator: { type: 'string' },
    'no-text': { type: 'boolean' },
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
    const o = { run: values.run, annotator: values.annotator, text: !values['no-text'], force: values.force };
    const where = prepareExportWrite(ws, format, target, { ...o, pool });
    // Rendering writes nothing, and Node's default Ctrl-C ends it at once. While the files are written, a Ctrl-C
    // (SIGTERM, SIGHUP) is caught, so the temporary files are removed ("cancelled", exit 130): it left them beside OUT.
    const built = buildExport(ws, pool, format, where.abs, o);
    const interrupt = catchInterrupt();
    let b;
    try {
      b = await finishExportWriteCancellable(where, built, o, interrupt.signal);
    } finally {
      interrupt.release();
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
