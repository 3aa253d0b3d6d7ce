/**
 * A page load with a refused token gets a readable HTML page (QA: a revoked annotator's reload
 * showed raw JSON {"code":"forbidden",…}); the API keeps answering JSON 401.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { EventHub } from '../engine/events';
import { CSP_HEADER } from './csp';
import { startServer, type RunningServer, type ServeEngine } from './server';

const engine: ServeEngine = { hub: new EventHub(), invoke: async () => ({ ok: true }), canSee: () => true };

let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function get(url: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; type: string; csp: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: o.method ?? 'GET', headers: o.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), csp: String(res.headers['content-security-policy']), body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

describe('a page load with a token the server refuses', () => {
  it('gets an HTML page saying the link no longer works; without a token, one saying to open the personal link; the API stays JSON', async () => {
    server = await startServer({ engine, port: 0, tokens: { alice: 'alice-secret-1' }, requireTokens: true, staticDir: import.meta.dirname });
    const base = server.url;

    for (const r of [await get(`${base}/`, { headers: { Cookie: 'qpairs_token=revoked-secret' } }), await get(`${base}/?token=revoked-secret#annotate`)]) {
      expect(r.status).toBe(401);
      expect(r.type).toMatch(/^text\/html/);
      expect(r.csp).toBe(CSP_HEADER);
      expect(r.body).toContain('<h1>This link no longer works</h1>');
      expect(r.body).toContain('Ask the workspace’s owner for a new link');
      expect(r.body).not.toContain('"code"');
    }
    const none = await get(`${base}/`);
    expect(none.status).toBe(401);
    expect(none.body).toContain('<h1>Open your personal link</h1>');
    const head = await get(`${base}/`, { method: 'HEAD', headers: { Cookie: 'qpairs_token=revoked-secret' } });
    expect(head).toMatchObject({ status: 401, body: '' });
    expect(head.type).toMatch(/^text\/html/);

    const api = await get(`${base}/api/invoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Cookie: 'qpairs_token=revoked-secret' },
      body: JSON.stringify({ command: 'app.info', args: {} }),
    });
    expect(api.status).toBe(401);
    expect(api.type).toMatch(/^application\/json/);
    expect(JSON.parse(api.body)).toMatchObject({ code: 'forbidden' });
    expect((await get(`${base}/api/health`)).type).toMatch(/^application\/json/);
  });
});

describe('/?signout on a server that requires links', () => {
  it('clears the link cookie and says how to come back; the next page load without it asks for the link', async () => {
    server = await startServer({ engine, port: 0, tokens: { alice: 'alice-secret-1' }, requireTokens: true, staticDir: import.meta.dirname });
    const base = server.url;
    const out = await new Promise<{ status: number; cookie: string; body: string }>((resolve, reject) => {
      http
        .get(`${base}/?signout`, { headers: { Cookie: 'qpairs_token=alice-secret-1' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, cookie: String(res.headers['set-cookie']), body: Buffer.concat(chunks).toString('utf8') }));
        })
        .on('error', reject);
    });
    expect(out.status).toBe(200);
    expect(out.cookie).toMatch(/^qpairs_token=;.*Max-Age=0/);
    expect(out.body).toContain('<h1>Signed out</h1>');
    expect(out.body).toContain('open your personal link again');
    // Without a link cookie, the app is not served (a stranger at this computer is not alice).
    expect((await get(`${base}/`)).body).toContain('<h1>Open your personal link</h1>');
  });
});
