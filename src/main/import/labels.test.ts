import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool, runImport } from '../engine/work';
import { writeExport } from '../export';
import { sourceLabels } from '../gold/state';
import type { Workspace } from '../workspace/workspace';
import { cleanupTemp, tempDir, tempWorkspace } from './test-helpers';

afterEach(cleanupTemp);

/** Questions with text (one body with a tab, a line break and quotes), a BM25 pool, gold labels. */
async function labeledWorkspace(dir: string): Promise<Workspace> {
  const ws = tempWorkspace();
  const file = path.join(dir, 'q.jsonl');
  const rows = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) =>
    JSON.stringify({ id, title: `wifi ${id} drops`, body: i === 0 ? 'after suspend,\n"quoted"\tand tabbed' : `network ${i % 2 ? 'driver' : 'card'} ubuntu ${id}` }),
  );
  writeFileSync(file, rows.join('\n') + '\n');
  await runImport(ws, 'questions-jsonl', [file]);
  await createPool(ws, { name: 'p', queries: ['a', 'b'], depth: 3, scheme: 'binary' });
  let k = 0;
  for (const q of ws.poolQueries('p')) {
    for (const c of q.candidates) ws.addLabel({ pool: 'p', queryId: q.queryId, candidateId: c, annotator: 'gold', value: k++ % 2 ? '1' : '0', origin: 't' });
  }
  return ws;
}

/** Every question of the pool (queries and candidates) with its title and body. */
function poolTexts(ws: Workspace): Array<[string, string, string]> {
  const ids = [...new Set(ws.poolQueries('p').flatMap((q) => [q.queryId, ...q.candidates]))].sort();
  const qs = ws.getQuestions(ids);
  return ids.map((id) => [id, qs.get(id)?.title ?? '(missing)', qs.get(id)?.body ?? '(missing)']);
}

function labels(ws: Workspace): Array<[string, string, string | undefined]> {
  const src = sourceLabels(ws, 'p', 'gold');
  return ws.poolQueries('p').flatMap((q) => q.candidates.map((c): [string, string, string | undefined] => [q.queryId, c, src.values.get(q.queryId)?.get(c)]));
}

