/**
 * An export's preview (export.preview: each file's first lines and the datasheet) is the export's
 * own head, computed without the whole export's text: it used to read every question of the pool
 * with its text and render all of it (59 MB for a 3,000-query pool) to show ten lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXPORT_FORMATS } from '../../shared/gold';
import { Workspace } from '../workspace/workspace';
import { buildExport, defaultExportName } from '.';

let dir: string;
let ws: Workspace;
const QUERIES = 50;
const DEPTH = 4;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-export-preview-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    for (let i = 0; i < QUERIES * (DEPTH + 1); i++) ws.upsertQuestion({ id: `x${i}`, source: i % 3 ? 'a' : 'b', title: `title ${i}`, body: `body of ${i},\n"quoted"` });
    ws.createPool({ name: 'p', scheme: 'binary' });
    const run = ws.ensureRun('p', 'bm25', 'retriever');
    for (let q = 0; q < QUERIES; q++) {
      const qid = `x${q * (DEPTH + 1)}`;
      const cands = Array.from({ length: DEPTH }, (_, j) => `x${q * (DEPTH + 1) + j + 1}`);
      ws.addPoolQuery('p', qid, cands);
      cands.forEach((c, j) => ws.setRunScore(run, qid, c, DEPTH - j));
      // Gold on most pairs, some left out (unlabeled rows and a warning).
      cands.forEach((c, j) => (q + j) % 5 !== 0 && ws.addLabel({ pool: 'p', queryId: qid, candidateId: c, annotator: 'gold', value: j === 0 ? '1' : '0', origin: 'test' }));
    }
  });
});
afterAll(() => {
  ws?.close();
  rmSync(dir, { recursive: true, force: true });
});

const now = new Date('2026-01-02T03:04:05Z');

describe('export preview', () => {
  for (const format of EXPORT_FORMATS) {
    it(`${format}: the same line counts, datasheet and first lines as the whole export`, () => {
      const out = defaultExportName('p', format);
      const whole = buildExport(ws, 'p', format, out, { now });
      const preview = buildExport(ws, 'p', format, out, { now, previewLines: 7 });
      expect(preview.datasheet).toEqual(whole.datasheet);
      expect(preview.warnings).toEqual(whole.warnings);
      expect(preview.files.map((f) => [f.name, f.lines])).toEqual(whole.files.map((f) => [f.name, f.lines]));
      expect(whole.files.some((f) => f.lines > 7)).toBe(true);
      preview.files.forEach((f, i) => {
        const all = whole.files[i]!;
        // Records (a csv field may hold a line break): the preview's content is the whole's first ones.
        expect(all.content.startsWith(f.content)).toBe(true);
        if (all.lines > 7) expect(f.content.length).toBeLessThan(all.content.length);
        else expect(f.content).toBe(all.content);
      });
    });
  }

  it('reads the text of the previewed pairs only (jsonl, csv, hf-dataset)', () => {
    for (const format of ['jsonl', 'csv', 'hf-dataset'] as const) {
      const asked: number[] = [];
      const spy = vi.spyOn(ws, 'getQuestions').mockImplementation(function (this: Workspace, ids: readonly string[]) {
        asked.push(ids.length);
        return Workspace.prototype.getQuestions.call(ws, ids);
      });
      try {
        buildExport(ws, 'p', format, defaultExportName('p', format), { now, previewLines: 7 });
        const previewAsked = asked.reduce((a, b) => a + b, 0);
        asked.length = 0;
        buildExport(ws, 'p', format, defaultExportName('p', format), { now });
        const wholeAsked = asked.reduce((a, b) => a + b, 0);
        // 7 pairs: at most 2 queries (of 4 candidates) and their 7 candidates; the whole export: all 250 questions (twice, before).
        expect(previewAsked).toBeLessThanOrEqual(9);
        expect(wholeAsked).toBe(QUERIES * (DEPTH + 1));
      } finally {
        spy.mockRestore();
      }
    }
  });
});
