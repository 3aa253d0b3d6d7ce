import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { labelGrade } from '../../shared/labels';
import { evaluatePool } from '../engine/evaluate';
import { createPool, runImport } from '../engine/work';
import { sourceLabels } from '../gold/state';
import { Workspace } from '../workspace/workspace';
import { writeExport } from '.';

let dir: string;
const open: Workspace[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-export-text-'));
});
afterEach(() => {
  for (const w of open.splice(0)) w.close();
  rmSync(dir, { recursive: true, force: true });
});
const fresh = (name: string): Workspace => {
  const w = Workspace.create(path.join(dir, `${name}.qpairs`));
  open.push(w);
  return w;
};

function grades(ws: Workspace, pool: string, source: string): Array<[string, string, number | null]> {
  const src = sourceLabels(ws, pool, source);
  return ws.poolQueries(pool).flatMap((q) => q.candidates.map((c): [string, string, number | null] => [q.queryId, c, labelGrade(src.values.get(q.queryId)?.get(c))]));
}
function metrics(ws: Workspace, pool: string, annotator: string): unknown {
  return (['skip', 'zero'] as const).map((convention) => evaluatePool(ws, { pool, annotator, convention, ties: 'pool-order', threshold: 1 }).runs);
}

/** Questions with text (one with a tab and line breaks, CRLF and LF, in its body), a BM25 pool, gold labels (one "?"). */
async function labeledWorkspace(): Promise<Workspace> {
  const ws = fresh('src');
  const file = path.join(dir, 'q.jsonl');
  const rows = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) =>
    JSON.stringify({ id, title: `wifi ${id} drops`, body: i === 1 ? 'after suspend,\r\n"quoted"\tand tabbed\nend' : `network ${i % 2 ? 'driver' : 'card'} ubuntu` }),
  );
  writeFileSync(file, rows.join('\n') + '\n');
  await runImport(ws, 'questions-jsonl', [file]);
  await createPool(ws, { name: 'p', queries: ['a', 'b'], depth: 3, scheme: 'binary' });
  let k = 0;
  for (const q of ws.poolQueries('p')) {
    for (const c of q.candidates) ws.addLabel({ pool: 'p', queryId: q.queryId, candidateId: c, annotator: 'gold', value: k++ === 4 ? '?' : k % 2 ? '1' : '0', origin: 't' });
  }
  return ws;
}

