import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from './test-cli';
import { Workspace } from '../workspace/workspace';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-blind-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

describe('qpairs pool create --blind / pool set --blind', () => {
  it('pools are blind by default; the owner switches them and the history keeps each change', async () => {
    const w = path.join(dir, 'w.qpairs');
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, ['a', 'b', 'c', 'd'].map((id) => JSON.stringify({ id, title: `wifi drops ${id}`, body: 'after suspend on ubuntu' })).join('\n') + '\n');
    expect((await run('init', w)).code).toBe(0);
    expect((await run('import', w, '--format', 'questions-jsonl', file)).code).toBe(0);
    expect((await run('pool', 'create', w, '--name', 'p', '--sample', '2', '--seed', '1', '--depth', '2')).code).toBe(0);
    expect((await run('pool', 'create', w, '--name', 'o', '--sample', '2', '--seed', '1', '--depth', '2', '--blind', 'false')).code).toBe(0);
    const listed = JSON.parse((await run('pool', 'list', w, '--json')).out) as Array<{ name: string; blind: boolean }>;
    expect(listed.map((p) => [p.name, p.blind])).toEqual([
      ['p', true],
      ['o', false],
    ]);
    // The text table says what the JSON says: blind, labeling order (with its seed) and convention.
    // With only the retriever's run (bm25), uncertainty sees every query alike: it says it draws at random.
    const set = await run('pool', 'set', w, '--pool', 'o', '--order', 'uncertainty', '--order-seed', '7');
    expect(set.code).toBe(0);
    expect(set.out).toContain('drawn uniformly at random for now: the pool has one run, so the relevance model knows a candidate only by its position and cannot tell queries apart');
    let text = (await run('pool', 'list', w)).out.split('\n');
    expect(text[0]).toMatch(/^pool +scheme +queries +pairs +blind +order +convention +retriever$/);
    expect(text[2]).toMatch(/^p +binary +2 +\d+ +yes +pool +zero +bm25/);
    expect(text[3]).toMatch(/^o +binary +2 +\d+ +no +uncertainty \(seed 7, at random for now\) +zero +bm25/);
    // A second run (say a model's) makes the order adaptive: the list no longer says so.
    {
      const ws = Workspace.open(w);
      ws.replaceRun('o', 'other', 'external', {}, ws.poolQueries('o').flatMap((q) => q.candidates.map((c, i) => [q.queryId, c, -i] as const)));
      ws.close();
    }
    text = (await run('pool', 'list', w)).out.split('\n');
    expect(text[3]).toMatch(/^o +binary +2 +\d+ +no +uncertainty \(seed 7\) +zero +bm25/);
    const adaptive = await run('pool', 'set', w, '--pool', 'o', '--order', 'uncertainty');
    expect(adaptive.out).not.toContain('uniformly at random');
    const off = await run('pool', 'set', w, '--pool', 'p', '--blind', 'false');
    expect(off.code).toBe(0);
    expect(off.out).toMatch(/pool p is now open/);
    expect((await run('pool', 'set', w, '--pool', 'p', '--blind', 'maybe')).code).toBe(2);
    expect((await run('pool', 'set', w, '--pool', 'nope', '--blind', 'true')).code).toBe(1);
    const ws = Workspace.open(w);
    expect(ws.poolBlindHistory('p').map((h) => h.blind)).toEqual([true, false]);
    expect(ws.poolBlindHistory('o').map((h) => h.blind)).toEqual([false]);
    ws.close();
  });
});

describe('qpairs pool set|create --order pool --order-seed S', () => {
  it('says the seed does not apply to the pool order and is kept for a drawing order (it printed "pool order (seed 7)" as though it applied)', async () => {
    const w = path.join(dir, 'w.qpairs');
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, ['a', 'b', 'c', 'd'].map((id) => JSON.stringify({ id, title: `wifi drops ${id}`, body: 'after suspend on ubuntu' })).join('\n') + '\n');
    expect((await run('init', w)).code).toBe(0);
    expect((await run('import', w, '--format', 'questions-jsonl', file)).code).toBe(0);
    const created = await run('pool', 'create', w, '--name', 'p', '--sample', '2', '--seed', '1', '--depth', '2', '--order-seed', '5');
    expect(created.code, created.err).toBe(0);
    expect(created.out).toContain('note: the pool order draws nothing, so --order-seed 5 does not apply to it; it is kept for a drawing order (random, uncertainty, decide-rankers, decide-rankers-mtc) set later');
    const set = await run('pool', 'set', w, '--pool', 'p', '--order', 'pool', '--order-seed', '7');
    expect(set.code, set.err).toBe(0);
    expect(set.out).not.toContain('seed 7)');
    expect(set.out).toContain("pool p labels in pool order: the pool's own order (as imported or retrieved)\n  note: the pool order draws nothing, so seed 7 does not apply to it; it is kept for a drawing order");
    // As the pool list says: pool order without a seed; the seed shows once a drawing order is set.
    expect((await run('pool', 'list', w)).out.split('\n')[2]).toMatch(/^p +binary +2 +\d+ +yes +pool +zero/);
    const random = await run('pool', 'set', w, '--pool', 'p', '--order', 'random');
    expect(random.out).toContain('pool p labels in random order (seed 7)');
    expect(random.out).not.toContain('note:');
    // A seed given without an order to a pool in pool order gets the note too; no seed, no note.
    expect((await run('pool', 'set', w, '--pool', 'p', '--order', 'pool')).out).toBe("pool p labels in pool order: the pool's own order (as imported or retrieved)\n");
    expect((await run('pool', 'set', w, '--pool', 'p', '--order-seed', '9')).out).toContain('seed 9 does not apply to it');
  });
});
