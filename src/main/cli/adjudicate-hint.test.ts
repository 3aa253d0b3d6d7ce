/**
 * `qpairs adjudicate` listed the disagreements and stopped there: nothing said how a judge settles
 * one from the command line, and a pool with no judge (rule adjudicated) kept them unresolved — out
 * of the gold and of eval — with no word of what to do. It now ends with the command that settles one,
 * or, with no judge in the workspace, how to make one.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliOk, useCliWorkspace } from './test-cli';

const cli = useCliWorkspace('qpairs-cli-adjudicate-', async ({ w, dir }) => {
  const f = path.join(dir, 'l.csv');
  writeFileSync(f, 'query_id,candidate_id,annotator,label\nq1,a,alice,1\nq1,a,bob,0\nq1,b,alice,0\nq1,b,bob,0\n');
  await runCliOk('import', w, '--format', 'labels-csv', '--pool', 'p', '--scheme', 'binary', f);
});

describe('qpairs adjudicate says how to settle', () => {
  it('with no judge: how to make one; with one: the label command that settles, as that judge; nothing once all are settled', async () => {
    const none = await runCliOk('adjudicate', cli.w, '--pool', 'p');
    expect(none).toMatch(/^pool p: 1 disagreement, 0 settled, 1 to settle/);
    expect(none.trimEnd().split('\n').at(-1)).toBe(
      `no judge can settle these: make someone one (qpairs annotators role ${cli.w} NAME judge, or qpairs annotators add ${cli.w} NAME --role judge), ` +
        `then: qpairs label ${cli.w} --pool p --annotator JUDGE --query Q --candidate C --value V`,
    );
    await runCliOk('annotators', 'add', cli.w, 'carol', '--role', 'judge');
    expect((await runCliOk('adjudicate', cli.w, '--pool', 'p')).trimEnd().split('\n').at(-1)).toBe(
      `to settle one, the judge labels it: qpairs label ${cli.w} --pool p --annotator carol --query Q --candidate C --value V (or Review in the app)`,
    );
    // Following it settles the pair, and the hint goes.
    await runCliOk('label', cli.w, '--pool', 'p', '--annotator', 'carol', '--query', 'q1', '--candidate', 'a', '--value', '1');
    const done = await runCliOk('adjudicate', cli.w, '--pool', 'p');
    expect(done).toMatch(/^pool p: 1 disagreement, 1 settled, 0 to settle/);
    expect(done).not.toContain('to settle one');
  });
});