describe('gold sets that stand alone (issue 13)', () => {
  it('jsonl and csv carry query and candidate title + body; export with text → re-import → same labels and metrics', async () => {
    const ws = await labeledWorkspace();
    const want = { labels: grades(ws, 'p', 'gold'), metrics: metrics(ws, 'p', 'gold') };
    writeExport(ws, 'p', 'trec-run', path.join(dir, 'p.run'));
    for (const [format, importAs] of [
      ['jsonl', 'labels-jsonl'],
      ['csv', 'labels-csv'],
    ] as const) {
      const out = path.join(dir, `p.${format}`);
      writeExport(ws, 'p', format, out);
      const back = fresh(`back-${format}`);
      await runImport(back, importAs, [out], { pool: 'p', scheme: 'binary' });
      await runImport(back, 'trec-run', [path.join(dir, 'p.run')], { pool: 'p' });
      expect(back.poolQueries('p')).toEqual(ws.poolQueries('p'));
      expect({ labels: grades(back, 'p', 'gold'), metrics: metrics(back, 'p', 'gold') }, format).toEqual(want);
      // The texts come back as they were, line breaks included (a CSV field's CRLF was read back as LF).
      const ids = [...new Set(ws.poolQueries('p').flatMap((x) => [x.queryId, ...x.candidates]))];
      expect(ids).toContain('b');
      const texts = (w: Workspace): unknown => [...w.getQuestions(ids).values()].map((x) => [x.id, x.title, x.body]);
      expect(texts(back), format).toEqual(texts(ws));
    }
    const first = JSON.parse(readFileSync(path.join(dir, 'p.jsonl'), 'utf8').split('\n')[0]!);
    const q = ws.getQuestions(['a', first.candidate_id]);
    expect(first).toMatchObject({ query_id: 'a', query_title: q.get('a')!.title, query_body: q.get('a')!.body, candidate_title: q.get(first.candidate_id)!.title });
    const csv = readFileSync(path.join(dir, 'p.csv'), 'utf8');
    expect(csv.split('\n')[0]).toMatch(/,query_title,query_body,candidate_title,candidate_body,query_source,candidate_source$/);
    expect(csv).toContain('"after suspend,\r\n""quoted""\tand tabbed\nend"');
    // The annotator's "?" is its own status.
    expect(readFileSync(path.join(dir, 'p.jsonl'), 'utf8')).toMatch(/"label":"\?","grade":null,"relevant":null,"status":"unsure"/);
    // --no-text: ids only. gold's "?" is its label, not a missing one (the note said "no label from gold").
    const ids = writeExport(ws, 'p', 'jsonl', path.join(dir, 'ids.jsonl'), { text: false });
    expect(ids.warnings).toContain('1 pair has no decisive label from gold (a "?" label) and is written with label "?" (unjudged)');
    expect(readFileSync(path.join(dir, 'ids.jsonl'), 'utf8')).not.toContain('query_title');
    const sheet = readFileSync(path.join(dir, 'ids.jsonl.datasheet.md'), 'utf8');
    expect(sheet).toMatch(/Question text: not included \(exported with text off\)/);
    expect(sheet).toMatch(/\| with a "\?" \(unsure\) label or vote \| 1 \|/);
    // A format without text columns was not "exported with text off": it has none.
    writeExport(ws, 'p', 'qrels', path.join(dir, 'p.qrels'));
    expect(readFileSync(path.join(dir, 'p.qrels.datasheet.md'), 'utf8')).toMatch(/Question text: not included: the qrels format holds ids only/);
  });

  it('askubuntu writes its corpus file beside the pool file and says what became of "?" pairs', async () => {
    const ws = await labeledWorkspace();
    const out = path.join(dir, 'dev.txt');
    const b = writeExport(ws, 'p', 'askubuntu', out);
    expect(b.files.map((f) => path.basename(f.name))).toEqual(['dev.txt', 'dev.corpus.txt']);
    const corpus = readFileSync(path.join(dir, 'dev.corpus.txt'), 'utf8').split('\n').filter(Boolean);
    const ids = new Set(ws.poolQueries('p').flatMap((q) => [q.queryId, ...q.candidates]));
    expect(corpus.map((l) => l.split('\t')[0]).sort()).toEqual([...ids].sort());
    expect(corpus.every((l) => l.split('\t').length === 3)).toBe(true);
    expect(corpus.find((l) => l.startsWith('b\t'))).toBe('b\twifi b drops\tafter suspend, "quoted" and tabbed end');
    expect(b.warnings.join('\n')).toMatch(/1 candidate without a decisive label from gold .* is written as not similar/);
    const sheet = readFileSync(`${out}.datasheet.md`, 'utf8');
    expect(sheet).toMatch(/\| written as not similar \(askubuntu\) \| 1 \|/);
    expect(sheet).toMatch(/In this askubuntu export: the askubuntu format has no "unknown"/);
    // the corpus re-imports as askubuntu-corpus
    const back = fresh('au-back');
    await runImport(back, 'askubuntu-corpus', [path.join(dir, 'dev.corpus.txt')]);
    expect(back.getQuestions(['a']).get('a')!.title).toBe('wifi a drops');
    expect(writeExport(ws, 'p', 'askubuntu', path.join(dir, 'bare.txt'), { text: false }).files).toHaveLength(1);
  });

  it('hf-dataset: a folder with data/pairs.jsonl and a README dataset card (YAML front matter + datasheet) that re-imports', async () => {
    const ws = await labeledWorkspace();
    const out = path.join(dir, 'hf');
    const b = writeExport(ws, 'p', 'hf-dataset', out);
    expect([...b.files, b.datasheet].map((f) => path.relative(out, f.name)).sort()).toEqual(['README.md', path.join('data', 'pairs.jsonl')]);
    const card = readFileSync(path.join(out, 'README.md'), 'utf8');
    expect(card.startsWith('---\npretty_name: "QPairs pool p"\n')).toBe(true);
    expect(card).toMatch(/configs:\n- config_name: default\n {2}data_files:\n {2}- split: test\n {4}path: data\/pairs\.jsonl/);
    expect(card).toMatch(/num_examples: 6\n---\n/);
    expect(card).toMatch(/# Datasheet: pool "p" \(hf-dataset export\)/);
    expect(existsSync(`${out}.datasheet.md`)).toBe(false);
    const back = fresh('hf-back');
    await runImport(back, 'labels-jsonl', [path.join(out, 'data', 'pairs.jsonl')], { pool: 'p', scheme: 'binary' });
    expect(grades(back, 'p', 'gold')).toEqual(grades(ws, 'p', 'gold'));
    writeFileSync(path.join(dir, 'afile'), 'x');
    expect(() => writeExport(ws, 'p', 'hf-dataset', path.join(dir, 'afile'))).toThrow(/is a file/);
  });

  it('the datasheet says so when the workspace holds the pool\'s questions as ids only (an AskUbuntu pool without its corpus)', async () => {
    const ws = fresh('ids');
    const qrels = path.join(dir, 'ids.qrels');
    writeFileSync(qrels, ['101 0 201 1', '101 0 202 0', '102 0 203 0', '102 0 204 1'].join('\n') + '\n');
    await runImport(ws, 'qrels', [qrels], { pool: 'p', scheme: 'binary' });
    const sheet = (f: string): string => readFileSync(f, 'utf8');
    writeExport(ws, 'p', 'jsonl', path.join(dir, 'none.jsonl'));
    const none = sheet(path.join(dir, 'none.jsonl.datasheet.md'));
    expect(none).not.toMatch(/can be used without the workspace/);
    expect(none).toMatch(/Question text: none — the workspace holds the pool's 6 questions as ids only/);
    // Text for two of the six: the datasheet counts the four without.
    const q = path.join(dir, 'some.jsonl');
    writeFileSync(q, [JSON.stringify({ id: '101', title: 'wifi', body: 'drops' }), JSON.stringify({ id: '201', title: 'wlan', body: 'drops too' })].join('\n') + '\n');
    await runImport(ws, 'questions-jsonl', [q]);
    writeExport(ws, 'p', 'csv', path.join(dir, 'some.csv'));
    const some = sheet(path.join(dir, 'some.csv.datasheet.md'));
    expect(some).not.toMatch(/can be used without the workspace/);
    expect(some).toMatch(/4 of the pool's 6 questions are ids only/);
  });
});
