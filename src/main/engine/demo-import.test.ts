/**
 * The demo corpus's duplicates.csv is in no import format's layout: resources/demo/README.md says so
 * and gives the commands that bring it into a workspace of one's own (its questions as they are, its
 * links as askubuntu-pairs lines made by one awk). This runs that block, as written, with the real
 * `qpairs` (bin/qpairs.mjs, as `npx qpairs` runs it) in an empty folder holding only a link to
 * resources/, and checks that the workspace holds what the demo workspace holds: the same 300
 * questions and the same 40 duplicate pairs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { demoDir, ensureDemoWorkspace } from './demo';

const root = path.resolve(import.meta.dirname, '../../..');
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-demo-import-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The shell block after the demo README's marker. */
function demoImportBlock(): string {
  const readme = readFileSync(path.join(demoDir(), 'README.md'), 'utf8');
  const at = readme.indexOf('<!-- demo-import');
  expect(at).toBeGreaterThan(0);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  expect(block).not.toBeNull();
  return block![1]!;
}

describe("the demo's duplicates.csv, imported as its README says", () => {
  it('gives a workspace the demo workspace’s questions and duplicate pairs', async () => {
    const block = demoImportBlock();
    expect(block).toContain('resources/demo/duplicates.csv');
    symlinkSync(path.join(root, 'resources'), path.join(dir, 'resources'));
    // `npx qpairs …` as from the checkout: the real CLI, the lines run as written.
    const shim = `npx() { [ "$1" = qpairs ] || return 127; shift; "$QPAIRS_NODE" "$QPAIRS_BIN" "$@"; }\nset -e\n`;
    const out = execFileSync('bash', ['-c', shim + block], {
      cwd: dir,
      env: { ...process.env, QPAIRS_NODE: process.execPath, QPAIRS_BIN: path.join(root, 'bin', 'qpairs.mjs') },
      encoding: 'utf8',
    });
    // Each figure a comment names is printed.
    for (const [, key, n] of block.matchAll(/#\s*(\w+): (\d+)/g)) expect(out).toMatch(new RegExp(`^\\s*${key}: ${n}$`, 'm'));

    const mine = Workspace.open(path.join(dir, 'W.qpairs'));
    const demoFile = path.join(dir, 'demo.qpairs');
    await ensureDemoWorkspace(demoFile);
    const demo = Workspace.open(demoFile);
    try {
      expect(mine.stats()).toMatchObject({ questions: 300, duplicatePairs: 40 });
      expect(mine.duplicatePairs()).toEqual(demo.duplicatePairs());
      expect(mine.negativePairs()).toEqual([]);
    } finally {
      mine.close();
      demo.close();
    }
  });
});
