import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ContractError, parseArgs, isCommandName, type EventName } from '../../shared/contract';
import { QPairsError } from '../errors';
import { EventHub } from '../engine/events';
import { CSP_HEADER } from './csp';
import { jsonNestsDeeperThan, KEEP_ALIVE_MS, MAX_JSON_DEPTH, startServer, type RunningServer, type ServeCaller, type ServeEngine } from './server';
import { uploadPath } from './uploads';

/** A fake engine: validates with the real contract, records calls, answers canned results. */
class FakeEngine implements ServeEngine {
  readonly hub = new EventHub();
  calls: Array<{ command: unknown; args: unknown; ctx: Omit<ServeCaller, 'signal'> | undefined }> = [];
  /** Events each caller may see: all for the owner (no token); label.changed only for "alice" otherwise. */
  canSee(caller: ServeCaller, event: EventName): boolean {
    return caller.annotator === null || (event === 'label.changed' && caller.annotator === 'alice');
  }
  async invoke(command: unknown, args: unknown, ctx?: ServeCaller): Promise<unknown> {
    this.calls.push({ command, args, ctx: ctx && { annotator: ctx.annotator, local: ctx.local } });
    if (!isCommandName(command)) throw new ContractError(`unknown command: ${String(command)}`, 'invalid-argument');
    const a = parseArgs(command, args) as Record<string, unknown>;
    if (command === 'pool.progress' && a.pool === 'missing') throw new QPairsError('pool "missing" does not exist');
    if (command === 'pool.progress' && a.pool === 'boom') throw new Error('kaboom');
    if (command === 'app.info') return { transport: 'http', annotator: ctx?.annotator ?? null };
    if (command === 'annotate.navigate') return null;
    return { ok: true, command };
  }
  emit(event: EventName, payload: unknown): void {
    this.hub.emit(event, payload as never);
  }
}

