/**
 * A labels file for someone an assigned pool is not assigned to: the labels are stored, but only the
 * assigned annotators vote, so carol's file imported into a pool assigned to alice and bob changed
 * none of its agreement, Review or gold — and `qpairs import` said nothing. It now warns, naming her
 * and the assign command that counts her labels.
 */
import { describe, expect, it } from 'vitest';
import { runCliOk, useCliWorkspace } from './test-cli';

const cli = useCliWorkspace('qpairs-cli-import-unassigned-', async ({ w, file }) => {
  const ab = file('ab.csv', 'query_id,candidate_id,annotator,label\nq1,a,alice,1\nq1,b,alice,0\nq1,a,bob,0\nq1,b,bob,0\n');
  await runCliOk('import', w, '--format', 'labels-csv', '--pool', 'p', '--scheme', 'binary', ab);
  await runCliOk('assign', w, '--pool', 'p', '--annotators', 'alice,bob');
});

describe('importing labels for someone the pool is not assigned to', () => {
  it('warns that they do not vote until assigned, and how to assign them', async () => {
    const carol = cli.file('carol.csv', 'query_id,candidate_id,annotator,label\nq1,a,carol,1\nq1,b,carol,1\n');
    const report = JSON.parse(await runCliOk('import', cli.w, '--format', 'labels-csv', '--pool', 'p', carol, '--json')) as { warnings: string[] };
    expect(report.warnings).toContain(
      'pool "p" is assigned to alice, bob: the 2 labels this import gave carol are stored but do not vote in its agreement, Review or gold (@aggregate) ' +
        `until carol is assigned too (qpairs assign ${cli.w} --pool p --annotators alice,bob,carol)`,
    );
    // Her labels indeed do not vote: the disagreement on q1 → a is alice's and bob's alone.
    expect(await runCliOk('aggregate', cli.w, '--pool', 'p')).toMatch(/annotators alice, bob;/);
    // An assigned annotator's labels, and those of an open pool, need no warning.
    const alice = cli.file('alice.csv', 'query_id,candidate_id,annotator,label\nq1,b,alice,1\n');
    const again = JSON.parse(await runCliOk('import', cli.w, '--format', 'labels-csv', '--pool', 'p', alice, '--json')) as { warnings: string[] };
    expect(again.warnings.filter((x) => x.includes('is assigned to'))).toEqual([]);
    const open = JSON.parse(await runCliOk('import', cli.w, '--format', 'labels-csv', '--pool', 'o', '--scheme', 'binary', carol, '--json')) as { warnings: string[] };
    expect(open.warnings.filter((x) => x.includes('is assigned to'))).toEqual([]);
  });
});
