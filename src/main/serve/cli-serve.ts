/**
 * `qpairs serve W` / `npm run serve`: opens a workspace, starts the server, prints where it is
 * (and each annotator's login link in token mode), and runs until SIGINT/SIGTERM/SIGHUP.
 */
import { existsSync, readFileSync, unwatchFile, watchFile } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { QPairsError } from '../errors';
import { Engine } from '../engine/engine';
import { Workspace } from '../workspace/workspace';
import { acquireWorkspaceLock, type WorkspaceLock } from '../workspace/lock';
import { finishedUndoNote } from '../workspace/undo-last';
import { isLoopbackHost, parseTokenSpecs, type TokenMap } from './auth';
import { hasLiveToken, hasLiveTokens, teamMembers } from '../team/tokens';
import { checkNewPersonName } from '../gold/store';
import { cannotRead } from '../import/reader';
import { startServer, type RunningServer } from './server';
import { openUploadStore } from './uploads';
import { cancelJobsOnStop } from '../engine/stop-jobs';

export interface ServeWorkspaceOptions {
  workspace: string;
  port?: number;
  host?: string;
  /**
   * Deprecated `--token NAME=SECRET` values (secrets on a command line show in `ps` and shell
   * history: a loud warning is printed). Invite people instead (`annotator.invite`).
   */
  tokens?: string[];
  /** `--tokens-file FILE`: lines `NAME=SECRET` (# comments), held in memory only. */
  tokensFile?: string;
  /** `--require-tokens`: require tokens on a loopback address too. */
  requireTokens?: boolean;
  /** `--max-trainings N`: model trainings that may run at once (default 1); more queue. */
  maxTrainings?: number;
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
 * Resolves on the first SIGINT/SIGTERM/SIGHUP. Repeats are absorbed while the server closes (Ctrl-C in
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
    // A closed terminal (an ssh session that ends): stop as cleanly as on Ctrl-C, not killed with the lock left behind.
    process.on('SIGHUP', on('SIGHUP'));
  });
}

