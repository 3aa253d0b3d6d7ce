/**
 * Issue 23, items 1 and 2 over the wire: people live in the workspace (invite → token works,
 * revoke → the next request and the open WebSocket are refused, a restart keeps tokens, no token
 * in the workspace file or its WAL, in a log or in app.info), and annotators work only where they
 * are assigned (an imported gold pool is closed to them).
 */
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Engine } from '../engine/engine';
import { Workspace } from '../workspace/workspace';
import { jobDone, teamEngine } from '../engine/test-team';
import { startServer, type RunningServer } from './server';
import { openUploadStore } from './uploads';
import { readTokensFile, serveWorkspace, type ServeWorkspaceOptions } from './cli-serve';
import type { AnnotatorInvitation, LabelRecord } from '../../shared/contract';

let dir: string;
let engine: Engine;
let server: RunningServer;

async function start(): Promise<void> {
  server = await startServer({ engine, port: 0, requireTokens: true, staticDir: dir, uploads: openUploadStore({}) });
}

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-team-'));
  engine = teamEngine(dir);
  await start();
});
afterEach(async () => {
  await server?.close();
  await engine.jobs.idle();
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(token: string | null, command: string, args: unknown = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const r = await fetch(`${server.url}/api/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ command, args }),
  });
  return { status: r.status, body: await r.json(), headers: r.headers };
}

/**
 * `serveWorkspace` in this process (port 0, static files from the test's folder) until `stop()`,
 * which resolves with its exit code; its server once listening, and its log lines.
 */
async function serveInProcess(o: Omit<ServeWorkspaceOptions, 'port' | 'staticDir' | 'log' | 'until' | 'onListening'>): Promise<{ server: RunningServer; lines: string[]; stop: () => Promise<number> }> {
  const lines: string[] = [];
  let running: RunningServer | null = null;
  let stop!: () => void;
  const done = serveWorkspace({ ...o, port: 0, staticDir: dir, log: (l) => lines.push(l), until: new Promise<void>((r) => (stop = r)), onListening: (s) => (running = s) });
  while (!running) await new Promise((r) => setTimeout(r, 20));
  return { server: running, lines, stop: () => (stop(), done) };
}

/** The owner's first token comes from the desktop side (the engine, as the local owner). */
async function ownerToken(): Promise<string> {
  const inv = (await engine.invoke('annotator.invite', { name: 'dave', role: 'owner' })) as AnnotatorInvitation;
  return inv.token;
}

function openSocket(token: string): Promise<{ ws: WebSocket; closed: Promise<number>; got: string[] }> {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/events?token=${encodeURIComponent(token)}`);
  const got: string[] = [];
  ws.on('message', (d) => got.push(String(d)));
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ ws, closed, got }));
    ws.on('error', reject);
  });
}

