/**
 * An askubuntu export of a pool whose questions have no text (the AskUbuntu pool file imported without
 * its texts) wrote an empty STEM.corpus.txt under a warning that counted the questions "not in the
 * corpus file", as though some were: it now says the file is empty and how to leave it out.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliOk, useCliWorkspace } from './test-cli';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = useCliWorkspace('qpairs-cli-export-textless-', async ({ w, dir }) => {
  const lines = readFileSync(path.join(root, 'datasets/askubuntu/dev.txt'), 'utf8').split('\n').slice(0, 3);
  writeFileSync(path.join(dir, 'dev.txt'), lines.join('\n') + '\n');
  await runCliOk('import', w, '--format', 'askubuntu-pool', path.join(dir, 'dev.txt'), '--pool', 'au');
});

describe('an askubuntu export of a pool without text', () => {
  it('says its corpus file is empty and how to leave it out; --no-text writes none', async () => {
    const r = await runCli('export', cli.w, '--pool', 'au', '--format', 'askubuntu', path.join(cli.dir, 'out.txt'));
    expect(r.code).toBe(0);
    expect(r.out + r.err).toMatch(/none of the [\d,]+ questions has text in the workspace: the corpus file is empty \(--no-text, or unticking “write the corpus file” in the app, leaves it out\)/);
    expect(readFileSync(path.join(cli.dir, 'out.corpus.txt'), 'utf8')).toBe('');
    await runCliOk('export', cli.w, '--pool', 'au', '--format', 'askubuntu', '--no-text', path.join(cli.dir, 'ids.txt'));
    expect(existsSync(path.join(cli.dir, 'ids.corpus.txt'))).toBe(false);
  });
});
