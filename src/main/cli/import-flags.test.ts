/** `qpairs import … --update / --strict`, and the warnings of an import in the CLI output. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { runCli } from './test-cli';

let dir: string;
let w: string;
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-import-'));
  w = path.join(dir, 'w.qpairs');
  expect((await run('init', w)).code).toBe(0);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

function file(name: string, text: string): string {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
}

describe('qpairs import', () => {
  it('--pool, --annotator or --scheme with a format that imports questions only is a usage error (it was ignored: no pool, no word)', async () => {
    const q = file('q.jsonl', '{"id":"q1","title":"a","body":"b"}\n');
    const r = await run('import', w, '--format', 'questions-jsonl', q, '--pool', 'dev', '--annotator', 'alice');
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toBe(
      'qpairs import: --pool, --annotator are not used by questions-jsonl, which imports questions, no pool or labels ' +
        '(a pool of these questions: qpairs pool create W --name P --queries FILE; labels: --format labels-csv, labels-jsonl or qrels)',
    );
    const ws = Workspace.open(w);
    expect(ws.listImports()).toHaveLength(0);
    ws.close();
    expect((await run('import', w, '--format', 'questions-jsonl', q)).code).toBe(0);
  });

  it('a format that imports into a pool, given no --pool, is a usage error naming what --pool is for (it was exit 1 after opening the workspace)', async () => {
    const labels = file('l.csv', 'query_id,candidate_id,label\nq1,c1,1\n');
    for (const format of ['labels-csv', 'labels-jsonl', 'qrels', 'semeval-relevancy']) {
      const r = await run('import', w, '--format', format, labels);
      expect(r.code, format).toBe(2);
      expect(r.err.split('\n')[0]).toBe(`qpairs import: --format ${format} needs --pool P: the pool the labels go into (a name the workspace lacks makes a new pool from the file's pairs)`);
    }
    const r = await run('import', w, '--format', 'trec-run', file('r.txt', 'q1 Q0 c1 1 2 bm25\n'));
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toBe('qpairs import: --format trec-run needs --pool P: the existing pool whose candidates the run scores');
    const ws = Workspace.open(w);
    expect(ws.listImports()).toHaveLength(0);
    ws.close();
  });

  it('a run into a pool that does not exist (a typo) is an error naming the pools: exit 1, nothing written', async () => {
    const labels = file('l.csv', 'query_id,candidate_id,annotator,label\nq1,c1,gold,1\nq1,c2,gold,0\n');
    expect((await run('import', w, '--format', 'labels-csv', '--pool', 'dev', labels)).code).toBe(0);
    const runFile = file('r.txt', 'q1 Q0 c1 1 2 bm25\nq1 Q0 c2 2 1 bm25\n');
    const r = await run('import', w, '--format', 'trec-run', runFile, '--pool', 'nosuch');
    expect(r.code).toBe(1);
    expect(r.err).toBe('qpairs import: no pool named "nosuch" (pools: dev); a run goes into an existing pool — create it first (qpairs pool create, or import its labels: labels-csv, labels-jsonl, qrels)\n');
    expect(r.out).not.toContain('poolsCreated');
    const ws = Workspace.open(w);
    expect(ws.listPools().map((p) => p.name)).toEqual(['dev']);
    expect(ws.listImports()).toHaveLength(1);
    ws.close();
    // Into the pool it names: the run is imported.
    const ok = await run('import', w, '--format', 'trec-run', runFile, '--pool', 'dev');
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toContain('runs: 1');
  });

  it('refuses another source\'s question id, and replaces it with --update', async () => {
    const se = path.join(dir, 'se');
    mkdirSync(se);
    writeFileSync(path.join(se, 'Posts.xml'), '<posts>\n<row Id="1" PostTypeId="1" Title="SE one" Body="x"/>\n</posts>\n');
    writeFileSync(path.join(se, 'PostLinks.xml'), '<postlinks>\n</postlinks>\n');
    expect((await run('import', w, '--format', 'stackexchange', se)).code).toBe(0);
    const au = file('text_tokenized.txt', '1\tau one\tbody\n');
    const r = await run('import', w, '--format', 'askubuntu-corpus', au);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`^qpairs import: ${au.replace(/[.]/g, '\\.')}, line 1: question id "1" is already in the workspace from source "stackexchange" \\(imported .* by a stackexchange import of Posts\\.xml, PostLinks\\.xml\\), and this question is from source "askubuntu"`));
    expect(r.err).toContain('Import with --update to replace it on purpose.');
    const u = await run('import', w, '--format', 'askubuntu-corpus', au, '--update');
    expect(u.code, u.err).toBe(0);
    expect(u.out).toContain('questionsReplaced: 1');
    const ws = Workspace.open(w);
    expect(ws.getQuestion('1')).toMatchObject({ source: 'askubuntu', title: 'au one' });
    ws.close();
  });

  it('prints warnings with counts; --strict makes questionable input an error and imports nothing', async () => {
    const q = file('q.qrels', 'q1 0 d1 1\nq2 0 d1 0\n');
    const strict = await run('import', w, '--format', 'qrels', '--pool', 'p', q, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.err).toBe(`qpairs import: ${q}, line 1: query "q1" is unknown: neither a query of pool "p" nor a question in the workspace (--strict)\n`);
    const s0 = JSON.parse((await run('stats', w, '--json')).out);
    expect(s0).toMatchObject({ pools: 0, labels: 0 });
    const r = await run('import', w, '--format', 'qrels', '--pool', 'p', q);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`  warning: ${q}: 2 of 2 query ids are unknown — neither queries of pool "p" nor questions in the workspace (e.g. "q1" on line 1); their labels were imported (--strict makes this an error)`);
    const j = await run('import', w, '--format', 'qrels', '--pool', 'p2', q, '--json');
    expect(JSON.parse(j.out).warnings).toEqual([expect.stringMatching(/2 of 2 query ids are unknown/)]);
  });

  it('--json prints the report without the internal list of BM25 doc numbers (it held one number per imported question)', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `title ${i}`, body: `body ${i}` })).join('\n');
    const j = await run('import', w, '--format', 'questions-jsonl', file('q.jsonl', lines + '\n'), '--json');
    expect(j.code, j.err).toBe(0);
    const report = JSON.parse(j.out);
    expect(Object.keys(report).sort()).toEqual(['counts', 'files', 'format', 'skipped', 'warnings']);
    expect(report.counts).toMatchObject({ questionsInserted: 50 });
    expect(j.out.split('\n').length).toBeLessThan(20);
  });

  it('an import that changed nothing says so in its text output (only --json showed "unchanged")', async () => {
    const q = file('q.jsonl', '{"id":"q1","title":"a","body":"b"}\n{"id":"q2","title":"c","body":"d"}\n');
    const first = await run('import', w, '--format', 'questions-jsonl', q);
    expect(first.code, first.err).toBe(0);
    expect(first.out).not.toContain('nothing changed');
    const again = await run('import', w, '--format', 'questions-jsonl', q);
    expect(again.code, again.err).toBe(0);
    expect(again.out.split('\n').slice(0, 3)).toEqual([`imported ${q} (questions-jsonl)`, '  nothing changed: the workspace already holds this file as it is', '  questionsUnchanged: 2']);
    const twice = await run('import', w, '--format', 'questions-jsonl', q, q);
    expect(twice.out).toContain('  nothing changed: the workspace already holds these files as they are\n');
    expect(JSON.parse((await run('import', w, '--format', 'questions-jsonl', q, '--json')).out).unchanged).toBe(true);
  });

  it('a malformed AskUbuntu pool line (19 candidates where the others have 20) fails with file and line', async () => {
    const line = (q: number, n: number): string =>
      `${q}\t${q * 100}\t${Array.from({ length: n }, (_, i) => q * 100 + i).join(' ')}\t${Array.from({ length: n }, (_, i) => 30 - i).join(' ')}`;
    const f = file('dev.txt', [line(1, 20), line(2, 20), line(3, 19)].join('\n') + '\n');
    const r = await run('import', w, '--format', 'askubuntu-pool', f);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`qpairs import: ${f}, line 3: 19 candidates, but line 1 has 20: every line of the file must list the same number of BM25 candidates\n`);
    expect(JSON.parse((await run('stats', w, '--json')).out)).toMatchObject({ pools: 0, labels: 0, runs: 0 });
  });
});
