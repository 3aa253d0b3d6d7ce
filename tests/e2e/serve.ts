/**
 * Starts serve mode (scripts/serve.mjs on the project's Node 22) on a workspace and a port, for
 * the e2e global setup and for specs that need a workspace of their own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export interface ServeProcess {
  url: string;
  pid: number | undefined;
  child: ChildProcess;
  /** The server's output so far. */
  log(): string;
  stop(): Promise<void>;
}

export interface ServeOptions {
  workspace: string;
  port: number | string;
  build?: boolean;
  create?: boolean;
  timeoutMs?: number;
  /** `--host` (default: the server's, 127.0.0.1). */
  host?: string;
  /** `--token NAME=SECRET` values: requests must then carry a token (serve mode with tokens). */
  tokens?: string[];
}

export async function startServe(o: ServeOptions): Promise<ServeProcess> {
  const node = path.join(root, 'node_modules', '.bin', 'node');
  const args = [path.join(root, 'scripts', 'serve.mjs'), o.workspace, '--port', String(o.port)];
  if (o.create ?? true) args.push('--create');
  if (o.build) args.push('--build');
  if (o.host) args.push('--host', o.host);
  for (const t of o.tokens ?? []) args.push('--token', t);
  const child = spawn(node, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const timeoutMs = o.timeoutMs ?? 180_000;
  await new Promise<void>((resolve, reject) => {
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
  return {
    url: `http://${o.host && o.host !== '0.0.0.0' && o.host !== '::' ? (o.host.includes(':') ? `[${o.host}]` : o.host) : '127.0.0.1'}:${o.port}`,
    pid: child.pid,
    child,
    log: () => log,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
