/**
 * Starts serve mode (scripts/serve.mjs on the project's Node 22) on a workspace and a port, for
 * the e2e global setup and for specs that need a workspace of their own.
 *
 * No server outlives the tests: every child is registered until it exits; one that does not
 * start in time is killed before the error is thrown; whatever is still running when the test
 * process exits (a timed-out test, a worker torn down) is killed then; and each child carries
 * the run's marker (QPAIRS_E2E_SERVER) so the global teardown can find any that escaped all of that
 * (`survivingServers`) and fail the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** Servers started by this process and not yet exited. */
const running = new Set<ChildProcess>();
let exitHook = false;

/**
 * Sends `signal` to the server and everything it started (esbuild's service, for one): on POSIX
 * each server leads its own process group (spawned detached), so the whole group gets it.
 */
function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform !== 'win32') process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** Kills (SIGKILL) every server this process started that is still running, with what it started; returns their pids. */
export function killAllServers(): number[] {
  const pids: number[] = [];
  for (const c of running) {
    if (c.exitCode === null && c.signalCode === null && c.pid !== undefined) {
      pids.push(c.pid);
      signalTree(c, 'SIGKILL');
    }
  }
  running.clear();
  return pids;
}

/** The marker of this test run, inherited by the workers from the global setup. */
export function e2eRunMarker(): string {
  process.env.QPAIRS_E2E_RUN ??= `${process.pid}-${Date.now()}`;
  return process.env.QPAIRS_E2E_RUN;
}

/**
 * Pids of live servers of this run: processes whose environment has QPAIRS_E2E_SERVER set to the
 * run's marker (only servers get it; browsers and workers do not). Linux /proc; an empty list where
 * there is no /proc to read.
 */
export function survivingServers(marker = e2eRunMarker()): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const needle = `QPAIRS_E2E_SERVER=${marker}\0`;
  const found: number[] = [];
  for (const e of entries) {
    if (Number(e) === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${e}/environ`, 'latin1');
      const stat = readFileSync(`/proc/${e}/stat`, 'latin1');
      // A zombie has exited; only its parent's wait is missing.
      if (/^\d+ \(.*\) Z /.test(stat)) continue;
      if (`${env}\0`.includes(needle)) found.push(Number(e));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

export interface ServeProcess {
  url: string;
  pid: number | undefined;
  child: ChildProcess;
  /** The server's output so far. */
  log(): string;
  stop(): Promise<void>;
}

export interface ServeOptions {
  /** QPAIRS_CONFIG_DIR for the server (demo workspace, last-workspace memory); default a folder of the run's temporary directory. */
  configDir?: string;
  /** The workspace to serve; omitted: what `npm run serve` opens without one (the last served, else the demo). */
  workspace?: string;
  port: number | string;
  build?: boolean;
  create?: boolean;
  timeoutMs?: number;
  /** `--host` (default: the server's, 127.0.0.1). */
  host?: string;
  /** `--token NAME=SECRET` values: requests must then carry a token (serve mode with tokens). */
  tokens?: string[];
  /** `--require-tokens`: tokens (those invited into the workspace) required on loopback too. */
  requireTokens?: boolean;
}

export async function startServe(o: ServeOptions): Promise<ServeProcess> {
  const node = path.join(root, 'node_modules', '.bin', 'node');
  const args = [path.join(root, 'scripts', 'serve.mjs'), ...(o.workspace ? [o.workspace] : []), '--port', String(o.port)];
  if (o.workspace && (o.create ?? true)) args.push('--create');
  if (o.build) args.push('--build');
  if (o.host) args.push('--host', o.host);
  for (const t of o.tokens ?? []) args.push('--token', t);
  if (o.requireTokens) args.push('--require-tokens');
  const env = {
    ...process.env,
    QPAIRS_E2E_SERVER: e2eRunMarker(),
    // The demo workspace and the "last workspace" memory go to a temporary folder, never the home.
    QPAIRS_CONFIG_DIR: o.configDir ?? path.join(process.env.QPAIRS_E2E_TMP ?? tmpdir(), 'qpairs-config'),
  };
  // Detached on POSIX: its own process group, so stopping it stops what it started too.
  const child = spawn(node, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env, detached: process.platform !== 'win32' });
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!exitHook) {
    exitHook = true;
    process.once('exit', killAllServers);
  }
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const timeoutMs = o.timeoutMs ?? 180_000;
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve mode did not start within ${timeoutMs / 1000} s:\n${log}`)), timeoutMs);
    const check = (): void => {
      if (/QPairs serving .* at http:\/\//.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve mode exited (${code}) before listening:\n${log}`));
    });
  });
  try {
    await started;
  } catch (e) {
    // A server that did not come up in time must not stay behind.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      signalTree(child, 'SIGKILL');
      await exited;
    } else signalTree(child, 'SIGKILL'); // what it started, if anything is left
    throw e;
  }
  return {
    url: `http://${o.host && o.host !== '0.0.0.0' && o.host !== '::' ? (o.host.includes(':') ? `[${o.host}]` : o.host) : '127.0.0.1'}:${o.port}`,
    pid: child.pid,
    child,
    log: () => log,
    stop: async () => {
      const gone = (): boolean => child.exitCode !== null || child.signalCode !== null;
      if (gone()) return;
      const exited = new Promise((r) => child.once('exit', r));
      signalTree(child, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (!gone()) {
        signalTree(child, 'SIGKILL');
        await exited;
      }
    },
  };
}
