/**
 * `qpairs agreement --annotators alice,bobb` said only `no annotator named "bobb"` (eval names the
 * label sources, assign the person a typo meant), and `--annotators alice,alice` "an annotator is
 * listed twice" without saying which. Both now name the names.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliOk, useCliWorkspace } from './test-cli';

const cli = useCliWorkspace('qpairs-cli-agreement-names-', async ({ w, dir }) => {
  const f = path.join(dir, 'l.csv');
  writeFileSync(f, 'query_id,candidate_id,annotator,label\nq1,a,alice,1\nq1,a,bob,0\nq1,b,alice,0\nq1,b,bob,0\n');
  await runCliOk('import', w, '--format', 'labels-csv', '--pool', 'p', '--scheme', 'binary', f);
});

describe('qpairs agreement --annotators with a name that is wrong', () => {
  it("names the pool's annotators and the one a typo meant; a name given twice is named", async () => {
    const typo = await runCli('agreement', cli.w, '--pool', 'p', '--annotators', 'alice,bobb');
    expect(typo.code).toBe(1);
    expect(typo.err).toBe(`qpairs agreement: no annotator named "bobb" (did you mean bob? the pool's annotators: alice, bob)\n`);
    const other = await runCli('agreement', cli.w, '--pool', 'p', '--annotators', 'alice,zed');
    expect(other.err).toBe(`qpairs agreement: no annotator named "zed" (the pool's annotators: alice, bob)\n`);
    const twice = await runCli('agreement', cli.w, '--pool', 'p', '--annotators', 'alice,bob,alice');
    expect(twice.code).toBe(1);
    expect(twice.err).toBe('qpairs agreement: an annotator is listed twice: "alice"\n');
  });
});
