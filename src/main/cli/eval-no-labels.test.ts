/**
 * `qpairs eval` of a pool whose label source has no label printed why there are no figures ("gold
 * has no labels in pool …") over two tables of dashes, and nothing of how to get some. It now says
 * what to do: label or import labels — or, for the aggregate of a labeled pool, settle its disputes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliOk, useCliWorkspace } from './test-cli';

const cli = useCliWorkspace('qpairs-cli-eval-empty-', async ({ w, file }) => {
  const q = ['a', 'b', 'c', 'd'].map((id) => JSON.stringify({ id, title: `wifi drops after suspend ${id}`, body: 'on my laptop' })).join('\n');
  await runCliOk('import', w, '--format', 'questions-jsonl', file('q.jsonl', `${q}\n`));
  await runCliOk('pool', 'create', w, '--name', 'p', '--queries', file('ids.txt', 'a'), '--depth', '1');
});

const lines = async (...args: string[]): Promise<string[]> => {
  const r = await runCli('eval', cli.w, '--pool', 'p', ...args);
  expect(r.code, r.err).toBe(0);
  return r.out.split('\n');
};

describe('qpairs eval with no labels from its source', () => {
  it('says what to do: label or import for a pool no one labeled or a person without labels, settle for an aggregate of disputes', async () => {
    let out = await lines();
    expect(out[2]).toBe('metrics undefined: gold has no labels in pool "p"');
    expect(out[3]).toBe(
      `to evaluate it: label its pairs (qpairs label ${cli.w} --pool p --annotator A --query Q --candidate C --value V, or Annotate in the app) ` +
        `or import labels into it (qpairs import ${cli.w} --format labels-csv|labels-jsonl|qrels FILE --pool p)`,
    );
    // Alice and bob disagree on the pool's one pair (its candidate: the csv export's first row).
    await runCliOk('export', cli.w, '--pool', 'p', '--format', 'csv', '--no-text', path.join(cli.dir, 'p.csv'));
    const candidate = readFileSync(path.join(cli.dir, 'p.csv'), 'utf8').split('\n')[1]!.split(',')[1]!;
    for (const [who, v] of [['alice', '1'], ['bob', '0']]) await runCliOk('label', cli.w, '--pool', 'p', '--annotator', who!, '--query', 'a', '--candidate', candidate, '--value', v!);
    out = await lines();
    expect(out[2]).toMatch(/^metrics undefined: @aggregate has no labels in pool "p": no pair is resolved yet/);
    expect(out[3]).toBe(`to evaluate it: settle the disputed pairs (qpairs adjudicate ${cli.w} --pool p lists them and says how), or choose another rule (qpairs aggregate ${cli.w} --pool p --rule R)`);
    await runCliOk('annotators', 'add', cli.w, 'carol');
    out = await lines('--annotator', 'carol');
    expect(out[3]).toBe(
      `to evaluate it: label its pairs (qpairs label ${cli.w} --pool p --annotator carol --query Q --candidate C --value V, or Annotate in the app) ` +
        `or import labels into it (qpairs import ${cli.w} --format labels-csv|labels-jsonl|qrels FILE --pool p --annotator carol)`,
    );
    // A source with labels gets figures, and no hint.
    expect((await lines('--annotator', 'alice')).join('\n')).not.toContain('to evaluate it');
  });

  it('says a pool without candidate pairs has nothing to label, rather than to label it', async () => {
    await runCliOk('import', cli.w, '--format', 'questions-jsonl', cli.file('stop.jsonl', `${JSON.stringify({ id: 's', title: 'the of and', body: '' })}\n`));
    await runCliOk('pool', 'create', cli.w, '--name', 'e', '--queries', cli.file('s.txt', 's'));
    const r = await runCli('eval', cli.w, '--pool', 'e');
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('\n').slice(2, 4)).toEqual(['metrics undefined: gold has no labels in pool "e"', 'pool e has no candidate pair to label: BM25 found no other question for its queries']);
  });
  it('says how to count partially labeled queries, in the CLI\'s words and the app\'s', async () => {
    await runCliOk('pool', 'create', cli.w, '--name', 'p2', '--queries', cli.file('ids2.txt', 'a'), '--depth', '2');
    await runCliOk('export', cli.w, '--pool', 'p2', '--format', 'csv', '--no-text', path.join(cli.dir, 'p2.csv'));
    const candidate = readFileSync(path.join(cli.dir, 'p2.csv'), 'utf8').split('\n')[1]!.split(',')[1]!;
    await runCliOk('label', cli.w, '--pool', 'p2', '--annotator', 'alice', '--query', 'a', '--candidate', candidate, '--value', '1');
    const r = await runCli('eval', cli.w, '--pool', 'p2', '--annotator', 'alice');
    expect(r.out).toContain(
      'no query of pool "p2" is fully labeled by alice yet (1 partially labeled; count them with --partial, or “include partially labeled queries” in the app)',
    );
  });
});