describe('re-importing a gold export restores the questions (issue 13)', () => {
  for (const [format, importAs] of [
    ['jsonl', 'labels-jsonl'],
    ['csv', 'labels-csv'],
  ] as const) {
    it(`${format}: export with text → fresh workspace → import → same questions, pairs and labels`, async () => {
      const dir = tempDir();
      const ws = await labeledWorkspace(dir);
      const out = path.join(dir, `p.${format}`);
      writeExport(ws, 'p', format, out);
      const back = tempWorkspace();
      expect(back.getQuestion('a')).toBeNull();
      const report = await runImport(back, importAs, [out], { pool: 'p', scheme: 'binary' });
      expect(back.poolQueries('p')).toEqual(ws.poolQueries('p'));
      expect(poolTexts(back)).toEqual(poolTexts(ws));
      expect(poolTexts(back).some(([, , body]) => body.includes('\t'))).toBe(true);
      expect(labels(back)).toEqual(labels(ws));
      expect(report.counts.questionsInserted).toBe(poolTexts(ws).length);
      expect(report.counts.questionTextsKept).toBeUndefined();
      // The export carries each question's source, which the import restores.
      expect(back.getQuestion('a')?.source).toBe(ws.getQuestion('a')?.source);
      expect(back.getQuestion('a')?.source).not.toBe('p');
    });
  }

  it('an export without the source columns (made before they existed) restores its questions under --source, else the file\'s base name', async () => {
    const dir = tempDir();
    const ws = await labeledWorkspace(dir);
    const out = path.join(dir, 'p.jsonl');
    writeExport(ws, 'p', 'jsonl', out);
    const older = path.join(dir, 'older.jsonl');
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.every((r) => 'query_source' in r && 'candidate_source' in r)).toBe(true);
    writeFileSync(older, lines.map(({ query_source: _q, candidate_source: _c, ...rest }) => JSON.stringify(rest)).join('\n') + '\n');
    const byName = tempWorkspace();
    await runImport(byName, 'labels-jsonl', [older], { pool: 'p', scheme: 'binary' });
    expect(byName.getQuestion('a')?.source).toBe('older');
    const bySource = tempWorkspace();
    await runImport(bySource, 'labels-jsonl', [older], { pool: 'p', scheme: 'binary', source: 'forum' });
    expect(bySource.getQuestion('a')?.source).toBe('forum');
  });

  it('keeps a question the workspace holds with another text, counts and warns; ids-only exports insert nothing', async () => {
    const dir = tempDir();
    const ws = await labeledWorkspace(dir);
    const out = path.join(dir, 'p.jsonl');
    writeExport(ws, 'p', 'jsonl', out);
    const back = tempWorkspace();
    const qfile = path.join(dir, 'mine.jsonl');
    writeFileSync(qfile, JSON.stringify({ id: 'a', title: 'my own title', body: 'my own body' }) + '\n');
    await runImport(back, 'questions-jsonl', [qfile]);
    const report = await runImport(back, 'labels-jsonl', [out], { pool: 'p', scheme: 'binary' });
    expect(back.getQuestion('a')).toMatchObject({ title: 'my own title', body: 'my own body' });
    expect(report.counts.questionTextsKept).toBe(1);
    expect(report.warnings.join('\n')).toMatch(/1 questions have another text in the workspace than in the file \(e\.g\. a on line 1\)/);
    expect(report.counts.questionsInserted).toBe(poolTexts(ws).length - 1);
    expect(labels(back)).toEqual(labels(ws));

    // A re-import of the same file changes nothing more.
    const again = await runImport(back, 'labels-jsonl', [out], { pool: 'p', scheme: 'binary' });
    expect(again.counts.questionsInserted).toBeUndefined();
    expect(again.changedDocs).toEqual([]);

    const ids = path.join(dir, 'ids.jsonl');
    writeExport(ws, 'p', 'jsonl', ids, { text: false });
    expect(readFileSync(ids, 'utf8')).not.toContain('query_title');
    const bare = tempWorkspace();
    const r = await runImport(bare, 'labels-jsonl', [ids], { pool: 'p', scheme: 'binary' });
    expect(r.counts.questionsInserted).toBeUndefined();
    expect(bare.getQuestion('a')).toBeNull();
    expect(labels(bare)).toEqual(labels(ws));
  });
});

describe('labels-csv annotator column', () => {
  it('an empty annotator cell is an error naming the line (as labels-jsonl); without the column labels go to --annotator, else gold', async () => {
    const dir = tempDir();
    const ws = await labeledWorkspace(dir);
    const [q, c] = [ws.poolQueries('p')[0]!.queryId, ws.poolQueries('p')[0]!.candidates[0]!];
    const before = labels(ws);
    const empty = path.join(dir, 'empty.csv');
    writeFileSync(empty, `query_id,candidate_id,annotator,label\n${q},${c},alice,1\n${q},${c}, ,1\n`);
    await expect(runImport(ws, 'labels-csv', [empty], { pool: 'p' })).rejects.toThrow(/empty\.csv, line 3: missing annotator/);
    // Nothing was written: not alice's row either, and gold is as it was.
    expect(labels(ws)).toEqual(before);
    expect(sourceLabels(ws, 'p', 'alice').values.size).toBe(0);
    const noColumn = path.join(dir, 'none.csv');
    writeFileSync(noColumn, `query_id,candidate_id,label\n${q},${c},1\n`);
    await runImport(ws, 'labels-csv', [noColumn], { pool: 'p', annotator: 'bob' });
    expect(sourceLabels(ws, 'p', 'bob').values.get(q)?.get(c)).toBe('1');
  });
});

