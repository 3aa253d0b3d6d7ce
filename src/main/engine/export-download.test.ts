/**
 * export.write with `download` cancelled (job.cancel) while the agreement bootstrap runs in a compute
 * worker, or while the files are written: "export cancelled: nothing was written", and nothing is left
 * in the server's download folder — no temporary file, no export folder, no id.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addThreeAnnotatorPool } from '../export/test-pool';
import { Workspace } from '../workspace/workspace';
import { configureCompute } from './compute';
import { Engine } from './engine';
import { cancelAtFirst, withJobEvents } from './test-engine';
import { downloadBytes, withoutDownloadFolder } from './export-download';
import { QPairsError } from '../errors';

let dir: string;
let base: string;
let engine: Engine;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-exportdl-'));
  base = path.join(dir, 'downloads');
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => addThreeAnnotatorPool(ws, 300, 10));
  engine = new Engine(ws, { transport: 'http', downloadBase: base });
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Everything under the download folder but the server's own (empty) folder. */
function leftBehind(): string[] {
  if (!existsSync(base)) return [];
  return readdirSync(base, { recursive: true }).map(String).filter((n) => n.includes(path.sep));
}

describe('a download export cancelled', () => {
  for (const [when, match, compute] of [
    ['during the agreement bootstrap (in a worker)', (m: string) => m.startsWith("the datasheet's agreement bootstrap"), { inlineLimitMs: 0 }],
    ['while the files are written', (m: string) => m === 'writing the files', { workerPath: null }],
  ] as const) {
    it(`${when} leaves nothing in the download folder`, async () => {
      const restore = configureCompute(compute);
      const cancel = cancelAtFirst(engine, (p) => match(p.message));
      try {
        const { result } = await withJobEvents(engine, 'export', () => engine.invoke('export.write', { pool: 'p', format: 'jsonl', download: true }, { annotator: null, local: false }), cancel.onProgress);
        expect(await cancel.asked).toEqual({ cancelled: true });
        expect(String((result as PromiseRejectedResult).reason)).toContain('export cancelled: nothing was written');
        expect(leftBehind()).toEqual([]);
        expect(engine.downloads.size).toBe(0);
      } finally {
        configureCompute(restore);
      }
    });
  }
});

describe('a download export that fails', () => {
  it('names its files by their names in the download, never the server folder they were written to', () => {
    const folder = path.join(base, '123-abcdef01', '0011223344556677');
    expect(withoutDownloadFolder(`cannot write ${path.join(folder, 'p', 'data', 'pairs.jsonl')}: the disk is full; nothing was written`, folder)).toBe(
      `cannot write ${path.join('p', 'data', 'pairs.jsonl')}: the disk is full; nothing was written`,
    );
    expect(withoutDownloadFolder(`cannot create ${folder}: no space`, folder)).toBe("cannot create the server's download folder: no space");
  });
});

describe('an hf-dataset download past 4 GiB', () => {
  it('is refused as the export being too large for a zip, not as an internal error', () => {
    const files = [
      { path: '/x/p/data/pairs.jsonl', name: 'p/data/pairs.jsonl', bytes: 5 * 1024 ** 3 },
      { path: '/x/p/README.md', name: 'p/README.md', bytes: 100 },
    ];
    const err = (() => {
      try {
        downloadBytes({ owner: 'token:carol', name: 'p.zip', files, zip: true });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(QPairsError);
    expect((err as Error).message).toContain('p.zip cannot be downloaded: the files are too large for a ZIP without ZIP64 (4 GiB)');
    expect(downloadBytes({ owner: 'token:carol', name: 'p.zip', files: [{ ...files[1]!, bytes: 100 }], zip: true })).toBe(30 + 11 + 100 + 46 + 11 + 22);
  });
});
