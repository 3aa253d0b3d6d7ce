/**
 * `npm run serve -- …` (scripts/serve.mjs) answers a wrong command line as `qpairs serve` does: one line
 * saying what is wrong and the usage, exit 2, before it builds or serves anything (and a workspace that
 * does not exist, exit 1, naming --create). A mistyped flag
 * (`--prot 5180`) or a flag without its value printed Node's parseArgs stack trace, and a second word
 * (`npm run serve -- W.qpairs 5180`, --port left out) was ignored: it served on the default port.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
// Made in beforeAll, not when the file loads: a run that skips every test here runs no afterAll either.
let dir = '';
let workspace = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-serve-usage-'));
  workspace = path.join(dir, 'W.qpairs');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serveScript(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), ...args], {
    cwd: dir,
    env: { ...process.env, QPAIRS_CONFIG_DIR: dir },
    encoding: 'utf8',
    // Only so that a regression cannot hang the suite (the old script served on the default port).
    timeout: 120_000,
    killSignal: 'SIGKILL',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm run serve with a wrong command line', () => {
  // W stands for the workspace path (in the folder beforeAll makes).
  it.each([
    [['--prot', '5180'], 'serve: unknown option --prot'],
    [['W', '--port'], 'serve: --port needs a value'],
    [['W', '5180'], 'serve: unexpected argument "5180": serve takes one WORKSPACE (each option\'s value follows its --flag, as in --port 5180)'],
  ])('%j: one line and the usage, exit 2, nothing built or served', (args, line) => {
    const r = serveScript(...args.map((a) => (a === 'W' ? workspace : a)));
    expect(r.status, r.stderr).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toEqual([line, expect.stringMatching(/^usage: npm run serve -- \[WORKSPACE\] \[--port 5180\] /)]);
    expect(r.stdout).toBe('');
    expect(readdirSync(dir)).toEqual([]);
  });

  // Its own checks had drifted from qpairs serve's: the app was built first, then "serve: --port 99999: not a
  // port number" (exit 1), and --max-upload-mb's refusal was exit 1 too. Now: qpairs serve's line, the usage, exit 2.
  it.each([
    [['--port', '99999'], 'serve: --port is a port number from 0 to 65535, not 99999'],
    [['--max-trainings', '1.5'], 'serve: --max-trainings needs a whole number, got "1.5"'],
    [['--max-upload-mb', '0'], 'serve: --max-upload-mb is a size in MiB greater than 0 (e.g. 2048), not "0"'],
  ])('%j: the bad value as qpairs serve says it, and the usage, exit 2, nothing served', (args, line) => {
    const r = serveScript(workspace, '--create', ...args);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([line, expect.stringMatching(/^usage: npm run serve -- \[WORKSPACE\] \[--port 5180\] /)]);
    expect(r.stdout).toBe('');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a workspace that does not exist: says so before building anything, naming --create (it built the app, then named only qpairs init)', () => {
    const r = serveScript(workspace);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toBe(`serve: workspace ${workspace} does not exist: add --create to start an empty one there, or create it with \`qpairs init ${workspace}\`\n`);
    expect(r.stdout).toBe('');
    expect(readdirSync(dir)).toEqual([]);
  });
});
