/**
 * `qpairs label --annotator NAME` with a name the workspace does not know adds that person and labels
 * as them — say so, with the person a typo most likely meant, as `qpairs assign` does. `alcie` for
 * alice was added in silence: the label went to a new annotator and `eval --annotator alice` missed it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, runCliOk } from './test-cli';

let dir: string;
let w: string;
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-label-'));
  w = path.join(dir, 'w.qpairs');
  await runCliOk('init', w);
  writeFileSync(path.join(dir, 'l.csv'), 'query_id,candidate_id,annotator,label\nq1,a,alice,1\nq1,b,alice,0\n');
  await runCliOk('import', w, '--format', 'labels-csv', '--pool', 'p', '--scheme', 'binary', path.join(dir, 'l.csv'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const label = (annotator: string, candidate: string, ...more: string[]) =>
  runCli('label', w, '--pool', 'p', '--annotator', annotator, '--query', 'q1', '--candidate', candidate, '--value', '1', ...more);

describe('qpairs label for a name the workspace does not know', () => {
  it('labels and says the name is a new annotator, with the person it most likely meant; a known name gets no note', async () => {
    const typo = await label('alcie', 'b');
    expect(typo.code, typo.err).toBe(0);
    expect(typo.out).toBe(
      'label 3: alcie q1 → b = 1\n' +
        'note: alcie was not a person of this workspace and is added as a new annotator (did you mean alice? then clear this label with --clear and give it with --annotator alice).\n',
    );
    expect((await label('alcie', 'a')).out).toBe('label 4: alcie q1 → a = 1\n');
    expect((await label('alice', 'b')).out).toBe('label 5: alice q1 → b = 1\n');
    expect((await label('zoltan', 'b')).out).toContain('note: zoltan was not a person of this workspace and is added as a new annotator.\n');
  });

  it('keeps --json the acknowledgement alone, the note on standard error; a label source (gold) gets none', async () => {
    const r = await label('bob', 'a', '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ seq: 3, saved: true });
    expect(r.err).toBe('note: bob was not a person of this workspace and is added as a new annotator.\n');
    const gold = await label('gold', 'a');
    expect(gold.out).toBe('label 4: gold q1 → a = 1\n');
  });
});
