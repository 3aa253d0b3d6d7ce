/** Test helpers (not used by the app): run the CLI in-process and capture what it prints; a CLI test's scratch workspace. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { main } from './index';

export async function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { log: (s) => (out += s + '\n'), err: (s) => (err += s + '\n') });
  return { code, out, err };
}

/** runCli for a command that must succeed: its stdout, or an error naming the command, its exit code and stderr. */
export async function runCliOk(...argv: string[]): Promise<string> {
  const { code, out, err } = await runCli(...argv);
  if (code !== 0) throw new Error(`qpairs ${argv.join(' ')} exited ${code}: ${err}`);
  return out;
}

/**
 * runCli for a `qpairs eval` that counts no query (no label from its source, only partly labeled queries, no
 * pair): it fails, exit 1, saying "nothing to evaluate" and why on stderr; its report (stdout) is returned.
 */
export async function runEvalNothing(...argv: string[]): Promise<{ out: string; err: string }> {
  const { code, out, err } = await runCli(...argv);
  if (code !== 1 || !err.startsWith('qpairs eval: nothing to evaluate: ')) throw new Error(`qpairs ${argv.join(' ')} exited ${code}, not 1 with nothing to evaluate: ${err}`);
  return { out, err };
}

/** A CLI test's scratch: its folder, the workspace initialised there, and a writer of files in it. */
export interface CliScratch {
  readonly dir: string;
  /** `dir/w.qpairs`, made by `qpairs init` before each test. */
  readonly w: string;
  /** Writes `text` to `dir/name`; its path. */
  file(name: string, text: string): string;
}

/**
 * Registers the hooks of a CLI test file: before each test a new folder `<prefix>…` holding the
 * workspace `w.qpairs` (`qpairs init`), then `prepare` (imports the file's tests share); after it,
 * the folder removed. Its fields are read inside tests (they change before each one).
 */
export function useCliWorkspace(prefix: string, prepare?: (s: CliScratch) => Promise<void>): CliScratch {
  let dir = '';
  const s: CliScratch = {
    get dir() {
      return dir;
    },
    get w() {
      return path.join(dir, 'w.qpairs');
    },
    file(name, text) {
      const f = path.join(dir, name);
      writeFileSync(f, text);
      return f;
    },
  };
  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    await runCliOk('init', s.w);
    await prepare?.(s);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return s;
}
