/**
 * A pool's guidelines could be set only in the app (the Pools screen's box): a researcher on the
 * command line had no way to record them, and every export's datasheet said "(no guidelines
 * recorded for this pool)". `qpairs pool set --guidelines FILE` sets them from a Markdown file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, runCliOk } from './test-cli';

let dir: string;
let w: string;
const file = (name: string, text: string): string => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-guidelines-'));
  w = path.join(dir, 'w.qpairs');
  await runCliOk('init', w);
  await runCliOk('import', w, '--format', 'labels-csv', '--pool', 'p', '--scheme', 'binary', file('l.csv', 'query_id,candidate_id,annotator,label\nq1,a,alice,1\n'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const guidelinesOf = async (): Promise<string> => (JSON.parse(await runCliOk('pool', 'set', w, '--pool', 'p', '--convention', 'zero', '--json')) as { guidelines: string }).guidelines;

describe('qpairs pool set --guidelines FILE', () => {
  it("sets the pool's guidelines from the file, which the export's datasheet carries; an empty file clears them", async () => {
    const text = '# Similar questions\n\n- **1**: an answer to one answers the other\n';
    const out = await runCliOk('pool', 'set', w, '--pool', 'p', '--guidelines', file('g.md', text));
    expect(out).toMatch(/^pool p's guidelines are now .*g\.md's text \(\d+ characters\)/);
    expect(await guidelinesOf()).toBe(text);
    await runCliOk('export', w, '--pool', 'p', '--format', 'qrels', path.join(dir, 'p.qrels'));
    expect(readFileSync(path.join(dir, 'p.qrels.datasheet.md'), 'utf8')).toContain('> - **1**: an answer to one answers the other');
    expect(await runCliOk('pool', 'set', w, '--pool', 'p', '--guidelines', file('empty.md', ''))).toMatch(/^pool p has no guidelines now/);
    expect(await guidelinesOf()).toBe('');
  });

  it('refuses a missing file, an unknown pool and a text over the limit, changing nothing', async () => {
    await runCliOk('pool', 'set', w, '--pool', 'p', '--guidelines', file('g.md', 'kept'));
    const missing = await runCli('pool', 'set', w, '--pool', 'p', '--guidelines', path.join(dir, 'nope.md'), '--blind', 'false');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^qpairs pool set: --guidelines .*nope\.md: cannot read the file: no such file/);
    const long = await runCli('pool', 'set', w, '--pool', 'p', '--guidelines', file('long.md', 'x'.repeat(200_001)));
    expect(long.code).toBe(1);
    expect(long.err).toContain("200,001 characters, more than a pool's guidelines hold (200,000, as in the app); nothing was changed");
    const noPool = await runCli('pool', 'set', w, '--pool', 'nope', '--guidelines', file('g2.md', 'other'));
    expect(noPool.code).toBe(1);
    expect(await guidelinesOf()).toBe('kept');
    const pools = JSON.parse(await runCliOk('pool', 'list', w, '--json')) as Array<{ blind: boolean }>;
    expect(pools[0]!.blind).toBe(true);
  });
});
