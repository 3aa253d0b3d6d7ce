/**
 * A pool's guidelines could be set only in the app (the Pools screen's box): a researcher on the
 * command line had no way to record them, and every export's datasheet said "(no guidelines
 * recorded for this pool)". `qpairs pool set --guidelines FILE` sets them from a Markdown file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliOk, useCliWorkspace } from './test-cli';

const cli = useCliWorkspace('qpairs-cli-guidelines-', async ({ w, file }) => {
  await runCliOk('import', w, '--format', 'labels-csv', '--pool', 'p', '--scheme', 'binary', file('l.csv', 'query_id,candidate_id,annotator,label\nq1,a,alice,1\n'));
});

const guidelinesOf = async (): Promise<string> => (JSON.parse(await runCliOk('pool', 'set', cli.w, '--pool', 'p', '--convention', 'zero', '--json')) as { guidelines: string }).guidelines;

describe('qpairs pool set --guidelines FILE', () => {
  it("sets the pool's guidelines from the file, which the export's datasheet carries; an empty file clears them", async () => {
    const text = '# Similar questions\n\n- **1**: an answer to one answers the other\n';
    const out = await runCliOk('pool', 'set', cli.w, '--pool', 'p', '--guidelines', cli.file('g.md', text));
    expect(out).toMatch(/^pool p's guidelines are now .*g\.md's text \(\d+ characters\)/);
    expect(await guidelinesOf()).toBe(text);
    await runCliOk('export', cli.w, '--pool', 'p', '--format', 'qrels', path.join(cli.dir, 'p.qrels'));
    expect(readFileSync(path.join(cli.dir, 'p.qrels.datasheet.md'), 'utf8')).toContain('> - **1**: an answer to one answers the other');
    expect(await runCliOk('pool', 'set', cli.w, '--pool', 'p', '--guidelines', cli.file('empty.md', ''))).toMatch(/^pool p has no guidelines now/);
    expect(await guidelinesOf()).toBe('');
  });

  it('refuses a missing file, an unknown pool and a text over the limit, changing nothing', async () => {
    await runCliOk('pool', 'set', cli.w, '--pool', 'p', '--guidelines', cli.file('g.md', 'kept'));
    const missing = await runCli('pool', 'set', cli.w, '--pool', 'p', '--guidelines', path.join(cli.dir, 'nope.md'), '--blind', 'false');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^qpairs pool set: --guidelines .*nope\.md: cannot read the file: no such file/);
    const long = await runCli('pool', 'set', cli.w, '--pool', 'p', '--guidelines', cli.file('long.md', 'x'.repeat(200_001)));
    expect(long.code).toBe(1);
    expect(long.err).toContain("200,001 characters, more than a pool's guidelines hold (200,000, as in the app); nothing was changed");
    const noPool = await runCli('pool', 'set', cli.w, '--pool', 'nope', '--guidelines', cli.file('g2.md', 'other'));
    expect(noPool.code).toBe(1);
    expect(await guidelinesOf()).toBe('kept');
    const pools = JSON.parse(await runCliOk('pool', 'list', cli.w, '--json')) as Array<{ blind: boolean }>;
    expect(pools[0]!.blind).toBe(true);
  });
});
