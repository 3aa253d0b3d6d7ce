/**
 * `qpairs import undo W [--json]`: undoes the last finished import, says what it kept and skipped,
 * and refuses when there is nothing to undo (also a second undo of the same import).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, runCliOk } from './test-cli';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-undo-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function jsonl(name: string, n: number, prefix: string): string {
  const f = path.join(dir, name);
  writeFileSync(f, Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${prefix}${i}`, title: `title ${prefix} ${i}`, body: `body ${i}` })).join('\n') + '\n');
  return f;
}

const questionsIn = async (w: string): Promise<number> => JSON.parse(await runCliOk('stats', w, '--json')).questions as number;

describe('qpairs import undo', () => {
  it('undoes the last import, prints what it did, and has nothing to undo after', async () => {
    const w = path.join(dir, 'w.qpairs');
    await runCliOk('init', w);
    await runCliOk('import', w, '--format', 'questions-jsonl', jsonl('right.jsonl', 10, 'r'));
    await runCliOk('import', w, '--format', 'questions-jsonl', jsonl('wrong.jsonl', 500, 'w'));
    expect(await questionsIn(w)).toBe(510);
    const out = await runCliOk('import', 'undo', w);
    expect(out).toMatch(/^undid the questions-jsonl import of wrong\.jsonl started \S+: took out 500 questions \([\d,]+ journal entries replayed\)$/m);
    expect(await questionsIn(w)).toBe(10);
    const again = await runCli('import', 'undo', w, '--json');
    expect(again.code).not.toBe(0);
    expect(again.err).toContain('there is no import to undo');
  });

  it('is a subcommand of import: its errors and --help name it', async () => {
    const r = await runCli('import', 'undo');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^qpairs import undo: missing workspace path W/);
    expect(await runCliOk('import', 'undo', '--help')).toMatch(/^usage:\n {2}qpairs import undo W \[--json\]/);
  });

  it('--json gives the report: what was kept and skipped, by table', async () => {
    const w = path.join(dir, 'w.qpairs');
    await runCliOk('init', w);
    await runCliOk('import', w, '--format', 'questions-jsonl', jsonl('one.jsonl', 20, 'o'));
    const r = JSON.parse(await runCliOk('import', 'undo', w, '--json')) as Record<string, unknown>;
    expect(r).toMatchObject({ what: 'questions-jsonl import of one.jsonl', kept: 0, keptBy: {}, skipped: 0, skippedBy: {}, failed: 0, rowsChanged: { questions: -20 } });
    // In words: the rows taken out, not only the journal's entries (which counted 7 for 2 questions).
    await runCliOk('import', w, '--format', 'questions-jsonl', jsonl('two.jsonl', 2, 't'));
    expect(await runCliOk('import', 'undo', w)).toMatch(/^undid the questions-jsonl import of two\.jsonl started \S+: took out 2 questions \(\d+ journal entr(y|ies) replayed\)$/m);
    expect(await questionsIn(w)).toBe(0);
  });
});