describe('a gold export of a graded pool read back without --scheme', () => {
  it('a SemEval export comes back semeval3; other graded labels are refused naming the --scheme that imports them', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'gold.jsonl');
    // As a SemEval pool's gold export writes its rows.
    writeFileSync(
      file,
      [
        { query_id: 'Q1', candidate_id: 'Q1_R1', annotator: 'gold', label: 'PerfectMatch', query_title: 'q', candidate_title: 'a' },
        { query_id: 'Q1', candidate_id: 'Q1_R2', annotator: 'gold', label: 'Irrelevant', query_title: 'q', candidate_title: 'b' },
      ]
        .map((o) => JSON.stringify(o))
        .join('\n') + '\n',
    );
    const ws = tempWorkspace();
    const report = await runImport(ws, 'labels-jsonl', [file], { pool: 'dev' });
    expect(report.counts.labels).toBe(2);
    expect(ws.pool('dev').scheme).toBe('semeval3');
    // A Likert export's labels fit no default: refused, naming the schemes they fit.
    const likert = path.join(dir, 'likert.jsonl');
    writeFileSync(likert, JSON.stringify({ query_id: 'Q1', candidate_id: 'Q1_R1', annotator: 'gold', label: '-2' }) + '\n');
    await expect(runImport(ws, 'labels-jsonl', [likert], { pool: 'lk' })).rejects.toThrow(
      /invalid label "-2" for the binary scheme of pool "lk" \(expected 1, 0, or \?\); pool "lk" is new and got the default binary scheme: give the scheme of the labels \(--scheme likert5 or graded;/,
    );
    expect(ws.findPool('lk')).toBeFalsy(); // nothing was written
    expect((await runImport(ws, 'labels-jsonl', [likert], { pool: 'lk', scheme: 'likert5' })).counts.labels).toBe(1);
  });
});

describe('a semeval3 export holding only Relevant and Irrelevant', () => {
  for (const [format, importAs] of [
    ['jsonl', 'labels-jsonl'],
    ['csv', 'labels-csv'],
  ] as const) {
    it(`${format}: re-imports without --scheme as semeval3, labels as they were (not binary 1 and 0)`, async () => {
      const dir = tempDir();
      const ws = await labeledWorkspace(dir);
      await createPool(ws, { name: 'sem', queries: ['a', 'b'], depth: 3, scheme: 'semeval3' });
      let k = 0;
      for (const q of ws.poolQueries('sem')) {
        for (const c of q.candidates) if (k++ > 0) ws.addLabel({ pool: 'sem', queryId: q.queryId, candidateId: c, annotator: 'gold', value: k % 2 ? 'Relevant' : 'Irrelevant', origin: 't' });
      }
      const out = path.join(dir, `sem.${format}`);
      writeExport(ws, 'sem', format, out);
      // The first row is the pair nobody labeled ("?"): the first label after it decides.
      expect(readFileSync(out, 'utf8')).toMatch(/unlabeled/);
      const back = tempWorkspace();
      const report = await runImport(back, importAs, [out], { pool: 'sem' });
      expect(back.pool('sem').scheme).toBe('semeval3');
      expect(report.warnings.join('\n')).toMatch(new RegExp(`pool "sem" got the semeval3 scheme from its first label "(Relevant|Irrelevant)" \\(sem\\.${format} line \\d+, .*--scheme binary to keep it binary`));
      const gold = (w: Workspace): unknown => [...sourceLabels(w, 'sem', 'gold').values].map(([q, m]) => [q, [...m]]);
      expect(gold(back)).toEqual(gold(ws));
      // A second import into the same pool keeps it; a binary file with words still goes binary.
      const words = path.join(dir, 'words.csv');
      writeFileSync(words, 'query_id,candidate_id,label\na,b,relevant\na,c,Irrelevant\n');
      await runImport(back, 'labels-csv', [words], { pool: 'bin' });
      expect(back.pool('bin').scheme).toBe('binary');
    });
  }
});