describe('people live in the workspace', () => {
  it('invite → the token works (once shown, with a link); tokens are required on this loopback server', async () => {
    const dave = await ownerToken();
    expect((await call(null, 'app.info')).status).toBe(401);
    const inv = await call(dave, 'annotator.invite', { name: 'erin' });
    expect(inv.status).toBe(200);
    expect(inv.body).toMatchObject({ name: 'erin', role: 'annotator', created: true, revokedEarlier: 0 });
    expect(inv.body.token).toMatch(/^qp_[\w-]{12}\.[\w-]{32}$/);
    expect(inv.body.link).toBe(`${server.url}/?token=${encodeURIComponent(inv.body.token)}#annotate`);
    const info = await call(inv.body.token, 'app.info');
    expect(info.body).toMatchObject({ annotator: 'erin', role: 'annotator', local: false });
    expect(JSON.stringify(info.body)).not.toContain(inv.body.token.split('.')[1]);
    // The team view shows state, never a secret.
    const team = await call(dave, 'annotator.team');
    expect(team.body.find((m: any) => m.name === 'erin')).toMatchObject({ role: 'annotator', revoked: null });
    expect(JSON.stringify(team.body)).not.toContain(inv.body.token.split('.')[1]);
    // Only owners invite; an annotator cannot mint tokens or list the team.
    expect((await call(inv.body.token, 'annotator.invite', { name: 'mallory', role: 'owner' })).status).toBe(403);
    expect((await call(inv.body.token, 'annotator.team')).status).toBe(403);
    // Re-inviting revokes the earlier token.
    const again = await call(dave, 'annotator.invite', { name: 'erin', role: 'judge' });
    expect(again.body).toMatchObject({ revokedEarlier: 1, created: false, role: 'judge' });
    // A judge's link opens Review (Annotate would only tell a judge to go there).
    expect(again.body.link).toBe(`${server.url}/?token=${encodeURIComponent(again.body.token)}#review`);
    expect((await call(inv.body.token, 'app.info')).status).toBe(401);
    expect((await call(again.body.token, 'app.info')).body.role).toBe('judge');
    // A new link without a role keeps the person's (before: the API's default made the judge an annotator).
    const third = await call(dave, 'annotator.invite', { name: 'erin' });
    expect(third.body).toMatchObject({ revokedEarlier: 1, created: false, role: 'judge' });
    expect((await call(third.body.token, 'app.info')).body.role).toBe('judge');
    expect(((await call(dave, 'annotator.list')).body as Array<{ name: string; role: string }>).find((p) => p.name === 'erin')?.role).toBe('judge');
    // A new person without a role is an annotator.
    expect((await call(dave, 'annotator.invite', { name: 'frank' })).body).toMatchObject({ created: true, role: 'annotator' });
    again.body.token = third.body.token;
    // The first page load with ?token= sets the cookie; a wrong token is refused.
    const page = await fetch(`${server.url}/?token=${encodeURIComponent(again.body.token)}`, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect((await fetch(`${server.url}/?token=qp_AAAAAAAAAAAA.${'B'.repeat(32)}`, { redirect: 'manual' })).status).toBe(401);
  });

  it('revoke → the next request is refused and the open WebSocket is closed; the role and labels stay', async () => {
    const dave = await ownerToken();
    const alice = (await call(dave, 'annotator.invite', { name: 'alice' })).body.token as string;
    expect((await call(alice, 'pool.list')).status).toBe(200);
    const sock = await openSocket(alice);
    const r = await call(dave, 'annotator.revoke', { name: 'alice' });
    expect(r.body).toEqual({ name: 'alice', revoked: 1 });
    expect(await sock.closed).toBe(4401);
    expect((await call(alice, 'pool.list')).status).toBe(401);
    expect((await call(alice, 'label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c1', annotator: 'alice', value: '0' })).status).toBe(401);
    // A new socket with the revoked token is refused at the upgrade.
    await expect(openSocket(alice)).rejects.toThrow(/401/);
    const team = (await call(dave, 'annotator.team')).body as Array<{ name: string; role: string; invited: string | null; revoked: string | null; labelEvents: number }>;
    const a = team.find((m) => m.name === 'alice')!;
    expect(a.role).toBe('annotator');
    expect(a.invited).toBeNull();
    expect(a.revoked).not.toBeNull();
    expect(a.labelEvents).toBeGreaterThan(0);
  });

  it('an owner signed in with a link cannot lock themself out: no demoting, revoking or replacing their own link; another owner can', async () => {
    const dave = await ownerToken();
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['annotator.setRole', { name: 'dave', role: 'annotator' }],
      ['annotator.setRole', { name: ' dave ', role: 'judge' }],
      ['annotator.add', { name: 'dave', role: 'judge' }],
      ['annotator.invite', { name: 'dave', role: 'annotator' }],
      ['annotator.invite', { name: 'dave', role: 'owner' }],
      ['annotator.revoke', { name: 'dave' }],
    ];
    for (const [command, args] of attempts) {
      const r = await call(dave, command, args);
      expect(r.status, `${command} ${JSON.stringify(args)}`).toBe(403);
      expect(r.body.message).toMatch(/"dave", that is (you|your own link).*another owner can do it in Team access/);
    }
    // Still the owner, with the same link; setting the role one has is no change and is fine.
    expect((await call(dave, 'app.info')).body).toMatchObject({ annotator: 'dave', role: 'owner' });
    expect((await call(dave, 'annotator.setRole', { name: 'dave', role: 'owner' })).status).toBe(200);
    expect((await call(dave, 'annotator.team')).body.find((m: any) => m.name === 'dave')).toMatchObject({ role: 'owner', revoked: null });
    // Another owner may do each of these to dave.
    const olga = (await call(dave, 'annotator.invite', { name: 'olga', role: 'owner' })).body.token as string;
    expect((await call(olga, 'annotator.setRole', { name: 'dave', role: 'judge' })).status).toBe(200);
    expect((await call(dave, 'app.info')).body).toMatchObject({ role: 'judge' });
    expect((await call(olga, 'annotator.revoke', { name: 'dave' })).body).toEqual({ name: 'dave', revoked: 1 });
    expect((await call(dave, 'app.info')).status).toBe(401);
  });

  it('a new person’s name with a comma, a semicolon, a control, invisible or text-direction character is refused (lists of names split there); a space is fine', async () => {
    const dave = await ownerToken();
    for (const [command, name, what] of [
      ['annotator.invite', 'Doe, Jane', '","'],
      ['annotator.add', 'ann;bob', '";"'],
      ['annotator.invite', 'a\nb', 'a control character'],
      ['annotator.add', 'a\u0000b', 'a control character'],
    ] as const) {
      const r = await call(dave, command, { name });
      expect(r.status, `${command} ${JSON.stringify(name)}`).toBe(422);
      expect(r.body.message).toBe(`${JSON.stringify(name)}: a name cannot hold ${what} (lists of names, as in qpairs assign --annotators A,B or Pools → Team, are split at commas and semicolons)`);
    }
    // Invisible and text-direction characters: a look-alike of alice, a name that reverses the text after it.
    for (const [command, name, code] of [
      ['annotator.invite', 'alice\u200b', 'U+200B'],
      ['annotator.invite', 'e\u202eve', 'U+202E'],
      ['annotator.add', '\u2066bob', 'U+2066'],
    ] as const) {
      const r = await call(dave, command, { name });
      expect(r.status, `${command} ${JSON.stringify(name)}`).toBe(422);
      expect(r.body.message).toBe(`${JSON.stringify(name)}: a name cannot hold an invisible or text-direction character (${code}): it would look like another name, or reorder the text shown around it`);
    }
    const names = ((await call(dave, 'annotator.list')).body as Array<{ name: string }>).map((p) => p.name);
    expect(names.filter((n) => /[,;\n\u0000\u200b\u202e\u2066]/.test(n))).toEqual([]);
    // Assigning a pool adds the names it does not know: the same rule (a line break and a zero-width space got in that way).
    for (const [name, what] of [
      ['bo\nb', 'a name cannot hold a control character'],
      ['alice\u200b', 'a name cannot hold an invisible or text-direction character (U+200B)'],
    ] as const) {
      const r = await call(dave, 'pool.assign', { pool: 'open', annotators: ['alice', name] });
      expect(r.status, `pool.assign ${JSON.stringify(name)}`).toBe(422);
      expect(r.body.message).toContain(`${JSON.stringify(name)}: ${what}`);
    }
    expect(((await call(dave, 'pool.assignment', { pool: 'open' })).body as { mode: string }).mode).toBe('open');
    // So does a first label under a new name (the owner may label under any name).
    const labeled = await call(dave, 'label.set', { pool: 'open', queryId: 'q1', candidateId: 'c1', annotator: 'ne\u202ew', value: '1' });
    expect(labeled.status).toBe(422);
    expect(labeled.body.message).toContain('a name cannot hold an invisible or text-direction character (U+202E)');
    const after = ((await call(dave, 'annotator.list')).body as Array<{ name: string }>).map((p) => p.name);
    expect(after.filter((n) => /[\n\u200b\u202e]/.test(n))).toEqual([]);
    // Joiners some scripts' names need are kept.
    expect((await call(dave, 'annotator.invite', { name: 'می\u200cخواهم' })).status).toBe(200);
    expect((await call(dave, 'annotator.invite', { name: 'Jane Doe' })).status).toBe(200);
  });

  it('a new link (invite again) closes the sockets opened with the earlier one, not those of the new one', async () => {
    const dave = await ownerToken();
    const first = (await call(dave, 'annotator.invite', { name: 'bob' })).body.token as string;
    const old = await openSocket(first);
    const second = (await call(dave, 'annotator.invite', { name: 'bob' })).body.token as string;
    expect(await Promise.race([old.closed, new Promise((r) => setTimeout(() => r('still open'), 2000))])).toBe(4401);
    expect((await call(first, 'pool.list')).status).toBe(401);
    // The new link's socket stays open across a third invitation of someone else.
    const fresh = await openSocket(second);
    await call(dave, 'annotator.invite', { name: 'erin' });
    await call(second, 'label.set', { pool: 'open', queryId: 'q1', candidateId: 'c1', annotator: 'bob', value: '2' });
    await new Promise((r) => setTimeout(r, 100));
    expect(fresh.ws.readyState).toBe(WebSocket.OPEN);
    expect(fresh.got.some((f) => f.includes('label.changed'))).toBe(true);
    fresh.ws.close();
  });

  it('a restart keeps tokens; neither the workspace file nor its WAL ever holds a token', async () => {
    const dave = await ownerToken();
    const bob = (await call(dave, 'annotator.invite', { name: 'bob' })).body.token as string;
    await call(bob, 'label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c1', annotator: 'bob', value: '2' });
    const file = engine.ws.path;
    const secrets = [dave, bob].map((t) => t.split('.')[1]!);
    const scan = (): string[] => {
      const hits: string[] = [];
      for (const f of [file, `${file}-wal`, `${file}-shm`]) {
        if (!existsSync(f)) continue;
        const bytes = readFileSync(f);
        for (const s of secrets) if (bytes.includes(Buffer.from(s)) || bytes.includes(Buffer.from(encodeURIComponent(s)))) hits.push(`${path.basename(f)}: ${s}`);
      }
      return hits;
    };
    expect(existsSync(`${file}-wal`)).toBe(true);
    expect(scan()).toEqual([]);
    await server.close();
    engine.close();
    expect(scan()).toEqual([]);
    engine = Engine.open(file, { transport: 'http' });
    await start();
    expect((await call(bob, 'app.info')).body.annotator).toBe('bob');
    expect((await call(dave, 'app.info')).body.role).toBe('owner');
    expect(scan()).toEqual([]);
  });

  it('serve: no secret in its log; --token warns loudly; --tokens-file is the quiet alternative', async () => {
    const dave = await ownerToken();
    await server.close();
    engine.close();
    const file = path.join(dir, 'w.qpairs');
    const tokensFile = path.join(dir, 'tokens.txt');
    writeFileSync(tokensFile, '# people held in memory\nzoe=zoe-secret-123456\n');
    for (const extra of [{ tokens: ['yan=yan-secret-123456'] }, { tokensFile }]) {
      const { server: srv, lines, stop } = await serveInProcess({ workspace: file, host: '127.0.0.1', ...extra });
      const who = 'tokens' in extra ? 'yan=yan-secret-123456' : 'zoe=zoe-secret-123456';
      const [name, secret] = who.split('=') as [string, string];
      const r = await fetch(`${srv.url}/api/invoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${secret}` },
        body: JSON.stringify({ command: 'app.info', args: {} }),
      });
      expect((await r.json()).annotator).toBe(name);
      const r2 = await fetch(`${srv.url}/api/invoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${dave}` },
        body: JSON.stringify({ command: 'app.info', args: {} }),
      });
      expect((await r2.json()).role).toBe('owner');
      expect(await stop()).toBe(0);
      const log = lines.join('\n');
      expect(log).not.toContain(secret);
      expect(log).not.toContain(dave.split('.')[1]!);
      expect(log).toContain('dave (owner)');
      if ('tokens' in extra) expect(log).toMatch(/WARNING: --token puts secrets in the process list/);
      else expect(log).not.toMatch(/WARNING/);
    }
    engine = Engine.open(file, { transport: 'http' });
    await start();
  });

  it('a --tokens-file that cannot be read is said in words, naming the flag', () => {
    expect(() => readTokensFile(path.join(dir, 'missing.txt'))).toThrow(`--tokens-file ${path.join(dir, 'missing.txt')}: cannot read the file: no such file (ENOENT)`);
    expect(() => readTokensFile(dir)).toThrow(`--tokens-file ${dir}: cannot read the file: is a folder, not a file (EISDIR)`);
  });

  it('a new link for a tokens-file person (owner invites them twice) ends the earlier link, not their tokens-file token', async () => {
    const dave = await ownerToken();
    await server.close();
    engine.close();
    const file = path.join(dir, 'w.qpairs');
    const tokensFile = path.join(dir, 'tokens.txt');
    writeFileSync(tokensFile, 'fred=fred-secret-123456\n');
    const { server: srv, stop } = await serveInProcess({ workspace: file, host: '127.0.0.1', tokensFile });
    const url = srv.url;
    const as = async (token: string, command: string, args: unknown = {}): Promise<{ status: number; body: any }> => {
      const r = await fetch(`${url}/api/invoke`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${token}` }, body: JSON.stringify({ command, args }) });
      return { status: r.status, body: await r.json() };
    };
    expect((await as('fred-secret-123456', 'app.info')).body.annotator).toBe('fred');
    const first = await as(dave, 'annotator.invite', { name: 'fred' });
    const second = await as(dave, 'annotator.invite', { name: 'fred' });
    expect(second.body.revokedEarlier).toBe(1);
    expect((await as(first.body.token, 'app.info')).status).toBe(401);
    expect((await as(second.body.token, 'app.info')).body.annotator).toBe('fred');
    // The file's line still signs fred in (before: 401 until the file next changed).
    expect((await as('fred-secret-123456', 'app.info')).body.annotator).toBe('fred');
    expect(await stop()).toBe(0);
    engine = Engine.open(file, { transport: 'http' });
    await start();
  });

  it('off loopback, an empty --tokens-file starts the server with tokens required (lines added later let people in)', async () => {
    await server.close();
    engine.close();
    const file = path.join(dir, 'fresh.qpairs');
    Workspace.create(file).close();
    const tokensFile = path.join(dir, 'empty-tokens.txt');
    writeFileSync(tokensFile, '# people, one NAME=SECRET a line\n');
    const { server: srv, lines, stop } = await serveInProcess({ workspace: file, host: '0.0.0.0', tokensFile });
    const r = await fetch(`http://127.0.0.1:${srv.port}/api/invoke`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-QPairs': '1' }, body: JSON.stringify({ command: 'app.info', args: {} }) });
    expect(r.status).toBe(401);
    expect(lines.join('\n')).toContain(`tokens required; no one can sign in yet (add NAME=SECRET lines to ${tokensFile}: the running server reads it again).`);
    expect(await stop()).toBe(0);
    // Without a tokens file, no one invited: still refused, saying how to invite.
    await expect(serveWorkspace({ workspace: file, port: 0, host: '0.0.0.0', staticDir: dir, log: () => {}, until: Promise.resolve() })).rejects.toThrow(/needs tokens and no one is invited yet/);
    engine = Engine.open(path.join(dir, 'w.qpairs'), { transport: 'http' });
    await start();
  });

  it('a tokens-file line that is not NAME=SECRET is refused by its line number, its text (perhaps a secret) never shown', async () => {
    await server.close();
    engine.close();
    const file = path.join(dir, 'w.qpairs');
    const tokensFile = path.join(dir, 'tokens.txt');
    const secret = 'Zq9-very-secret-value';
    for (const [content, why] of [
      [`# team\nbob=bob-secret-123456\nalice ${secret}\n`, 'line 3: no "="'],
      [`alice: ${secret}\n`, 'line 1: no "="'],
      [`${secret}\n`, 'line 1: no "="'],
      [`bob=bob-secret-123456\n=${secret}\n`, 'line 2: no name before "="'],
    ]) {
      writeFileSync(tokensFile, content);
      const err = await serveWorkspace({ workspace: file, port: 0, staticDir: dir, tokensFile, log: () => {}, until: Promise.resolve() }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toContain(`--tokens-file ${why}`);
      expect(err?.message).not.toContain(secret);
    }
    const bare = await serveWorkspace({ workspace: file, port: 0, staticDir: dir, tokens: [`=${secret}`], log: () => {}, until: Promise.resolve() }).then(
      () => null,
      (e: Error) => e,
    );
    expect(bare?.message).toBe('--token: a value has no name before "=": give NAME=SECRET');
    engine = Engine.open(file, { transport: 'http' });
    await start();
  });

  it('a --tokens-file or --token name that lists would split is refused, as an invitation of it is', async () => {
    await server.close();
    engine.close();
    const file = path.join(dir, 'w.qpairs');
    const tokensFile = path.join(dir, 'tokens.txt');
    for (const [name, bad] of [
      ['x,y', '","'],
      ['a;b', '";"'],
    ]) {
      writeFileSync(tokensFile, `${name}=secret-secret-123\n`);
      for (const extra of [{ tokensFile }, { tokens: [`${name}=secret-secret-123`] }]) {
        await expect(serveWorkspace({ workspace: file, port: 0, staticDir: dir, ...extra, log: () => {}, until: Promise.resolve() })).rejects.toThrow(
          `--token ${name}=…: ${JSON.stringify(name)}: a name cannot hold ${bad} (lists of names, as in qpairs assign --annotators A,B or Pools → Team, are split at commas and semicolons)`,
        );
      }
    }
    engine = Engine.open(file, { transport: 'http' });
    await start();
  });

  it('serve on loopback without --require-tokens lists who can sign in with a link (names and roles, no secret)', async () => {
    const dave = await ownerToken();
    const erin = (await engine.invoke('annotator.invite', { name: 'erin' })) as AnnotatorInvitation;
    await server.close();
    engine.close();
    const file = path.join(dir, 'w.qpairs');
    const { server: srv, lines, stop } = await serveInProcess({ workspace: file, host: '127.0.0.1' });
    // Links still sign their people in on this server.
    const r = await fetch(`${srv.url}/api/health`, { headers: { Authorization: `Bearer ${erin.token}` } });
    expect((await r.json()).annotator).toBe('erin');
    expect(await stop()).toBe(0);
    const log = lines.join('\n');
    expect(log).toContain('loopback: a caller without a token is the owner; people who can sign in with their links: dave (owner), erin (annotator).');
    for (const t of [dave, erin.token]) expect(log).not.toContain(t.split('.')[1]!);
    engine = Engine.open(file, { transport: 'http' });
    await start();
  });
  it('a person with both a workspace link and a --tokens-file line is listed once in the start-up log, with both ways in', async () => {
    const dave = await ownerToken();
    await engine.invoke('annotator.invite', { name: 'erin' });
    await server.close();
    engine.close();
    const file = path.join(dir, 'w.qpairs');
    const tokensFile = path.join(dir, 'tokens.txt');
    writeFileSync(tokensFile, 'erin=erin-file-secret-123\nfrank=frank-file-secret-123\n');
    const { lines, stop } = await serveInProcess({ workspace: file, host: '127.0.0.1', tokensFile });
    expect(await stop()).toBe(0);
    const log = lines.join('\n');
    expect(log).toContain('people who can sign in: dave (owner), erin (annotator, a workspace link and --tokens-file), frank (annotator, --tokens-file).');
    for (const secret of [dave.split('.')[1]!, 'erin-file-secret-123', 'frank-file-secret-123']) expect(log).not.toContain(secret);
    engine = Engine.open(file, { transport: 'http' });
    await start();
  });

  it('a --tokens-file line names a person stored in another Unicode form (NFC vs NFD) as that person: listed once with their role, not revoked while they keep their link', async () => {
    const NFD = 'Zoe\u0308';
    const NFC = 'Zo\u00eb';
    const dave = await ownerToken();
    // Zoë was stored (decomposed) before names were stored in NFC; she is a judge with a workspace link.
    engine.ws.stmt(`INSERT INTO annotators(name, role, created) VALUES (?, 'judge', ?)`).run(NFD, new Date().toISOString());
    await engine.invoke('annotator.invite', { name: NFC });
    await server.close();
    engine.close();
    const file = path.join(dir, 'w.qpairs');
    const tokensFile = path.join(dir, 'tokens.txt');
    writeFileSync(tokensFile, `${NFC}=zoe-file-secret-1234\n`);
    const { server: srv, lines, stop } = await serveInProcess({ workspace: file, host: '127.0.0.1', tokensFile });
    const revoke = await fetch(`${srv.url}/api/invoke`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${dave}` }, body: JSON.stringify({ command: 'annotator.revoke', args: { name: NFD } }) });
    expect((await revoke.json()).message).toMatch(/signs in with a token the server was started with .*; then revoke their link here too$/);
    expect(lines.join('\n')).toContain(`people who can sign in: dave (owner), ${NFC} (judge, a workspace link and --tokens-file).`);
    // Her line goes: she still has her link, and the log says so rather than "revoked".
    writeFileSync(tokensFile, '');
    for (let i = 0; i < 400 && !lines.some((l) => l.includes('tokens-file token removed')) && !lines.some((l) => l.includes('revoked')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(lines.at(-1)).toContain(`${NFC}'s tokens-file token removed; ${NFC} still has a workspace link`);
    expect(await stop()).toBe(0);
    engine = Engine.open(file, { transport: 'http' });
    await start();
  });
});

describe('annotators work only where they are assigned', () => {
  it('alice (assigned "sealed" only) never sees an imported gold pool and gets 404 labeling it, as for a pool that does not exist; bob, not assigned, loses "sealed"', async () => {
    const labels = path.join(dir, 'gold.csv');
    writeFileSync(labels, 'query_id,candidate_id,annotator,label\nq1,c1,gold,1\nq1,c2,gold,0\nq2,c3,gold,1\n');
    const { jobId } = (await engine.invoke('import.start', { format: 'labels-csv', sources: [{ path: labels }], pool: 'gold1', scheme: 'binary' })) as { jobId: string };
    expect((await jobDone(engine, jobId)).ok).toBe(true);
    await engine.invoke('pool.assign', { pool: 'sealed', annotators: ['alice'] });
    const dave = await ownerToken();
    const alice = (await call(dave, 'annotator.invite', { name: 'alice' })).body.token as string;
    const bob = (await call(dave, 'annotator.invite', { name: 'bob' })).body.token as string;

    const names = async (t: string): Promise<string[]> => ((await call(t, 'pool.list')).body as Array<{ name: string }>).map((p) => p.name).sort();
    expect(await names(dave)).toEqual(['gold1', 'open', 'sealed']);
    expect(await names(alice)).toEqual(['open', 'sealed']);
    expect(await names(bob)).toEqual(['open']);

    const events = await openSocket(alice);
    for (const [command, args] of [
      ['label.set', { pool: 'gold1', queryId: 'q1', candidateId: 'c1', annotator: 'alice', value: '1' }],
      ['annotate.query', { pool: 'gold1', annotator: 'alice' }],
      ['annotate.queries', { pool: 'gold1', annotator: 'alice' }],
      ['annotate.navigate', { pool: 'gold1', annotator: 'alice', from: 'q1', direction: 'next' }],
      ['pool.progress', { pool: 'gold1' }],
      ['pool.assignment', { pool: 'gold1' }],
    ] as const) {
      // A pool closed to her answers as one that does not exist (same status, same words): she cannot probe names.
      const r = await call(alice, command, args);
      const missing = await call(alice, command, { ...args, pool: 'gold2' });
      expect([command, r.status, r.body]).toEqual([command, 404, JSON.parse(JSON.stringify(missing.body).replaceAll('gold2', 'gold1'))]);
      expect(r.body.message).toBe('no pool named "gold1"');
    }
    const bobs = await call(bob, 'label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c1', annotator: 'bob', value: '1' });
    expect([bobs.status, bobs.body.message]).toEqual([404, 'no pool named "sealed"']);
    // Browse's pool filter (question.show) lists only her pools; the gold pool's label events never reach her.
    const shown = (await call(alice, 'question.show', { id: 'q1' })).body as { pools: Array<{ pool: string }> };
    expect([...new Set(shown.pools.map((p) => p.pool))].sort()).toEqual(['open', 'sealed']);
    await engine.invoke('label.set', { pool: 'gold1', queryId: 'q1', candidateId: 'c1', annotator: 'gold', value: '0' });
    const ack = (await call(alice, 'label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c1', annotator: 'alice', value: '3' })).body as { record: LabelRecord };
    await new Promise((r) => setTimeout(r, 100));
    const pools = events.got.map((g) => JSON.parse(g)).filter((e) => e.event === 'label.changed').map((e) => e.payload.pool);
    expect(pools).toEqual([ack.record.pool]);
    // Her event comes numbered as her answer was: by her own count (own-seq.ts), not the workspace's.
    const seqs = events.got.map((g) => JSON.parse(g)).filter((e) => e.event === 'label.changed').map((e) => e.payload.seq);
    expect(seqs).toEqual([ack.record.seq]);
    expect(ack.record.seq).toBeLessThan((engine.ws.stmt(`SELECT max(seq) AS m FROM labels`).get() as { m: number }).m);
    events.ws.close();

    // Once the owner assigns the gold pool to her, she works there.
    await call(dave, 'pool.assign', { pool: 'gold1', annotators: ['alice'] });
    expect(await names(alice)).toEqual(['gold1', 'open', 'sealed']);
    expect((await call(alice, 'label.set', { pool: 'gold1', queryId: 'q1', candidateId: 'c1', annotator: 'alice', value: '1' })).status).toBe(200);
  });

  it('annotator.list gives an annotator herself and those whose labels she may see (open pools of hers), never the whole team', async () => {
    // frank labels only the blind pool; erin is invited and has labeled nothing; dave owns the workspace.
    engine.ws.ensureAnnotator('frank', 'annotator');
    engine.ws.addLabel({ pool: 'sealed', queryId: 'q1', candidateId: 'c1', annotator: 'frank', value: '2', origin: 'test' });
    const dave = await ownerToken();
    await call(dave, 'annotator.invite', { name: 'erin', role: 'judge' });
    const alice = (await call(dave, 'annotator.invite', { name: 'alice' })).body.token as string;
    const listed = async (t: string): Promise<string[]> => {
      const r = await call(t, 'annotator.list');
      expect(r.status).toBe(200);
      return (r.body as Array<{ name: string }>).map((p) => p.name).sort();
    };
    expect(await listed(dave)).toEqual(['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gold']);
    // Pool "open" shows her bob's, carol's and gold's labels: those are label sources she may evaluate.
    expect(await listed(alice)).toEqual(['alice', 'bob', 'carol', 'gold']);
    // Once "open" is blind too, she is listed alone.
    await call(dave, 'pool.set', { pool: 'open', blind: true });
    expect(await listed(alice)).toEqual(['alice']);
    // An open pool not hers (assigned to bob only) shows her no one either.
    await call(dave, 'pool.set', { pool: 'open', blind: false });
    await call(dave, 'pool.assign', { pool: 'open', annotators: ['bob'] });
    expect(await listed(alice)).toEqual(['alice']);
  });

  it("annotator.list gives an annotator her own role and a label source's, not another person's (it said carol was the judge)", async () => {
    const dave = await ownerToken();
    const alice = (await call(dave, 'annotator.invite', { name: 'alice' })).body.token as string;
    const judge = (await call(dave, 'annotator.invite', { name: 'carol', role: 'judge' })).body.token as string;
    const list = async (t: string): Promise<Array<{ name: string; role?: string }>> => {
      const r = await call(t, 'annotator.list');
      expect(r.status).toBe(200);
      return (r.body as Array<{ name: string; role?: string }>).sort((a, b) => a.name.localeCompare(b.name));
    };
    // Pool "open" shows her bob's, carol's and gold's labels: she is shown them, carol's role (judge) left out.
    expect(await list(alice)).toEqual([{ name: 'alice', role: 'annotator' }, { name: 'bob' }, { name: 'carol' }, { name: 'gold', role: 'gold' }]);
    // Judges and the owner are given everyone's role, as before.
    for (const t of [judge, dave]) {
      expect((await list(t)).map((p) => [p.name, p.role])).toEqual([
        ['alice', 'annotator'],
        ['bob', 'annotator'],
        ['carol', 'judge'],
        ['dave', 'owner'],
        ['gold', 'gold'],
      ]);
    }
  });

  it('assigning a judge as an annotator says what it means and keeps the judge role', async () => {
    const r = (await engine.invoke('pool.assign', { pool: 'open', annotators: ['alice', 'carol'] })) as { notes?: string[]; annotators: string[] };
    expect(r.annotators).toEqual(['alice', 'carol']);
    // bob, who labeled the open pool, is left out of this assignment: said too (team/assign-notes.test.ts).
    // carol's labels there, given as its judge, vote from now on: said too.
    expect(r.notes).toEqual([
      expect.stringMatching(/^carol is a judge and stays one: .* does not label blind/),
      expect.stringMatching(/^carol \(4 labels\) labeled this pool before being assigned to it \(a judge: rulings\): those labels now count as votes/),
      expect.stringMatching(/^bob \(6 labels\) is no longer one of this pool's annotators/),
    ]);
    expect(((await engine.invoke('annotator.list', {})) as Array<{ name: string; role: string }>).find((a) => a.name === 'carol')!.role).toBe('judge');
  });
});

describe('a loopback server without required tokens', () => {
  it('is the owner for a caller without a token, but a token (link, cookie, header) makes the caller its person; a wrong one is refused; ?signout drops the cookie', async () => {
    await server.close();
    server = await startServer({ engine, port: 0, staticDir: dir, uploads: openUploadStore({}) });
    expect(server.authRequired).toBe(false);
    await engine.invoke('pool.assign', { pool: 'sealed', annotators: ['alice'] });
    const alice = ((await engine.invoke('annotator.invite', { name: 'alice' })) as AnnotatorInvitation).token;
    const names = async (t: string | null): Promise<string[]> => ((await call(t, 'pool.list')).body as Array<{ name: string }>).map((p) => p.name).sort();
    expect(await names(null)).toEqual(['open', 'sealed']);
    expect((await call(null, 'app.info')).body).toMatchObject({ annotator: null, local: true });
    // Her link on this machine: her pools and her rights, not the owner's.
    expect((await call(alice, 'app.info')).body).toMatchObject({ annotator: 'alice', role: 'annotator', local: false });
    expect(await names(alice)).toEqual(['open', 'sealed']);
    expect((await call(alice, 'annotator.team')).status).toBe(403);
    expect((await call('qp_wrong.token', 'app.info')).status).toBe(401);
    // The link's first load sets the cookie and drops the token from the address bar, as in token mode.
    const first = await fetch(`${server.url}/?token=${encodeURIComponent(alice)}`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    const asCookie = await fetch(`${server.url}/api/invoke`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Cookie: cookie }, body: JSON.stringify({ command: 'app.info', args: {} }) });
    expect(await asCookie.json()).toMatchObject({ annotator: 'alice', local: false });
    // Her events socket is hers too.
    const events = await openSocket(alice);
    events.ws.close();
    const out = await fetch(`${server.url}/?signout`, { redirect: 'manual', headers: { Cookie: cookie } });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    // A revoked token is refused, never turned into the owner; its page load says how to be the owner here.
    await engine.invoke('annotator.revoke', { name: 'alice' });
    expect((await call(alice, 'pool.list')).status).toBe(401);
    const page = await fetch(`${server.url}/`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(401);
    expect(await page.text()).toMatch(/This link no longer works[\s\S]*href="\/\?signout"/);
  });
});
