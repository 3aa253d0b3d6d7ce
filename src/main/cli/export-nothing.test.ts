/**
 * `qpairs export` of nothing — a qrels, semeval-relevancy or askubuntu export from a source with no
 * decisive label in the pool, or any export of a pool without candidate pairs — wrote files of no line
 * (a csv of its header alone) and a datasheet, and exited 0. It now fails (exit 1) saying why and what
 * to do, and writes nothing. A pool no one labeled exported as jsonl, csv or hf-dataset is a sheet to
 * label elsewhere: written, every pair with label "?", exit 0, as before.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliOk, useCliWorkspace } from './test-cli';

const cli = useCliWorkspace('qpairs-cli-export-nothing-', async ({ w, file }) => {
  const q = ['a', 'b', 'c', 'd'].map((id) => JSON.stringify({ id, title: `wifi drops after suspend ${id}`, body: 'on my laptop' })).join('\n');
  await runCliOk('import', w, '--format', 'questions-jsonl', file('q.jsonl', `${q}\n`));
  await runCliOk('pool', 'create', w, '--name', 'p', '--queries', file('ids.txt', 'a'), '--depth', '2');
});

const written = (): string[] => readdirSync(cli.dir).filter((f) => f.startsWith('out')).sort();

describe('qpairs export with nothing to export', () => {
  it('refuses a labeled-pairs format from a source with no label, writes nothing; a sheet of unlabeled pairs is still written', async () => {
    for (const [format, what] of [['qrels', 'decisively labeled pairs'], ['semeval-relevancy', 'decisively labeled pairs'], ['askubuntu', 'the queries with a decisive label']] as const) {
      const r = await runCli('export', cli.w, '--pool', 'p', '--format', format, '--json', path.join(cli.dir, `out.${format}`)); // --json: no progress lines
      expect(r.code, `${format}: ${r.err}`).toBe(1);
      expect(r.err).toBe(
        `qpairs export: nothing to export: the ${format} format writes ${what} only, and gold has none in pool p: label its pairs or import labels (then export again), ` +
          'choose another source (--annotator), or export jsonl, csv or hf-dataset, which write every pair, unlabeled ones with label "?"; nothing was written\n',
      );
      expect(r.out).toBe('');
      expect(written(), format).toEqual([]);
    }
    for (const format of ['jsonl', 'csv']) await runCliOk('export', cli.w, '--pool', 'p', '--format', format, path.join(cli.dir, `out.${format}`));
    expect(written()).toEqual(['out.csv', 'out.csv.datasheet.md', 'out.jsonl', 'out.jsonl.datasheet.md']);
    // Once a pair is labeled, qrels has a row to write (the candidate: the csv sheet's first row).
    const candidate = readFileSync(path.join(cli.dir, 'out.csv'), 'utf8').split('\n')[1]!.split(',')[1]!;
    await runCliOk('label', cli.w, '--pool', 'p', '--annotator', 'alice', '--query', 'a', '--candidate', candidate, '--value', '1');
    await runCliOk('export', cli.w, '--pool', 'p', '--format', 'qrels', path.join(cli.dir, 'out.qrels'));
    expect(readFileSync(path.join(cli.dir, 'out.qrels'), 'utf8')).toBe(`a 0 ${candidate} 1\n`);
  });

  it('refuses every format for a pool without candidate pairs', async () => {
    await runCliOk('import', cli.w, '--format', 'questions-jsonl', cli.file('stop.jsonl', `${JSON.stringify({ id: 's', title: 'the of and', body: '' })}\n`));
    await runCliOk('pool', 'create', cli.w, '--name', 'e', '--queries', cli.file('s.txt', 's'));
    for (const format of ['jsonl', 'csv', 'hf-dataset']) {
      const r = await runCli('export', cli.w, '--pool', 'e', '--format', format, '--json', path.join(cli.dir, `out-${format}`));
      expect(r.code, `${format}: ${r.err}`).toBe(1);
      expect(r.err).toBe('qpairs export: nothing to export: pool e has no candidate pair (BM25 found no other question for its queries); nothing was written\n');
    }
    // trec-run: the pool's bm25 run scores no candidate (there is none).
    const r = await runCli('export', cli.w, '--pool', 'e', '--format', 'trec-run', '--json', path.join(cli.dir, 'out.run'));
    expect(r.code, r.err).toBe(1);
    expect(r.err).toBe('qpairs export: nothing to export: no run of pool e scores any of its candidates; nothing was written\n');
    expect(written()).toEqual([]);
  });
});