/** Runs serve mode; resolves with the exit code once stopped. */
export async function serveWorkspace(o: ServeWorkspaceOptions): Promise<number> {
  const log = o.log ?? ((s: string) => process.stdout.write(s + '\n'));
  // Listened for from the start: a signal as soon as the "serving at" line is out (a script, a
  // closing terminal) stops the server cleanly instead of killing the process with its lock held.
  const stop = o.until ?? signalled();
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
    // The lock is taken before what a crashed writer left is rolled back (before, the open rolled it back first: a
    // `qpairs stats` or another start could be recovering the same workspace meanwhile).
    opened = Engine.openLocked(o.workspace, { transport: 'http', resolveUpload: (id) => uploads.path(id), maxTrainings: o.maxTrainings, preloadIndex: true }, (ws) => {
      if (!ws.unrecoveredWrite) lock ??= takeLock();
      return lock !== null;
    });
    if (opened.ws.readonly) log(`note: workspace ${o.workspace} is read-only (${opened.ws.readonlyReason}); serving it read-only: labels and imports will be refused`);
    const upgraded = opened.ws.upgradeNote();
    if (upgraded) log(upgraded);
    for (const n of opened.ws.longWriteNotes('cli')) log(n.message);
    // An undo a crash or kill stopped partway: finished in the background, with requests answered meanwhile; the log says when it is done.
    const finishing = lock ? opened.finishInterruptedUndo() : null;
    if (finishing) {
      const engineNow = opened;
      const off = engineNow.on('job.done', (d) => {
        if (d.jobId !== finishing) return;
        off();
        if (d.ok && engineNow.ws.finishedUndo) log(finishedUndoNote(engineNow.ws.finishedUndo));
        else if (!d.cancelled) log(`note: finishing the interrupted undo failed: ${d.error ?? ''} (the next start tries again)`);
      });
    }
  } catch (e) {
    opened?.close();
    lock?.release();
    throw e;
  }
  const engine = opened;
  try {
    if ((o.tokens ?? []).length > 0) {
      log(
        'WARNING: --token puts secrets in the process list (ps) and in your shell history. ' +
          'Invite people instead (`qpairs annotators invite W NAME`, or the Team panel): tokens are then kept hashed in the workspace ' +
          'and can be revoked without a restart; or use --tokens-file FILE.',
      );
    }
    // Keyed in NFC, as the tokens' names are (parseTokenSpecs): a line's "Zoë" is the stored Zoë however each is spelled.
    const roles = new Map(engine.ws.listAnnotators().map((a) => [a.name.normalize('NFC'), a.role as string]));
    /** The in-memory tokens: --token values, then the lines of --tokens-file (read again when it changes). */
    const tokensFrom = (fileLines: Array<{ line: number; text: string }>): TokenMap => {
      // A line that is not NAME=SECRET may be a secret alone (or NAME SECRET): errors about the file's
      // lines name the line, never its text, since they go to the serve log on every reload.
      for (const spec of o.tokens ?? []) {
        if (!spec.includes('=')) throw new QPairsError(`--token ${spec}: a generated secret would have to be printed; invite ${spec} instead (\`qpairs annotators invite ${o.workspace} ${spec}\`)`);
        if (spec.slice(0, spec.indexOf('=')).trim() === '') throw new QPairsError('--token: a value has no name before "=": give NAME=SECRET');
      }
      for (const l of fileLines) {
        const eq = l.text.indexOf('=');
        if (eq < 0) throw new QPairsError(`--tokens-file line ${l.line}: no "=" (each line is NAME=SECRET; the line is not shown here, as it may hold a secret)`);
        if (l.text.slice(0, eq).trim() === '') throw new QPairsError(`--tokens-file line ${l.line}: no name before "=" (each line is NAME=SECRET)`);
      }
      const { tokens: parsed } = parseTokenSpecs([...(o.tokens ?? []), ...fileLines.map((l) => l.text)]);
      for (const name of Object.keys(parsed)) {
        // As for an invitation: a name lists would split (qpairs assign --annotators A,B) could sign in but never be assigned.
        try {
          checkNewPersonName(engine.ws, name);
        } catch (e) {
          throw new QPairsError(`--token ${name}=…: ${(e as Error).message}`);
        }
        // Read now, not at start: the file is read again while the workspace changes (a labels import makes "gold").
        const role = engine.ws.listAnnotators().find((a) => a.name === engine.ws.personName(name))?.role;
        if (name === 'gold') throw new QPairsError('--token gold: "gold" is the name imported gold labels go under, not a person; tokens are for people');
        if (role === 'gold' || role === 'system') throw new QPairsError(`--token ${name}: "${name}" is the workspace's ${role} annotator, not a person; tokens are for people`);
      }
      return parsed;
    };
    const fileLines = o.tokensFile ? readTokensFileLines(o.tokensFile) : [];
    const tokens = tokensFrom(fileLines);
    const team = teamMembers(engine.ws).filter((m) => m.invited !== null);
    // An empty --tokens-file may start the server (tokens are required, and lines added later let people in).
    if (!isLoopbackHost(host) && Object.keys(tokens).length === 0 && !hasLiveTokens(engine.ws) && o.tokensFile === undefined) {
      throw new QPairsError(
        `listening on ${host} needs tokens and no one is invited yet: run \`qpairs annotators invite ${o.workspace} NAME [--role owner|judge|annotator]\` ` +
          `for each person (it prints their link once), then serve again`,
      );
    }
    const server = await startServer({
      engine,
      port: o.port,
      host,
      tokens,
      // A tokens file asks for tokens even while it is empty: lines added later then sign people in.
      requireTokens: o.requireTokens || o.tokensFile !== undefined,
      staticDir: o.staticDir,
      maxUploadBytes: o.maxUploadBytes,
      uploads,
      log,
    });
    log(`QPairs serving ${o.workspace} at ${server.url}/`);
    const bases = reachableBases(host, server.port);
    if (bases.length > 1 || bases[0] !== server.url) log(`reachable at ${bases.map((b) => `${b}/`).join(', ')}`);
    // Names and roles only: a secret is shown once, when its person is invited, never in a log.
    const fromFile = new Set(fileLines.map((l) => l.text.slice(0, l.text.indexOf('=')).trim().normalize('NFC')));
    // One entry a person: someone with a workspace link and a server token is listed once, with both.
    const linked = new Map(team.map((m) => [m.name.normalize('NFC'), m.role]));
    const people = [
      ...team.filter((m) => !(m.name.normalize('NFC') in tokens)).map((m) => `${m.name} (${m.role})`),
      ...Object.keys(tokens).map((n) => {
        const how = fromFile.has(n) ? '--tokens-file' : '--token';
        return `${n} (${roles.get(n) ?? linked.get(n) ?? 'annotator'}, ${linked.has(n) ? `a workspace link and ${how}` : how})`;
      }),
    ];
    const signIn = people.length
      ? `people who can sign in: ${people.join(', ')}`
      : `no one can sign in yet${o.tokensFile ? ` (add NAME=SECRET lines to ${o.tokensFile}: the running server reads it again)` : ''}`;
    if (server.authRequired) {
      log(`tokens required; ${signIn}.`);
      log('invite, share links and revoke in the app (Pools → Team access, as an owner) or with the annotator.invite / annotator.revoke API; revocations apply at once.');
      if (!team.some((m) => m.role === 'owner') && !Object.keys(tokens).some((n) => roles.get(n) === 'owner')) {
        log(`note: no owner has a token, so no one can invite or revoke through the server: stop it and run \`qpairs annotators invite ${o.workspace} YOU --role owner\`.`);
      }
    } else {
      // Loopback without --require-tokens: no token is the owner, and links still sign their people in.
      log(`loopback: a caller without a token is the owner; ${people.length ? `people who can sign in with their links: ${people.join(', ')}` : 'no one is invited yet'}.`);
    }
    if (!isLoopbackHost(host)) log('note: plain HTTP — use it on a trusted network, or put it behind a TLS proxy.');
    engine.setServerTokenNames(Object.keys(tokens));
    const apply = (next: TokenMap): void => {
      server.setTokens(next);
      engine.setServerTokenNames(Object.keys(next));
    };
    const stopWatching = o.tokensFile
      ? watchTokensFile(o.tokensFile, tokens, tokensFrom, apply, log, (name) => hasLiveToken(engine.ws, engine.ws.personName(name)))
      : () => {};
    o.onListening?.(server);
    const why = await stop.finally(stopWatching);
    log(`stopping (${typeof why === 'string' ? why : 'done'})…`);
    await server.close();
    await cancelJobsOnStop(engine, log).settled;
    return 0;
  } finally {
    engine.close();
    uploads.clear();
    lock?.release();
  }
}

