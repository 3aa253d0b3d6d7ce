/**
 * `qpairs agreement` of a pool where no pair was labeled by two annotators printed a table of n/a and exited 0, while
 * eval and export of nothing exit 1 saying why and what to do. It now prints its report (text or --json) and fails,
 * exit 1, with `qpairs agreement: nothing to measure: WHY: WHAT TO DO` on stderr, naming the command that helps.
 */
import { describe, expect, it } from 'vitest';
import { runCli, runCliOk, useCliWorkspace } from './test-cli';

const cli = useCliWorkspace('qpairs-cli-agreement-nothing-', async ({ w, file }) => {
  // alice labeled q1 → a and q1 → b, bob q2 → c, carol a "?" on q1 → a: no pair labeled decisively by two.
  const rows = ['q1,a,alice,1', 'q1,b,alice,0', 'q2,c,bob,1', 'q1,a,carol,?'];
  await runCliOk('import', w, '--format', 'labels-csv', '--pool', 'p', '--scheme', 'binary', file('l.csv', `query_id,candidate_id,annotator,label\n${rows.join('\n')}\n`));
});

describe('qpairs agreement with no pair labeled twice', () => {
  it('prints its report and fails, naming what is missing and the assign command', async () => {
    const r = await runCli('agreement', cli.w, '--pool', 'p');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^pool p \(binary\): 3 annotators \(alice, bob, carol\)/);
    expect(r.out).toMatch(/percent agreement +n\/a/);
    expect(r.err).toBe(
      'qpairs agreement: nothing to measure: no pair of pool p was labeled by two of its annotators (alice, bob, carol; a "?" counts as no label): ' +
        'have a second annotator label pairs another labeled — every annotator labels every query under a full-overlap assignment ' +
        `(qpairs assign ${cli.w} --pool p --annotators alice,bob,carol), two or more per query with --per-query 2 --seed S\n`,
    );
    const j = await runCli('agreement', cli.w, '--pool', 'p', '--json');
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out)).toMatchObject({ pool: 'p', percentAgreement: null });
    expect(j.err).toMatch(/^qpairs agreement: nothing to measure: no pair of pool p was labeled by two/);
  });

  it('one annotator listed, or a pool with one: says agreement needs two, and how to get a second', async () => {
    const one = await runCli('agreement', cli.w, '--pool', 'p', '--annotators', 'alice');
    expect(one.code).toBe(1);
    expect(one.err).toBe(
      'qpairs agreement: nothing to measure: agreement needs two annotators or more, and --annotators names one (alice): list another (the pool\'s annotators are listed without --annotators)\n',
    );
    await runCliOk('assign', cli.w, '--pool', 'p', '--annotators', 'alice');
    const assigned = await runCli('agreement', cli.w, '--pool', 'p');
    expect(assigned.code).toBe(1);
    expect(assigned.err).toBe(
      `qpairs agreement: nothing to measure: pool p has one annotator (alice): assign the pool to a second annotator too (qpairs assign ${cli.w} --pool p --annotators alice,B) and have them label the pairs alice labeled\n`,
    );
  });

  it('once a pair is labeled by two, it measures and exits 0', async () => {
    await runCliOk('label', cli.w, '--pool', 'p', '--annotator', 'bob', '--query', 'q1', '--candidate', 'a', '--value', '1');
    const r = await runCli('agreement', cli.w, '--pool', 'p');
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    expect(r.out).toMatch(/percent agreement +1\.000/);
  });
});
