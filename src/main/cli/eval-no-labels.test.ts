/**
 * `qpairs eval` of a pool whose label source has no label printed why there are no figures ("gold
 * has no labels in pool …") over two tables of dashes, and nothing of how to get some. It now says
 * what to do: label or import labels — or, for the aggregate of a labeled pool, settle its disputes.
 * And it exited 0, so a script went on with a table of dashes (or --json's nulls): counting no query,
 * it now fails (exit 1) with "qpairs eval: nothing to evaluate: WHY; WHAT TO DO" on stderr, as other
 * commands with nothing to do fail (`qpairs import undo`), its report still on stdout.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliOk, runEvalNothing, useCliWorkspace } from './test-cli';

const cli = useCliWorkspace('qpairs-cli-eval-empty-', async ({ w, file }) => {
  const q = ['a', 'b', 'c', 'd'].map((id) => JSON.stringify({ id, title: `wifi drops after suspend ${id}`, body: 'on my laptop' })).join('\n');
  await runCliOk('import', w, '--format', 'questions-jsonl', file('q.jsonl', `${q}\n`));
  await runCliOk('pool', 'create', w, '--name', 'p', '--queries', file('ids.txt', 'a'), '--depth', '1');
});

/** The report of an eval with nothing to evaluate (exit 1; its stderr line is the reason and the report's hint). */
const lines = async (...args: string[]): Promise<string[]> => {
  const r = await runEvalNothing('eval', cli.w, '--pool', 'p', ...args);
  const out = r.out.split('\n');
  expect(r.err).toBe(`qpairs eval: nothing to evaluate: ${out[2]!.replace(/^metrics undefined: /, '')}; ${out[3]}\n`);
  return out;
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
    // A source with labels gets figures, no hint, and exit 0.
    const alice = await runCli('eval', cli.w, '--pool', 'p', '--annotator', 'alice');
    expect(alice.code, alice.err).toBe(0);
    expect(alice.err).toBe('');
    expect(alice.out).not.toContain('to evaluate it');
  });

  it('says a pool without candidate pairs has nothing to label, rather than to label it', async () => {
    await runCliOk('import', cli.w, '--format', 'questions-jsonl', cli.file('stop.jsonl', `${JSON.stringify({ id: 's', title: 'the of and', body: '' })}\n`));
    await runCliOk('pool', 'create', cli.w, '--name', 'e', '--queries', cli.file('s.txt', 's'));
    const r = await runEvalNothing('eval', cli.w, '--pool', 'e');
    expect(r.out.split('\n').slice(2, 4)).toEqual(['metrics undefined: gold has no labels in pool "e"', 'pool e has no candidate pair to label: BM25 found no other question for its queries']);
    expect(r.err).toBe('qpairs eval: nothing to evaluate: gold has no labels in pool "e"; pool e has no candidate pair to label: BM25 found no other question for its queries\n');
    // --json too: the evaluation on stdout (its nulls and reason), the line on stderr, exit 1.
    const j = await runEvalNothing('eval', cli.w, '--pool', 'e', '--json');
    expect(JSON.parse(j.out)).toMatchObject({ labeledQueries: 0, reason: 'gold has no labels in pool "e"' });
  });
  it('says how to count partially labeled queries, in the CLI\'s words and the app\'s', async () => {
    await runCliOk('pool', 'create', cli.w, '--name', 'p2', '--queries', cli.file('ids2.txt', 'a'), '--depth', '2');
    await runCliOk('export', cli.w, '--pool', 'p2', '--format', 'csv', '--no-text', path.join(cli.dir, 'p2.csv'));
    const candidate = readFileSync(path.join(cli.dir, 'p2.csv'), 'utf8').split('\n')[1]!.split(',')[1]!;
    await runCliOk('label', cli.w, '--pool', 'p2', '--annotator', 'alice', '--query', 'a', '--candidate', candidate, '--value', '1');
    const why = 'no query of pool "p2" is fully labeled by alice yet (1 partially labeled; count them with --partial, or “include partially labeled queries” in the app)';
    const r = await runEvalNothing('eval', cli.w, '--pool', 'p2', '--annotator', 'alice');
    expect(r.out).toContain(why);
    expect(r.err).toBe(`qpairs eval: nothing to evaluate: ${why}\n`);
    // Counted with --partial, the query is evaluated: exit 0.
    const partial = await runCli('eval', cli.w, '--pool', 'p2', '--annotator', 'alice', '--partial');
    expect(partial.code, partial.err).toBe(0);
  });
});
