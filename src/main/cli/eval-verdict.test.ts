/**
 * `qpairs eval`'s verdict line ("decided: … / not decided: …") is about the table above it: the same
 * queries, labels, threshold and convention. QA saw "decided: fu1 is best" under a table of 0.00s
 * (--threshold 5), a leader and query count from the fully labeled queries under --partial, and
 * "over the 3 labeled queries" where --convention skip counted 2.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliOk } from './test-cli';
import { writeLines } from './test-topic-pools';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-verdict-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ok = runCliOk;

const verdict = (out: string): string => out.split('\n').find((l) => /^(not )?decided: /.test(l)) ?? `no verdict in:\n${out}`;

/**
 * Ten queries × 4 candidates. Gold: q0–q7 c0 relevant, q8 nothing relevant (both fully labeled), q9
 * only c3 labeled (relevant). Run A ranks c0 first, B second, C last (C ranks c3 first).
 */
async function workspace(): Promise<string> {
  const w = path.join(dir, 'W.qpairs');
  const Q = 10;
  const cands = (q: number) => [0, 1, 2, 3].map((k) => `q${q}c${k}`);
  const questions: string[] = [];
  const pairs = ['query_id,candidate_id,annotator,label'];
  const gold = ['query_id,candidate_id,annotator,label'];
  const runs: string[] = [];
  const orders: Record<string, number[]> = { A: [0, 1, 2, 3], B: [1, 0, 2, 3], C: [3, 2, 1, 0] };
  for (let q = 0; q < Q; q++) {
    questions.push(JSON.stringify({ id: `q${q}`, title: `query ${q}`, body: '' }));
    for (const c of cands(q)) {
      questions.push(JSON.stringify({ id: c, title: `candidate ${c}`, body: '' }));
      pairs.push(`q${q},${c},alice,0`); // alice's labels lay out the pool's pairs
    }
    cands(q).forEach((c, k) => {
      if (q === 9) {
        if (k === 3) gold.push(`q${q},${c},gold,1`);
      } else gold.push(`q${q},${c},gold,${q < 8 && k === 0 ? 1 : 0}`);
    });
    for (const [run, order] of Object.entries(orders)) order.forEach((k, rank) => runs.push(`q${q} Q0 q${q}c${k} ${rank + 1} ${4 - rank} ${run}`));
  }
  const file = (name: string, lines: string[]): string => writeLines(dir, name, lines);
  await ok('init', w);
  await ok('import', w, '--format', 'questions-jsonl', file('q.jsonl', questions));
  await ok('import', w, '--format', 'labels-csv', file('pairs.csv', pairs), '--pool', 'P', '--scheme', 'binary');
  await ok('import', w, '--format', 'labels-csv', file('gold.csv', gold), '--pool', 'P');
  await ok('import', w, '--format', 'trec-run', file('runs.txt', runs), '--pool', 'P');
  return w;
}

describe('eval: the verdict counts as the table', () => {
  it('defaults, --threshold, --partial, --convention skip: the queries and the leader the table shows', async () => {
    const w = await workspace();
    const plain = await ok('eval', w, '--pool', 'P');
    expect(plain).toMatch(/^A\s+9\s+88\.89/m);
    expect(verdict(plain)).toMatch(/^decided: A is best on queries like these \(paired t-test over the 9 queries counted, /);

    // Relevance from grade 5: every AP is 0 — no run leads, nothing is decided.
    const high = await ok('eval', w, '--pool', 'P', '--threshold', '5');
    expect(high).toMatch(/^A\s+9\s+0\.00/m);
    expect(verdict(high)).toBe('not decided: no run leads — A, B, C share the highest MAP over the 9 queries counted');

    // --partial counts q9 too (10 queries), as the table does.
    const partial = await ok('eval', w, '--pool', 'P', '--partial');
    expect(partial).toMatch(/^A\s+10\s+82\.50/m);
    expect(verdict(partial)).toMatch(/^decided: A is best on queries like these \(paired t-test over the 10 queries counted, /);

    // --convention skip leaves out q8 (no relevant candidate): 8 queries, as the table's column.
    const skip = await ok('eval', w, '--pool', 'P', '--convention', 'skip');
    expect(skip).toMatch(/^A\s+8\s+100\.00/m);
    expect(verdict(skip)).toMatch(/^decided: A is best on queries like these \(paired t-test over the 8 queries counted \(1 without a similar candidate left out: convention skip\), /);
  });

  it('one query counted: the noun takes its number ("over the 1 queries counted" before)', async () => {
    const w = await workspace();
    for (const [k, v] of [[0, '1'], [1, '0'], [2, '0'], [3, '0']] as const) await ok('label', w, '--pool', 'P', '--annotator', 'bob', '--query', 'q0', '--candidate', `q0c${k}`, '--value', v);
    const one = await ok('eval', w, '--pool', 'P', '--annotator', 'bob');
    expect(one).toMatch(/^A\s+1\s+100\.00/m);
    expect(verdict(one)).toMatch(/^not decided: A leads, but the paired t-test over the 1 query counted does not/);
  });

  it('two queries on which A gains the same over B and C: not decided (the t-test\'s p = 0 said "labeling can stop here")', async () => {
    const w = await workspace();
    for (const q of [0, 1]) for (const [k, v] of [[0, '1'], [1, '0'], [2, '0'], [3, '0']] as const) await ok('label', w, '--pool', 'P', '--annotator', 'bob', '--query', `q${q}`, '--candidate', `q${q}c${k}`, '--value', v);
    const two = await ok('eval', w, '--pool', 'P', '--annotator', 'bob');
    expect(verdict(two)).toBe(
      "not decided: A leads B, C by the same AP on every one of the 2 queries counted; with no spread between queries the t-test's p = 0 is a limit, so the exact sign-flip test decides (p = 2/2^2 = 0.50 before Holm): not below 0.05 yet — label more queries",
    );
  });

  it('an ordered pool: the standing under the same options, its table and verdict', async () => {
    const w = await workspace();
    await ok('pool', 'set', w, '--pool', 'P', '--order', 'random', '--order-seed', '3');
    const out = await ok('eval', w, '--pool', 'P', '--threshold', '5');
    // No draws yet: nothing counts, so no verdict; the standing says how it counted.
    expect(out).toContain('labeling order random: MAP estimated over the pool');
    expect(out).not.toMatch(/^(not )?decided: /m);
    const json = JSON.parse(await ok('eval', w, '--pool', 'P', '--threshold', '5', '--partial', '--convention', 'skip', '--json')) as { labelOrder: { counting: unknown } };
    expect(json.labelOrder.counting).toEqual({ annotator: 'gold', convention: 'skip', ties: 'pool-order', threshold: 5, partial: true });
  });
});