let staticDir: string;
beforeAll(() => {
  staticDir = mkdtempSync(path.join(tmpdir(), 'qpairs-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
});
afterAll(() => rmSync(staticDir, { recursive: true, force: true }));

const running: RunningServer[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.close();
});

async function serve(opts: Partial<Parameters<typeof startServer>[0]> = {}): Promise<{ s: RunningServer; engine: FakeEngine }> {
  const engine = new FakeEngine();
  const s = await startServer({ engine, port: 0, staticDir, ...opts });
  running.push(s);
  return { s, engine };
}

interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Raw HTTP (lets tests set Host/Origin, which fetch forbids). */
function request(url: string, o: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: o.method ?? 'GET', headers: o.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

const API = { 'Content-Type': 'application/json', 'X-QPairs': '1' };
const invoke = (s: RunningServer, command: string, args: unknown, headers: Record<string, string> = {}): Promise<Res> =>
  request(`${s.url}/api/invoke`, { method: 'POST', headers: { ...API, ...headers }, body: JSON.stringify({ command, args }) });

describe('POST /api/invoke', () => {
  it('answers a valid command with its result', async () => {
    const { s, engine } = await serve();
    const r = await invoke(s, 'workspace.stats', {});
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ ok: true, command: 'workspace.stats' });
    expect(engine.calls[0]!.ctx).toEqual({ annotator: null, local: true });
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('sends null for a null result', async () => {
    const { s } = await serve();
    const r = await invoke(s, 'annotate.navigate', { pool: 'p', annotator: 'a', from: 'q', direction: 'next' });
    expect(r.status).toBe(200);
    expect(r.body).toBe('null');
  });

  it('turns validation errors into 400 with a WireError', async () => {
    const { s } = await serve();
    const r = await invoke(s, 'pool.create', { name: '' });
    expect(r.status).toBe(400);
    const w = JSON.parse(r.body);
    expect(w.code).toBe('invalid-argument');
    expect(w.message).toMatch(/invalid arguments for pool\.create/);
  });

  it('rejects unknown commands, bad JSON and bad shapes with 400', async () => {
    const { s } = await serve();
    expect((await invoke(s, 'rm -rf', {})).status).toBe(400);
    const bad = await request(`${s.url}/api/invoke`, { method: 'POST', headers: API, body: '{nope' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).code).toBe('invalid-argument');
    const shape = await request(`${s.url}/api/invoke`, { method: 'POST', headers: API, body: '[1,2]' });
    expect(shape.status).toBe(400);
  });

  it('maps engine errors: user-error 422, internal 500', async () => {
    const { s } = await serve();
    const u = await invoke(s, 'pool.progress', { pool: 'missing' });
    expect(u.status).toBe(422);
    expect(JSON.parse(u.body)).toEqual({ code: 'user-error', message: 'pool "missing" does not exist' });
    const i = await invoke(s, 'pool.progress', { pool: 'boom' });
    expect(i.status).toBe(500);
    expect(JSON.parse(i.body).code).toBe('internal');
  });

  it('requires the X-QPairs header and a JSON content type (no cross-site simple requests)', async () => {
    const { s } = await serve();
    const noHeader = await request(`${s.url}/api/invoke`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"command":"app.info"}' });
    expect(noHeader.status).toBe(400);
    const textPlain = await request(`${s.url}/api/invoke`, { method: 'POST', headers: { 'Content-Type': 'text/plain', 'X-QPairs': '1' }, body: '{"command":"app.info"}' });
    expect(textPlain.status).toBe(415);
    const get = await request(`${s.url}/api/invoke`);
    expect(get.status).toBe(405);
  });

  it('refuses a foreign Origin and a non-loopback Host header (DNS rebinding)', async () => {
    const { s } = await serve();
    const foreign = await invoke(s, 'app.info', {}, { Origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    const same = await invoke(s, 'app.info', {}, { Origin: s.url });
    expect(same.status).toBe(200);
    const rebind = await request(`${s.url}/`, { headers: { Host: `evil.example:${s.port}` } });
    expect(rebind.status).toBe(403);
  });

  it('caps the JSON body', async () => {
    const { s } = await serve({ maxJsonBytes: 100 });
    const r = await invoke(s, 'pool.create', { name: 'x'.repeat(200), sample: { n: 1, seed: 1 } });
    expect(r.status).toBe(413);
  });

  it('refuses a body nested deeper than MAX_JSON_DEPTH before parsing it; brackets inside strings do not count', async () => {
    const { s, engine } = await serve();
    const post = (body: string): Promise<Res> =>
      request(`${s.url}/api/invoke`, { method: 'POST', headers: { 'X-QPairs': '1', 'Content-Type': 'application/json' }, body });
    const n = 200_000;
    const deep = await post(`{"command":"workspace.stats","args":{"x":${'['.repeat(n)}${']'.repeat(n)}}}`);
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.body)).toMatchObject({ code: 'invalid-argument', message: expect.stringMatching(/nests deeper than 32/) });
    expect(engine.calls).toHaveLength(0);
    const nested = (d: number): string => '['.repeat(d) + ']'.repeat(d);
    expect((await post(`{"command":"workspace.stats","args":{"x":${nested(MAX_JSON_DEPTH - 2)}}}`)).status).toBe(200);
    expect((await post(`{"command":"workspace.stats","args":{"x":${nested(MAX_JSON_DEPTH - 1)}}}`)).status).toBe(400);
    expect((await post(`{"command":"workspace.stats","args":{"x":"${'[{'.repeat(1000)}\\\"[["}}`)).status).toBe(200);
    // An escaped backslash ends before the closing quote: the brackets after it count.
    expect(jsonNestsDeeperThan(Buffer.from('{"a":"\\\\","b":[[]]}'), 2)).toBe(true);
    expect(jsonNestsDeeperThan(Buffer.from('{"a":"\\\\","b":[[]]}'), 3)).toBe(false);
  });

  it('never sends CORS headers, always the security headers', async () => {
    const { s } = await serve();
    const r = await invoke(s, 'app.info', {}, { Origin: s.url });
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    expect(r.headers['content-security-policy']).toBe(CSP_HEADER);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    const pre = await request(`${s.url}/api/invoke`, { method: 'OPTIONS', headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(pre.status).toBe(403);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('an unbuilt app (a fresh npm install: `npx qpairs serve W` before `npm run build`, as the README says)', () => {
  it('answers the API, and the page says how to build the app; the log warns once', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'qpairs-unbuilt-'));
    try {
      const logged: string[] = [];
      const { s } = await serve({ staticDir: empty, log: (m: string) => logged.push(m) });
      expect(logged.filter((m) => m.includes('run `npm run build` first. The API works.'))).toHaveLength(1);
      expect((await invoke(s, 'workspace.stats', {})).status).toBe(200);
      const page = await request(`${s.url}/`);
      expect(page.status).toBe(404);
      expect(page.body).toBe('The app is not built: run `npm run build` (or `npm run serve`, which builds it), then reload.');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('keep-alive', () => {
  it('an idle connection is still there after 6 s (Node closes it at 5 s, and a client reusing it then gets a reset)', async () => {
    expect(KEEP_ALIVE_MS).toBeGreaterThanOrEqual(20_000);
    const { s } = await serve();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const once = (): Promise<{ status: number; reused: boolean }> =>
      new Promise((resolve, reject) => {
        const req = http.request(`${s.url}/api/invoke`, { method: 'POST', agent, headers: API }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ command: 'pool.list', args: {} }));
      });
    expect(await once()).toEqual({ status: 200, reused: false });
    await new Promise((r) => setTimeout(r, 6_000));
    expect(await once()).toEqual({ status: 200, reused: true });
    agent.destroy();
  }, 15_000);
});

describe('static files', () => {
  it('serves index.html with the CSP and refuses path traversal', async () => {
    const { s } = await serve();
    const r = await request(`${s.url}/`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/text\/html/);
    expect(r.headers['content-security-policy']).toBe(CSP_HEADER);
    expect(r.headers['x-frame-options']).toBe('DENY');
    const js = await request(`${s.url}/assets/app.js`);
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toMatch(/immutable/);
    for (const p of ['/../package.json', '/%2e%2e/%2e%2e/etc/passwd', '/assets/../../x', '/nope.html']) {
      expect((await request(`${s.url}${p}`)).status).toBe(404);
    }
  });
});

describe('tokens', () => {
  it('will not listen off loopback without tokens', async () => {
    await expect(startServer({ engine: new FakeEngine(), port: 0, host: '0.0.0.0', staticDir })).rejects.toThrow(/without tokens/);
  });

  it('enforces tokens on a non-loopback host and passes the annotator as ctx', async () => {
    const { s, engine } = await serve({ host: '0.0.0.0', tokens: { alice: 'alice-secret-1', bob: 'bob-secret-22' } });
    const base = `http://127.0.0.1:${s.port}`;
    const anon = await request(`${base}/api/invoke`, { method: 'POST', headers: API, body: JSON.stringify({ command: 'app.info', args: {} }) });
    expect(anon.status).toBe(401);
    expect(JSON.parse(anon.body).code).toBe('forbidden');
    const wrong = await request(`${base}/api/invoke`, { method: 'POST', headers: { ...API, Authorization: 'Bearer nope' }, body: JSON.stringify({ command: 'app.info', args: {} }) });
    expect(wrong.status).toBe(401);
    const ok = await request(`${base}/api/invoke`, { method: 'POST', headers: { ...API, Authorization: 'Bearer bob-secret-22' }, body: JSON.stringify({ command: 'app.info', args: {} }) });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).annotator).toBe('bob');
    expect(engine.calls.at(-1)!.ctx).toEqual({ annotator: 'bob', local: false });
    // the page needs a token too
    expect((await request(`${base}/`)).status).toBe(401);
    // ?token= is not accepted by the API (only the first page load and the WebSocket)
    const q = await request(`${base}/api/invoke?token=bob-secret-22`, { method: 'POST', headers: API, body: JSON.stringify({ command: 'app.info', args: {} }) });
    expect(q.status).toBe(401);
  });

  it('turns ?token= on the first page load into an HttpOnly cookie, then accepts the cookie', async () => {
    const { s } = await serve({ host: '0.0.0.0', tokens: { alice: 'alice-secret-1' } });
    const base = `http://127.0.0.1:${s.port}`;
    const first = await request(`${base}/?token=alice-secret-1`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/qpairs_token=alice-secret-1/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const page = await request(`${base}/`, { headers: { Cookie: 'qpairs_token=alice-secret-1' } });
    expect(page.status).toBe(200);
    const api = await request(`${base}/api/invoke`, { method: 'POST', headers: { ...API, Cookie: 'qpairs_token=alice-secret-1' }, body: JSON.stringify({ command: 'app.info', args: {} }) });
    expect(JSON.parse(api.body).annotator).toBe('alice');
    expect((await request(`${base}/?token=wrong`)).status).toBe(401);
    expect(s.linkFor('alice')).toMatch(/\?token=alice-secret-1$/);
  });

  it('enforces tokens on loopback too when given', async () => {
    const { s } = await serve({ tokens: { alice: 'alice-secret-1' } });
    expect((await invoke(s, 'app.info', {})).status).toBe(401);
    expect((await invoke(s, 'app.info', {}, { Authorization: 'Bearer alice-secret-1' })).status).toBe(200);
  });
});

describe('POST /api/upload', () => {
  it('streams the body to a file the engine can resolve', async () => {
    const { s } = await serve();
    const r = await request(`${s.url}/api/upload?name=${encodeURIComponent('../../dev set.xml')}`, { method: 'POST', headers: { 'X-QPairs': '1' }, body: '<xml>hello</xml>' });
    expect(r.status).toBe(200);
    const { uploadId, size } = JSON.parse(r.body);
    expect(uploadId).toMatch(/^[a-f0-9-]{8,64}$/);
    expect(size).toBe(16);
    const file = uploadPath(uploadId);
    expect(path.basename(file)).toBe('dev set.xml');
    expect(readFileSync(file, 'utf8')).toBe('<xml>hello</xml>');
    expect(() => uploadPath('00000000-0000-0000-0000-000000000000')).toThrow(/not found/);
    expect(() => uploadPath('../../etc')).toThrow(/not found/);
  });

  it('enforces the size cap (declared or streamed) and keeps nothing', async () => {
    const { s } = await serve({ maxUploadBytes: 1000 });
    const declared = await request(`${s.url}/api/upload?name=big.xml`, { method: 'POST', headers: { 'X-QPairs': '1' }, body: Buffer.alloc(5000, 97) });
    expect(declared.status).toBe(413);
    // In sizes people read, and what sets the limit (it read "5000 bytes is more than the upload limit of 1000 bytes").
    expect(JSON.parse(declared.body).message).toMatch(/^big\.xml: (5,000 bytes is )?more than the server's upload limit of 1,000 bytes \(serve mode's --max-upload-mb sets it\)$/);
    // chunked (no Content-Length): the cap applies while streaming
    const streamed = await new Promise<Res>((resolve, reject) => {
      const req = http.request(`${s.url}/api/upload?name=big.xml`, { method: 'POST', headers: { 'X-QPairs': '1', 'Transfer-Encoding': 'chunked' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.write(Buffer.alloc(600, 97));
      setTimeout(() => {
        req.write(Buffer.alloc(600, 97));
        req.end();
      }, 50);
    });
    expect(streamed.status).toBe(413);
    const ok = await request(`${s.url}/api/upload?name=small.xml`, { method: 'POST', headers: { 'X-QPairs': '1' }, body: Buffer.alloc(1000, 97) });
    expect(ok.status).toBe(200);
  });

  it('needs a name and the header', async () => {
    const { s } = await serve();
    expect((await request(`${s.url}/api/upload`, { method: 'POST', headers: { 'X-QPairs': '1' }, body: 'x' })).status).toBe(400);
    expect((await request(`${s.url}/api/upload?name=a`, { method: 'POST', body: 'x' })).status).toBe(400);
  });

  it('deletes uploads when the server closes', async () => {
    const { s } = await serve();
    const r = await request(`${s.url}/api/upload?name=a.txt`, { method: 'POST', headers: { 'X-QPairs': '1' }, body: 'abc' });
    const file = uploadPath(JSON.parse(r.body).uploadId);
    await s.close();
    expect(existsSync(file)).toBe(false);
  });
});

describe('WebSocket /api/events', () => {
  const open = (url: string, headers: Record<string, string> = {}): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });

  it('pushes every engine event', async () => {
    const { s, engine } = await serve();
    const ws = await open(`ws://127.0.0.1:${s.port}/api/events`);
    const got: unknown[] = [];
    const two = new Promise<void>((r) =>
      ws.on('message', (m) => {
        got.push(JSON.parse(String(m)));
        if (got.length === 2) r();
      }),
    );
    engine.emit('job.progress', { jobId: 'j', kind: 'import', done: 1, total: 2, message: '' });
    engine.emit('label.changed', { seq: 1, pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'a', value: '1', at: 't', origin: 'ui' });
    await two;
    expect(got).toEqual([
      { event: 'job.progress', payload: { jobId: 'j', kind: 'import', done: 1, total: 2, message: '' } },
      { event: 'label.changed', payload: { seq: 1, pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'a', value: '1', at: 't', origin: 'ui' } },
    ]);
    ws.close();
  });

  it('refuses foreign origins, and needs a token when tokens are set', async () => {
    const { s } = await serve({ tokens: { alice: 'alice-secret-1' } });
    const base = `ws://127.0.0.1:${s.port}/api/events`;
    await expect(open(base)).rejects.toThrow(/401/);
    await expect(open(`${base}?token=bad`)).rejects.toThrow(/401/);
    const ws = await open(`${base}?token=alice-secret-1`);
    ws.close();
    const ws2 = await open(base, { Cookie: 'qpairs_token=alice-secret-1' });
    ws2.close();
    await expect(open(`${base}?token=alice-secret-1`, { Origin: 'http://evil.example' })).rejects.toThrow(/403/);
  });

  it('sends each socket only the events the engine lets its caller see', async () => {
    const { s, engine } = await serve({ tokens: { alice: 'alice-secret-1', bob: 'bob-secret-22' } });
    const base = `ws://127.0.0.1:${s.port}/api/events`;
    const alice = await open(`${base}?token=alice-secret-1`);
    const bob = await open(`${base}?token=bob-secret-22`);
    const got: Record<string, string[]> = { alice: [], bob: [] };
    alice.on('message', (m) => got.alice!.push(JSON.parse(String(m)).event));
    bob.on('message', (m) => got.bob!.push(JSON.parse(String(m)).event));
    engine.emit('job.done', { jobId: 'j', kind: 'import', ok: false, error: 'root:x:0:0' });
    engine.emit('label.changed', { seq: 1, pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'alice', value: '1', at: 't', origin: 'ui' });
    await new Promise((r) => setTimeout(r, 200));
    expect(got).toEqual({ alice: ['label.changed'], bob: [] });
    alice.close();
    bob.close();
  });

  it('holds at most perCallerSockets sockets per caller (429 beyond); a closed one frees its place; others are not counted', async () => {
    const { s } = await serve({ tokens: { alice: 'alice-secret-1', bob: 'bob-secret-22' }, perCallerSockets: 3 });
    const base = `ws://127.0.0.1:${s.port}/api/events`;
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push(await open(`${base}?token=alice-secret-1`));
    await expect(open(`${base}?token=alice-secret-1`)).rejects.toThrow(/429/);
    const bob = await open(`${base}?token=bob-secret-22`);
    mine.shift()!.close();
    await new Promise((r) => setTimeout(r, 100));
    mine.push(await open(`${base}?token=alice-secret-1`));
    await expect(open(`${base}?token=alice-secret-1`)).rejects.toThrow(/429/);
    for (const ws of [...mine, bob]) ws.close();
  });

  it('keeps refusing foreign origins', async () => {
    const { s } = await serve({ tokens: { alice: 'alice-secret-1' } });
    const base = `ws://127.0.0.1:${s.port}/api/events`;
    await expect(open(`${base}?token=alice-secret-1`, { Origin: 'http://evil.example' })).rejects.toThrow(/403/);
  });
});
