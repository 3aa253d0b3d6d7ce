/**
 * `qpairs export` kept every file of the export whole in memory — its lines, their join, the copy
 * from the compute worker, its UTF-8 bytes — about 6× the file (3 GB for a 478 MB jsonl of 400,000
 * pairs with text). It now streams each file's lines to a temporary file beside OUT as they are
 * rendered, renamed once all are written. The files must stay byte for byte what the in-memory
 * rendering (previews and serve-mode downloads still use it) gives, in every format, over several
 * write chunks and with multi-byte text; a failed export leaves no temporary file nor folder.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPORT_FORMATS } from '../../../shared/gold';
import { assignPool } from '../../gold';
import { Workspace } from '../../workspace/workspace';
import { abandonExportStream, buildExport, openExportStream, prepareExportWrite } from '../../export';
import { runCli } from '../test-cli';

let dir: string;
let w: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-export-stream-'));
  w = path.join(dir, 'w.qpairs');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Pool p: 60 queries × 20 candidates, texts of ~1.5 KB with accents, emoji, quotes, commas and line breaks; two runs; x labels all, y some (disagreeing on a few). */
function bigPool(): void {
  const ws = Workspace.create(w);
  try {
    ws.db.transaction(() => {
      const text = (i: number): string => `Réseau Wi‑Fi coupé après veille 📶 "quoted", and commas, line\nbreaks ${i} `.repeat(20);
      for (let i = 0; i < 60 * 21; i++) ws.upsertQuestion({ id: `q${i}`, source: 'ß-corpus', title: `titre ${i} é`, body: text(i) });
      ws.createPool({ name: 'p', scheme: 'binary' });
      for (let q = 0; q < 60; q++) ws.addPoolQuery('p', `q${q * 21}`, Array.from({ length: 20 }, (_, c) => `q${q * 21 + c + 1}`));
      assignPool(ws, 'p', ['x', 'y'], null);
      const bm25 = ws.ensureRun('p', 'bm25', 'test');
      const other = ws.ensureRun('p', 'other', 'test');
      for (let q = 0; q < 60; q++) {
        for (let c = 1; c <= 20; c++) {
          const [query, cand] = [`q${q * 21}`, `q${q * 21 + c}`];
          ws.addLabel({ pool: 'p', queryId: query, candidateId: cand, annotator: 'x', value: (q + c) % 3 === 0 ? '1' : '0', origin: 't' });
          if (q < 5) ws.addLabel({ pool: 'p', queryId: query, candidateId: cand, annotator: 'y', value: c % 4 === 0 ? '1' : '0', origin: 't' });
          ws.setRunScore(bm25, query, cand, 30 - c + q / 7);
          ws.setRunScore(other, query, cand, (c * 7919) % 13);
        }
      }
    })();
  } finally {
    ws.close();
  }
}

describe('qpairs export streams its files', () => {
  it('writes every format byte for byte as the in-memory rendering, over several write chunks', async () => {
    bigPool();
    for (const format of EXPORT_FORMATS) {
      const out = path.join(dir, format, format === 'hf-dataset' ? 'p' : 'p.out');
      mkdirSync(path.dirname(out));
      const r = await runCli('export', w, '--pool', 'p', '--format', format, out);
      expect(r.code, `${format}: ${r.err}`).toBe(0);
      const ws = Workspace.open(w, { readonly: true });
      try {
        const whole = buildExport(ws, 'p', format, out, {});
        expect(whole.files.length, format).toBeGreaterThan(0);
        for (const f of whole.files) {
          expect(readFileSync(f.name, 'utf8') === f.content, `${format}: ${path.relative(dir, f.name)} as rendered in memory`).toBe(true);
        }
        if (format === 'jsonl') expect(Buffer.byteLength(whole.files[0]!.content), 'several write chunks').toBeGreaterThan(3 << 20);
        if (format === 'trec-run') expect(whole.files.map((f) => path.basename(f.name)).sort()).toEqual(['p.bm25.out', 'p.other.out']);
      } finally {
        ws.close();
      }
      const left = readdirSync(path.dirname(out), { recursive: true }).map(String).filter((f) => f.endsWith('.tmp'));
      expect(left, format).toEqual([]);
    }
  });

  it('renders into temporary files and carries no content: nothing of the files crosses from the compute worker', () => {
    bigPool();
    const ws = Workspace.open(w, { readonly: true });
    try {
      const out = path.join(dir, 'p.jsonl');
      const target = prepareExportWrite(ws, 'jsonl', out, { pool: 'p' });
      const stream = openExportStream(target);
      const b = buildExport(ws, 'p', 'jsonl', target.abs, { streamToken: stream.token });
      const f = b.files[0]!;
      expect(f.content).toBe('');
      expect(f.temp && path.dirname(f.temp)).toBe(dir);
      expect(f.bytes).toBe(readFileSync(f.temp!).length);
      expect(readFileSync(f.temp!, 'utf8')).toBe(buildExport(ws, 'p', 'jsonl', target.abs, {}).files[0]!.content);
      expect(f.lines).toBe(1200);
      expect(existsSync(out), 'not renamed yet').toBe(false);
      abandonExportStream(target, stream);
      expect(readdirSync(dir).sort()).toEqual(['w.qpairs', 'w.qpairs-shm', 'w.qpairs-wal'].filter((n) => existsSync(path.join(dir, n))));
    } finally {
      ws.close();
    }
  });

  it('a streamed export that fails while rendering leaves no temporary file, and an hf-dataset one no folder', async () => {
    bigPool();
    const ws = Workspace.open(w);
    try {
      // A candidate id with white space: askubuntu refuses it mid-file (after its first lines are written).
      ws.db.transaction(() => {
        ws.upsertQuestion({ id: 'bad id', source: 's', title: 't', body: 'b' });
        ws.addPoolQuery('p', 'q1259', ['bad id']);
        ws.addLabel({ pool: 'p', queryId: 'q1259', candidateId: 'bad id', annotator: 'x', value: '1', origin: 't' });
        ws.setRunScore(ws.ensureRun('p', 'bm25', 'test'), 'q1259', 'bad id', 1);
      })();
    } finally {
      ws.close();
    }
    const out = path.join(dir, 'a', 'p.txt');
    mkdirSync(path.dirname(out));
    const r = await runCli('export', w, '--pool', 'p', '--format', 'askubuntu', '--run', 'bm25', out);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/white space/);
    expect(readdirSync(path.dirname(out))).toEqual([]);
    // hf-dataset: a workspace it cannot read after its folder was made (the pool is gone) takes the folder back.
    const hf = path.join(dir, 'hf', 'p');
    const h = await runCli('export', w, '--pool', 'nope', '--format', 'hf-dataset', hf);
    expect(h.code).not.toBe(0);
    expect(existsSync(path.join(dir, 'hf'))).toBe(false);
  });
});
