/**
 * What a token holder tried against serve mode (the trust issue's table), each now refused or
 * sealed: alice holds an annotator token, dave an owner token, on a pool that is blind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Engine } from '../engine/engine';
import { MARKERS, teamEngine } from '../engine/test-team';
import { startServer, type RunningServer } from './server';
import { openUploadStore } from './uploads';

const TOKENS = { alice: 'alice-secret-1', bob: 'bob-secret-22', carol: 'carol-secret-3', dave: 'dave-secret-44' };
let dir: string;
let engine: Engine;
let server: RunningServer;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-probes-'));
  engine = teamEngine(dir);
  server = await startServer({ engine, port: 0, tokens: TOKENS, staticDir: dir, bodyTimeoutMs: 500 });
});
afterEach(async () => {
  await server.close();
  await engine.jobs.idle();
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(who: keyof typeof TOKENS, command: string, args: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${server.url}/api/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${TOKENS[who]}` },
    body: JSON.stringify({ command, args }),
  });
  return { status: r.status, body: await r.json() };
}

function leaks(text: string): string[] {
  return Object.entries(MARKERS)
    .filter(([, m]) => text.includes(m))
    .map(([k]) => k);
}

describe('uploads', () => {
  it('are refused to annotators and judges (they may not import) before the body is read; the owner uploads', async () => {
    for (const who of ['alice', 'carol'] as const) {
      const r = await fetch(`${server.url}/api/upload?name=big.bin`, { method: 'POST', headers: { 'X-QPairs': '1', Authorization: `Bearer ${TOKENS[who]}` }, body: 'x'.repeat(100_000) });
      expect([who, r.status, ((await r.json()) as { code: string }).code]).toEqual([who, 403, 'forbidden']);
    }
    const ok = await fetch(`${server.url}/api/upload?name=q.jsonl`, { method: 'POST', headers: { 'X-QPairs': '1', Authorization: `Bearer ${TOKENS.dave}` }, body: '{}' });
    expect(ok.status).toBe(200);
  });
});

describe("alice's annotator token on a blind pool", () => {
  it('cannot read bob’s labels, the gold key or metrics through eval', async () => {
    for (const [command, args] of [
      ['eval.query', { pool: 'sealed', queryId: 'q1', annotator: 'bob' }],
      ['eval.query', { pool: 'sealed', queryId: 'q1' }],
      ['eval.pool', { pool: 'sealed', annotator: 'bob' }],
      ['eval.pool', { pool: 'sealed' }],
      ['eval.compare', { pool: 'sealed', runs: ['secretrun', 'otherrun'] }],
      ['pool.aggregation', { pool: 'sealed' }],
      ['review.queue', { pool: 'sealed', judge: 'alice' }],
      ['export.preview', { pool: 'sealed', format: 'jsonl' }],
    ] as const) {
      const r = await call('alice', command, args);
      expect([command, r.status, r.body.code]).toEqual([command, 403, 'forbidden']);
      expect(leaks(JSON.stringify(r.body))).toEqual([]);
    }
  });

  it('gets the blind view whatever it asks (blind:false is ignored)', async () => {
    for (const [command, args] of [
      ['annotate.query', { pool: 'sealed', annotator: 'alice', queryId: 'q1', blind: false }],
      ['annotate.navigate', { pool: 'sealed', annotator: 'alice', from: 'q1', direction: 'next', blind: false }],
    ] as const) {
      const r = await call('alice', command, args);
      expect(r.status).toBe(200);
      expect(r.body.blind).toBe(true);
      expect(r.body.runNames).toEqual([]);
      expect(leaks(JSON.stringify(r.body))).toEqual([]);
    }
    expect((await call('alice', 'annotate.query', { pool: 'sealed', annotator: 'bob' })).status).toBe(403);
  });

  it('hears only its own labels on the event socket, and no one else’s job', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/events?token=${TOKENS.alice}`);
    const frames: string[] = [];
    ws.on('message', (m) => frames.push(String(m)));
    await new Promise((r, j) => ws.once('open', r).once('error', j));
    expect((await call('bob', 'label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c1', annotator: 'bob', value: MARKERS.bob })).status).toBe(200);
    expect((await call('carol', 'review.settle', { pool: 'sealed', judge: 'carol', queryId: 'q1', candidateId: 'c3', value: MARKERS.judge })).status).toBe(200);
    // the owner (no token, from the server itself) imports a file whose error would quote it
    await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: '/etc/passwd' }] });
    await engine.jobs.idle();
    expect((await call('alice', 'label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c2', annotator: 'alice', value: '0' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    ws.close();
    const events = frames.map((f) => JSON.parse(f) as { event: string; payload: { annotator?: string } });
    // Nothing but her own label: not even that the owner imported something (it wrote to no pool of hers).
    expect(events.map((e) => `${e.event}:${e.payload.annotator ?? ''}`)).toEqual(['label.changed:alice']);
    expect(frames.join('')).not.toContain('root:');
  });

  it('cannot import (so cannot write bob’s labels through a labels file), nor name server files', async () => {
    const upload = (who: keyof typeof TOKENS): Promise<Response> =>
      fetch(`${server.url}/api/upload?name=labels.csv`, {
        method: 'POST',
        headers: { 'X-QPairs': '1', Authorization: `Bearer ${TOKENS[who]}` },
        body: 'query_id,candidate_id,annotator,label\nq1,c1,bob,0\n',
      });
    expect((await upload('alice')).status).toBe(403);
    // Even with an upload of the owner's id in hand:
    const { uploadId } = (await (await upload('dave')).json()) as { uploadId: string };
    const r = await call('alice', 'import.start', { format: 'labels-csv', pool: 'sealed', sources: [{ uploadId, name: 'labels.csv' }] });
    expect(r.status).toBe(403);
    expect(engine.ws.currentLabels('sealed', 'bob').find((l) => l.queryId === 'q1' && l.candidateId === 'c1')?.value).toBe(MARKERS.bob);
    for (const who of ['alice', 'dave'] as const) {
      const p = await call(who, 'import.start', { format: 'questions-jsonl', sources: [{ path: '/etc/passwd' }] });
      expect(p.status).toBe(403);
      expect(JSON.stringify(p.body)).not.toContain('root:');
    }
  });

  it('cannot change the pool, its team or its jobs', async () => {
    const job = engine.jobs.start('import', (ctx) => new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r())));
    for (const [command, args] of [
      ['pool.assign', { pool: 'sealed', annotators: ['alice'] }],
      ['pool.setGuidelines', { pool: 'sealed', markdown: 'anything goes' }],
      ['pool.setAggregation', { pool: 'sealed', rule: 'majority' }],
      ['pool.set', { pool: 'sealed', blind: false }],
      ['pool.create', { name: 'mine', queries: ['q1'] }],
      ['annotator.setRole', { name: 'alice', role: 'judge' }],
      ['job.cancel', { jobId: job }],
    ] as const) {
      const r = await call('alice', command, args);
      expect([command, r.status]).toEqual([command, 403]);
    }
    expect(engine.ws.pool('sealed')).toMatchObject({ blind: true, guidelines: '' });
    expect((await call('dave', 'job.cancel', { jobId: job })).body).toEqual({ cancelled: true });
  });

  it('cannot run a heavy agreement report', async () => {
    const r = await call('alice', 'agreement.report', { pool: 'sealed', bootstrap: 100_000 });
    expect(r.status).toBe(403);
  });

  it('app.info gives the file name, not the server path', async () => {
    const r = await call('alice', 'app.info', {});
    expect(r.body).toMatchObject({ workspaceName: 'w.qpairs', role: 'annotator', annotator: 'alice' });
    expect(JSON.stringify(r.body)).not.toContain(dir);
    expect((await call('dave', 'app.info', {})).body).toMatchObject({ role: 'owner', local: false });
    expect((await call('carol', 'app.info', {})).body).toMatchObject({ role: 'judge' });
  });
});

describe('requests are bounded', () => {
  it('a body that never finishes gets 408 instead of holding the connection', async () => {
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.url}/api/invoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${TOKENS.alice}`, 'Content-Length': '1000' },
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.write('{"command":');
    });
    expect(status).toBe(408);
  });

  it('uploads have a total quota across files, not only a per-file cap', async () => {
    const uploads = openUploadStore({ baseDir: path.join(dir, 'uploads'), quotaBytes: 1000 });
    const small = await startServer({ engine, port: 0, tokens: TOKENS, staticDir: dir, uploads });
    try {
      const put = (name: string, bytes: number) =>
        fetch(`${small.url}/api/upload?name=${name}`, { method: 'POST', headers: { 'X-QPairs': '1', Authorization: `Bearer ${TOKENS.dave}` }, body: 'x'.repeat(bytes) });
      expect((await put('a.txt', 600)).status).toBe(200);
      const refused = await put('b.txt', 600);
      expect(refused.status).toBe(413);
      expect(((await refused.json()) as { message: string }).message).toMatch(/b\.txt/);
      expect((await put('c.txt', 300)).status).toBe(200);
    } finally {
      await small.close();
    }
  });
});

describe('issue 23: what a team lead tried', () => {
  it('an annotator token cannot invite, revoke or list the team; app.info carries no token', async () => {
    for (const [command, args] of [
      ['annotator.invite', { name: 'mallory', role: 'owner' }],
      ['annotator.revoke', { name: 'bob' }],
      ['annotator.team', {}],
    ] as const) {
      const r = await call('alice', command, args);
      expect([command, r.status]).toEqual([command, 403]);
    }
    const info = await call('alice', 'app.info', {});
    for (const secret of Object.values(TOKENS)) expect(JSON.stringify(info.body)).not.toContain(secret);
  });

  it("alice's undo of bob's event says only that she has no such event", async () => {
    const bob = await call('bob', 'label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c1', annotator: 'bob', value: '3' });
    const r = await call('alice', 'label.undo', { seq: bob.body.seq, annotator: 'alice' });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe(`no label event ${bob.body.seq} of alice`);
    expect(JSON.stringify(r.body)).not.toContain('bob');
  });

  it("alice's blind view numbers candidates by her own display index; her search has no scores", async () => {
    const v = await call('alice', 'annotate.query', { pool: 'sealed', annotator: 'alice', queryId: 'q1' });
    expect(v.body.candidates.map((c: { position: number }) => c.position)).toEqual([0, 1, 2]);
    const s = await call('alice', 'questions.search', { text: 'laptops' });
    expect(s.body.results.length).toBeGreaterThan(0);
    expect(s.body.results.some((x: { score?: number }) => 'score' in x)).toBe(false);
    expect(leaks(JSON.stringify(s.body))).toEqual([]);
  });

  it('a judge cannot train over the owner’s model name (403, no name of anyone)', async () => {
    engine.ws.db.prepare(`INSERT INTO models(name, kind, saved, report, training, created) VALUES ('owned', 'tfidf', x'00', '{}', '{}', '2026-01-01')`).run();
    const r = await call('carol', 'models.train', { model: 'tfidf', name: 'owned' });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/a model named "owned" already exists and is not yours/);
  });
});
