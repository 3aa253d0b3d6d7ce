/**
 * `qpairs serve W` / `npm run serve`: opens a workspace, starts the server, prints where it is
 * (and each annotator's login link in token mode), and runs until SIGINT/SIGTERM.
 */
import { existsSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { QPairsError } from '../errors';
import { Engine } from '../engine/engine';
import { Workspace } from '../workspace/workspace';
import { acquireWorkspaceLock, type WorkspaceLock } from '../workspace/lock';
import { isLoopbackHost, parseTokenSpecs, generateToken, type TokenMap } from './auth';
import { startServer, type RunningServer } from './server';
import { openUploadStore } from './uploads';

export interface ServeWorkspaceOptions {
  workspace: string;
  port?: number;
  host?: string;
  /** `--token` values: NAME=SECRET or NAME (secret generated). */
  tokens?: string[];
  /** Create an empty workspace when the file does not exist. */
  create?: boolean;
  staticDir?: string;
  maxUploadBytes?: number;
  /** Total bytes of uploads kept at once (default 4 GiB). */
  maxUploadTotalBytes?: number;
  log?: (line: string) => void;
  /** Resolves to stop the server (default: SIGINT or SIGTERM). */
  until?: Promise<unknown>;
  /** Called once the server listens (tests, scripts). */
  onListening?: (s: RunningServer) => void;
}

/** Base URLs others can use: a wildcard host (0.0.0.0, ::) listens on every interface. */
function reachableBases(host: string, port: number): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [`http://${host.includes(':') ? `[${host}]` : host}:${port}`];
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal) continue;
      if (a.family === 'IPv4') out.push(`http://${a.address}:${port}`);
    }
  }
  return out.length ? out : [`http://${hostname()}:${port}`];
}

/**
 * Resolves on the first SIGINT/SIGTERM. Repeats are absorbed while the server closes (Ctrl-C in
 * a terminal reaches both `npm run serve`'s wrapper and this process); a third one forces exit.
 */
function signalled(): Promise<string> {
  return new Promise((resolve) => {
    let count = 0;
    const on = (sig: string) => () => {
      count++;
      if (count === 1) resolve(sig);
      else if (count >= 3) process.exit(130);
    };
    process.on('SIGINT', on('SIGINT'));
    process.on('SIGTERM', on('SIGTERM'));
  });
}

/** Runs serve mode; resolves with the exit code once stopped. */
export async function serveWorkspace(o: ServeWorkspaceOptions): Promise<number> {
  const log = o.log ?? ((s: string) => process.stdout.write(s + '\n'));
  const host = o.host ?? '127.0.0.1';
  // One writer process per workspace: serve mode holds the lock for its lifetime (a read-only
  // workspace needs none: nothing can write it).
  let lock: WorkspaceLock | null = null;
  const takeLock = (): WorkspaceLock => acquireWorkspaceLock(o.workspace, { onNote: log });
  if (!existsSync(o.workspace)) {
    if (!o.create) throw new QPairsError(`workspace ${o.workspace} does not exist (create it with \`qpairs init ${o.workspace}\`)`);
    lock = takeLock();
    try {
      Workspace.create(o.workspace).close();
    } catch (e) {
      lock.release();
      throw e;
    }
    log(`created empty workspace ${o.workspace}`);
  }
  let opened: Engine | null = null;
  // This server's uploads: a total quota; uploads of servers that crashed are removed now.
  const uploads = openUploadStore({ quotaBytes: o.maxUploadTotalBytes });
  try {
    opened = Engine.open(o.workspace, { transport: 'http', resolveUpload: (id) => uploads.path(id) });
    if (opened.ws.readonly) log(`note: workspace ${o.workspace} is read-only (${opened.ws.readonlyReason}); serving it read-only: labels and imports will be refused`);
    else lock ??= takeLock();
  } catch (e) {
    opened?.close();
    lock?.release();
    throw e;
  }
  const engine = opened;
  try {
    const { tokens, generated } = parseTokenSpecs(o.tokens ?? []);
    if (!isLoopbackHost(host) && Object.keys(tokens).length === 0) {
      // No --token given: one generated token per annotator the workspace knows.
      const annotators = (await engine.invoke('annotator.list', {})) as Array<{ name: string; role: string }>;
      const people = annotators.filter((a) => a.role !== 'system' && a.role !== 'gold');
      if (people.length === 0) {
        throw new QPairsError(`listening on ${host} needs per-annotator tokens and this workspace has no annotators yet: give --token NAME (repeatable)`);
      }
      for (const a of people) {
        const token = generateToken();
        (tokens as TokenMap)[a.name] = token;
        generated.push({ annotator: a.name, token });
      }
    }
    const roles = new Map(((await engine.invoke('annotator.list', {})) as Array<{ name: string; role: string }>).map((a) => [a.name, a.role]));
    for (const name of Object.keys(tokens)) {
      const role = roles.get(name);
      if (role === 'gold' || role === 'system') throw new QPairsError(`--token ${name}: "${name}" is the workspace's ${role} annotator, not a person; tokens are for people`);
    }
    const server = await startServer({ engine, port: o.port, host, tokens, staticDir: o.staticDir, maxUploadBytes: o.maxUploadBytes, uploads, log });
    log(`QPairs serving ${o.workspace} at ${server.url}/`);
    const bases = reachableBases(host, server.port);
    if (bases.length > 1 || bases[0] !== server.url) log(`reachable at ${bases.map((b) => `${b}/`).join(', ')}`);
    if (server.authRequired) {
      const made = new Set(generated.map((g) => g.annotator));
      log('annotator links (each carries that annotator\'s token: give each person only their own):');
      for (const annotator of Object.keys(tokens)) {
        const link = server.linkFor(annotator).replace(server.url, bases[0]!);
        const role = roles.get(annotator) === 'owner' || roles.get(annotator) === 'judge' ? roles.get(annotator)! : 'annotator';
        log(`  ${annotator} (${role}${made.has(annotator) ? ', generated' : ''}): ${link}`);
      }
    }
    if (!isLoopbackHost(host)) log('note: plain HTTP — use it on a trusted network, or put it behind a TLS proxy.');
    o.onListening?.(server);
    const why = await (o.until ?? signalled());
    log(`stopping (${typeof why === 'string' ? why : 'done'})…`);
    await server.close();
    // Give a running job a moment to finish its transaction; SQLite keeps the file consistent anyway.
    await Promise.race([engine.jobs.idle().catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
    return 0;
  } finally {
    engine.close();
    uploads.clear();
    lock?.release();
  }
}