/** `--tokens-file`: one `NAME=SECRET` per line; blank lines and # comments skipped. */
export function readTokensFile(file: string): string[] {
  return readTokensFileLines(file).map((l) => l.text);
}

/** The lines of `--tokens-file` that hold tokens, with their line numbers (1-based). */
export function readTokensFileLines(file: string): Array<{ line: number; text: string }> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new QPairsError(`--tokens-file ${file}: ${cannotRead(e as NodeJS.ErrnoException)}`);
  }
  return text
    .split(/\r?\n/)
    .map((l, i) => ({ line: i + 1, text: l.trim() }))
    .filter((l) => l.text && !l.text.startsWith('#'));
}

/** How often a running server looks at its --tokens-file for changes (ms). */
export const TOKENS_FILE_POLL_MS = 500;

/**
 * Serve mode re-reads `--tokens-file` whenever it changes and then stays unchanged for a poll (stat
 * polling, so an editor that writes a new file and renames it over the old one is seen too): a removed line revokes that person at
 * once (next request 401, open event sockets closed), a new line lets them in, a changed secret
 * replaces theirs. A file that no longer parses changes nothing and is reported; a deleted file
 * revokes everyone it listed. A removed person who still has a workspace link (`hasLink`: a token of
 * the workspace's own, from an invitation) still signs in with it, and the log says so rather than
 * "revoked". Returns a function that stops watching.
 */
function watchTokensFile(
  file: string,
  initial: TokenMap,
  tokensFrom: (lines: Array<{ line: number; text: string }>) => TokenMap,
  apply: (next: TokenMap) => void,
  log: (line: string) => void,
  hasLink: (name: string) => boolean,
): () => void {
  let current = initial;
  const reload = (): void => {
    let next: TokenMap;
    try {
      next = tokensFrom(existsSync(file) ? readTokensFileLines(file) : []);
    } catch (e) {
      log(`--tokens-file ${file} changed but was not applied (the previous tokens still hold): ${(e as Error).message}`);
      return;
    }
    const removed = Object.keys(current).filter((n) => !(n in next));
    const added = Object.keys(next).filter((n) => !(n in current));
    const replaced = Object.keys(next).filter((n) => n in current && current[n] !== next[n]);
    if (!removed.length && !added.length && !replaced.length) return;
    current = next;
    apply(next);
    // Names only, never a secret. Someone whose line went but who holds a workspace link is not revoked: say so.
    const linked = removed.filter((n) => hasLink(n));
    const revoked = removed.filter((n) => !linked.includes(n));
    const parts = [
      added.length ? `added ${added.join(', ')}` : '',
      revoked.length ? `revoked ${revoked.join(', ')}` : '',
      ...linked.map(
        (n) => `${n}'s tokens-file token removed; ${n} still has a workspace link and can sign in with it (revoke it in Team access, or with annotator.revoke)`,
      ),
      replaced.length ? `new secret for ${replaced.join(', ')}` : '',
    ].filter(Boolean);
    log(`--tokens-file ${file}${existsSync(file) ? '' : ' was removed'}: ${parts.join('; ')}.`);
  };
  // Applied once the file has stayed as it is for two polls: a save that empties the file and then
  // writes it (`cat > F`, an editor writing in place) would otherwise revoke everyone for a moment,
  // closing their event sockets ("access ended" in their pages). Two polls, so that the poll seeing
  // the rewrite lands well before the settle timer even when a loaded machine runs timers late.
  let settle: NodeJS.Timeout | null = null;
  const onChange = (): void => {
    if (settle) clearTimeout(settle);
    settle = setTimeout(() => {
      settle = null;
      reload();
    }, 2 * TOKENS_FILE_POLL_MS + 100);
    settle.unref();
  };
  watchFile(file, { interval: TOKENS_FILE_POLL_MS, persistent: false }, onChange);
  return () => {
    if (settle) clearTimeout(settle);
    unwatchFile(file, onChange);
  };
}
