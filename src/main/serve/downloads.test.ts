/**
 * Serve-mode export downloads (export.write with `download`, GET /api/download/ID): the files are
 * streamed to the server's own folder and fetched once, by whoever exported, with the same bytes the
 * content answer carried (an hf-dataset as the zip the page made of them); someone else's token gets
 * 404 and does not use the id up; no answer names a server path; a fetched download's files are gone,
 * and a transfer cut off gives its id back.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Engine } from '../engine/engine';
import { teamEngine } from '../engine/test-team';
import { Workspace } from '../workspace/workspace';
import { zipFiles } from '../../shared/zip';
import { EXPORT_FORMATS, type ExportWritten } from '../../shared/gold';
import type { AnnotatorInvitation } from '../../shared/contract';
import { startServer, type RunningServer } from './server';
import { openUploadStore } from './uploads';
import { until } from './test-serve';
import { DOWNLOAD_TTL_MS } from '../export/downloads';

let dir: string;
let base: string;
let engine: Engine;
let server: RunningServer;
const tokens: Record<string, string> = {};

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-downloads-'));
  base = path.join(dir, 'downloads');
  teamEngine(dir).close();
  engine = new Engine(Workspace.open(path.join(dir, 'w.qpairs')), { transport: 'http', downloadBase: base });
  for (const [name, role] of [
    ['alice', 'annotator'],
    ['bob', 'annotator'],
    ['carol', 'judge'],
    ['dave', 'owner'],
    ['erin', 'judge'],
  ] as const) {
    tokens[name] = ((await engine.invoke('annotator.invite', { name, role })) as AnnotatorInvitation).token;
  }
  server = await startServer({ engine, port: 0, requireTokens: true, staticDir: dir, uploads: openUploadStore({}) });
});
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  await engine.jobs.idle();
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(token: string, command: string, args: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${server.url}/api/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ command, args }),
  });
  return { status: r.status, body: await r.json() };
}

async function get(token: string | null, id: string): Promise<Response> {
  return fetch(`${server.url}/api/download/${id}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
}

/** Every file under the downloads folder (the server's own). */
function filesKept(): string[] {
  if (!existsSync(base)) return [];
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe('export downloads in serve mode', () => {
  it('give the bytes the content answer gave, for every format (an hf-dataset as the zip of its files), and nothing is left once fetched', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-02T03:04:05Z'));
    for (const format of EXPORT_FORMATS) {
      const args = { pool: 'open', format };
      const inMemory = await call(tokens.carol!, 'export.write', args);
      expect(inMemory.status, format).toBe(200);
      const streamed = await call(tokens.carol!, 'export.write', { ...args, download: true });
      expect(streamed.status, format).toBe(200);
      const before = inMemory.body as ExportWritten;
      const now = streamed.body as ExportWritten;
      expect(now.files, format).toEqual(before.files.map((f) => ({ name: f.name, bytes: f.bytes })));
      const contents = before.files.map((f) => ({ name: f.name, content: f.content! }));
      const expected =
        format === 'hf-dataset'
          ? [{ name: 'open.zip', bytes: Buffer.from(zipFiles(contents)) }]
          : contents.map((f) => ({ name: path.basename(f.name), bytes: Buffer.from(f.content, 'utf8') }));
      expect(now.downloads!.map((d) => d.name), format).toEqual(expected.map((e) => e.name));
      expect(filesKept().length, format).toBe(before.files.length);
      for (const [i, d] of now.downloads!.entries()) {
        expect(d.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
        const r = await get(tokens.carol!, d.id);
        expect(r.status, `${format} ${d.name}`).toBe(200);
        const body = Buffer.from(await r.arrayBuffer());
        expect(body.equals(expected[i]!.bytes), `${format} ${d.name}: the same bytes`).toBe(true);
        expect(d.bytes).toBe(body.length);
        expect(r.headers.get('content-length')).toBe(String(body.length));
        expect(r.headers.get('content-disposition')).toBe(`attachment; filename="${d.name}"; filename*=UTF-8''${encodeURIComponent(d.name)}`);
        expect(r.headers.get('cache-control')).toBe('no-store');
      }
      // Removed once each response is over (the server's side of it may end just after the client has read it all).
      await until(`${format}: the files are removed once fetched`, () => filesKept().length === 0);
    }
  });

  it('are fetched once, by whoever exported: another token (annotator, judge, owner) or none gets nothing and leaves the id usable', async () => {
    const r = await call(tokens.carol!, 'export.write', { pool: 'sealed', format: 'jsonl', download: true });
    expect(r.status).toBe(200);
    const [file, sheet] = (r.body as ExportWritten).downloads!;
    for (const who of ['alice', 'bob', 'erin', 'dave'] as const) {
      const other = await get(tokens[who]!, file!.id);
      expect(other.status, who).toBe(404);
      expect(await other.text()).not.toContain('.jsonl');
    }
    expect((await get(null, file!.id)).status).toBe(401);
    expect((await get(tokens.carol!, 'x'.repeat(32))).status).toBe(404);
    const mine = await get(tokens.carol!, file!.id);
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain('"query_id"');
    const again = await get(tokens.carol!, file!.id);
    expect(again.status, 'single use').toBe(404);
    expect((await again.json()).message).toContain('each is fetched once');
    // The datasheet's id is another, still there.
    expect((await get(tokens.carol!, sheet!.id)).status).toBe(200);
  });

  it('a transfer cut off gives the id back (the browser retries), and the file goes once it is sent whole', async () => {
    const folder = engine.downloads.folder();
    const file = path.join(folder, 'big.jsonl');
    const bytes = 64 * 1024 * 1024; // more than a socket's buffers hold: the transfer is cut off before its end
    writeFileSync(file, Buffer.alloc(bytes, 0x61));
    const [id] = engine.downloads.add(folder, [{ owner: 'token:carol', name: 'big.jsonl', files: [{ path: file, name: 'big.jsonl', bytes }], zip: false }]);
    const stop = new AbortController();
    const r = await fetch(`${server.url}/api/download/${id}`, { headers: { Authorization: `Bearer ${tokens.carol}` }, signal: stop.signal });
    expect(r.status).toBe(200);
    await r.body!.getReader().read();
    stop.abort();
    await until('the id is given back', () => engine.downloads.peek(id!) !== undefined);
    expect(existsSync(file)).toBe(true);
    const whole = await get(tokens.carol!, id!);
    expect((await whole.arrayBuffer()).byteLength).toBe(bytes);
    await until('the file is removed once sent whole', () => !existsSync(file));
    expect((await get(tokens.carol!, id!)).status).toBe(404);
  });

  it("export.downloads tells the exporter what became of each id — sent once its last byte is out, cut off or unreadable as failed with why — and anyone else nothing", async () => {
    const exported = Date.now();
    const r = await call(tokens.carol!, 'export.write', { pool: 'open', format: 'jsonl', download: true });
    const [file, sheet] = (r.body as ExportWritten).downloads!;
    const ids = [file!.id, sheet!.id];
    // Each id says until when it can be fetched (15 minutes from the export), as the export's answer did.
    const expiresAt = file!.expiresAt;
    expect(expiresAt).toBeGreaterThanOrEqual(exported + DOWNLOAD_TTL_MS);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + DOWNLOAD_TTL_MS);
    // With the server's time, which a page whose clock is off measures the difference by.
    const { now: writtenAt } = r.body as ExportWritten;
    expect(writtenAt).toBeGreaterThanOrEqual(expiresAt - DOWNLOAD_TTL_MS);
    expect(writtenAt).toBeLessThanOrEqual(Date.now());
    /** The statuses of `asked`, each with the server's time when it answered (checked, then left out). */
    const status = async (who: string, asked = ids): Promise<any[]> => {
      const before = Date.now();
      const s = await call(tokens[who]!, 'export.downloads', { ids: asked });
      expect(s.status, who).toBe(200);
      const after = Date.now();
      return (s.body as Array<{ now: number }>).map(({ now, ...rest }) => {
        expect(now, 'the server says its time').toBeGreaterThanOrEqual(before);
        expect(now).toBeLessThanOrEqual(after);
        return rest;
      });
    };
    expect(await status('carol')).toEqual(ids.map((id) => ({ id, state: 'ready', sentBytes: 0, failures: 0, expiresAt })));
    // Someone else's ids read as ids that do not exist (another judge, the owner), and an annotator may not ask.
    for (const who of ['erin', 'dave']) expect(await status(who), who).toEqual(ids.map((id) => ({ id, state: 'unknown', sentBytes: 0, failures: 0 })));
    expect((await call(tokens.alice!, 'export.downloads', { ids })).status).toBe(403);
    expect((await get(tokens.erin!, file!.id)).status, 'asking took nothing').toBe(404);

    const whole = await get(tokens.carol!, file!.id);
    expect((await whole.arrayBuffer()).byteLength).toBe(file!.bytes);
    await until('sent once the response is over', async () => (await status('carol'))[0].state === 'sent');
    expect((await status('carol'))[0]).toEqual({ id: file!.id, state: 'sent', sentBytes: file!.bytes, failures: 0, expiresAt });

    // The datasheet's file gone from the server's disk: its transfer fails (cut off, never a short file read as whole) and says why;
    // its id is not given back (no fetch could send it).
    const [sheetFile] = readdirSync(base, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    rmSync(path.join(sheetFile!.parentPath, sheetFile!.name));
    const broken = await get(tokens.carol!, sheet!.id)
      .then((res) => res.arrayBuffer())
      .catch((e: Error) => e);
    expect(broken).toBeInstanceOf(Error);
    await until('failed, with why', async () => (await status('carol'))[1].failures === 1);
    expect((await status('carol'))[1]).toMatchObject({ state: 'expired', failures: 1, failure: 'the server could not read the file (ENOENT)' });
    expect((await get(tokens.carol!, sheet!.id)).status).toBe(404);
    expect(JSON.stringify(await status('carol'))).not.toContain(base);
  });

  it('export.downloads says a transfer cut off by the client failed, with how far it got', async () => {
    const folder = engine.downloads.folder();
    const file = path.join(folder, 'big.jsonl');
    const bytes = 64 * 1024 * 1024;
    writeFileSync(file, Buffer.alloc(bytes, 0x61));
    const [id] = engine.downloads.add(folder, [{ owner: 'token:carol', name: 'big.jsonl', files: [{ path: file, name: 'big.jsonl', bytes }], zip: false }]);
    const stop = new AbortController();
    const r = await fetch(`${server.url}/api/download/${id}`, { headers: { Authorization: `Bearer ${tokens.carol}` }, signal: stop.signal });
    await r.body!.getReader().read();
    const sending = (await call(tokens.carol!, 'export.downloads', { ids: [id] })).body[0];
    expect(sending.state).toBe('sending');
    expect(sending.sentBytes).toBeGreaterThan(0);
    stop.abort();
    await until('given back', () => engine.downloads.peek(id!) !== undefined);
    const [after] = (await call(tokens.carol!, 'export.downloads', { ids: [id] })).body;
    expect(after).toMatchObject({ state: 'ready', failures: 1 });
    expect(after.failure).toMatch(/^the connection closed before the end \([\d,]+ of 67,108,864 bytes sent\)/);
  });

  it('are refused to an exporter whose role may no longer export, and name no server path in any answer', async () => {
    const r = await call(tokens.carol!, 'export.write', { pool: 'open', format: 'hf-dataset', download: true });
    const text = JSON.stringify(r.body);
    expect(text).not.toContain(dir);
    expect(text).not.toContain(base);
    expect((r.body as ExportWritten).files.map((f) => f.name)).toEqual(['open/data/pairs.jsonl', 'open/README.md']);
    await engine.invoke('annotator.setRole', { name: 'carol', role: 'annotator' });
    const refused = await get(tokens.carol!, (r.body as ExportWritten).downloads![0]!.id);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain(dir);
  });

  it('with a path as well is refused: a path is written there, a download fetched', async () => {
    const r = await engine.invoke('export.write', { pool: 'open', format: 'qrels', path: path.join(dir, 'x.qrels'), download: true }).catch((e: Error) => e);
    expect(String(r)).toContain('not both');
    expect(existsSync(path.join(dir, 'x.qrels'))).toBe(false);
  });

  it('a failed export leaves no folder behind; the server stopping removes what was not fetched', async () => {
    // askubuntu needs a run: the pool "bare" has none, and the export fails after its folder was made.
    engine.ws.createPool({ name: 'bare', scheme: 'binary' });
    engine.ws.addPoolQuery('bare', 'q1', ['c1']);
    const failed = await call(tokens.carol!, 'export.write', { pool: 'bare', format: 'askubuntu', download: true });
    expect(failed.status).toBe(422);
    expect(filesKept()).toEqual([]);
    const kept = readdirSync(base);
    expect(kept).toHaveLength(1); // the server's own folder, empty
    expect(readdirSync(path.join(base, kept[0]!))).toEqual([]);
    const r = await call(tokens.carol!, 'export.write', { pool: 'open', format: 'csv', download: true });
    expect(r.status).toBe(200);
    expect(filesKept()).toHaveLength(2);
    await server.close();
    engine.close();
    expect(readdirSync(base)).toEqual([]);
    engine = new Engine(Workspace.open(path.join(dir, 'w.qpairs')), { transport: 'http', downloadBase: base });
  });
});
