/**
 * `qpairs label --clear` of a pair the annotator has no label on answered "unchanged: alice already
 * has that label for q1 → b", as though a label were there; it now says there is none to clear.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliOk, useCliWorkspace } from './test-cli';

const cli = useCliWorkspace('qpairs-cli-label-clear-', async ({ w, dir }) => {
  writeFileSync(path.join(dir, 'l.csv'), 'query_id,candidate_id,annotator,label\nq1,a,alice,1\nq1,b,bob,0\n');
  await runCliOk('import', w, '--format', 'labels-csv', '--pool', 'p', '--scheme', 'binary', path.join(dir, 'l.csv'));
});

const label = (...more: string[]) => runCliOk('label', cli.w, '--pool', 'p', '--annotator', 'alice', '--query', 'q1', ...more);

describe('qpairs label --clear', () => {
  it('clears a label, then says there is none to clear; giving the same value again is "already has that label"', async () => {
    expect(await label('--candidate', 'a', '--clear')).toMatch(/^label \d+: alice q1 → a = \(cleared\)\n$/);
    expect(await label('--candidate', 'a', '--clear')).toBe('unchanged: alice has no label for q1 → a to clear\n');
    expect(await label('--candidate', 'b', '--clear')).toBe('unchanged: alice has no label for q1 → b to clear\n');
    await label('--candidate', 'b', '--value', '1');
    expect(await label('--candidate', 'b', '--value', '1')).toBe('unchanged: alice already has that label for q1 → b\n');
  });
});
