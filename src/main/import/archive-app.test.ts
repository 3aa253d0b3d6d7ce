/**
 * The app's import dialog with a dump archive, through the engine's `import.start` as the app
 * calls it: a path (the desktop file dialog; serve mode for a local owner) and an upload (serve
 * mode: remote clients upload, never name server-side paths; the upload keeps the chosen file
 * name, so the site and archive kind are read from it). Errors name the upload by the name the
 * user chose, with the member.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackedDataset } from '../../../tests/datasets';
import type { JobDone } from '../../shared/contract';
import { Engine } from '../engine/engine';
import { jobDone, servedEngine } from '../engine/test-team';
import { liveSevenZipWorkers, runSevenZip } from './sevenzip';
import { cleanupTemp, tempDir } from './test-helpers';

const SITE_7Z = 'cstheory.meta.stackexchange.com.7z';
let dir: string;
let archive: string;
/** Upload ids → files, as the serve-mode upload store resolves them (`<store>/<id>/<chosen name>`). */
const uploads = new Map<string, string>();

beforeAll(async () => {
  dir = tempDir();
  copyFileSync(unpackedDataset('stackexchange-cstheory-meta/Posts.xml'), path.join(dir, 'Posts.xml'));
  copyFileSync(unpackedDataset('stackexchange-cstheory-meta/PostLinks.xml'), path.join(dir, 'PostLinks.xml'));
  const r = await runSevenZip(dir, ['a', '-bd', '-t7z', '-mx=5', SITE_7Z, 'Posts.xml', 'PostLinks.xml']);
  expect(r.code).toBe(0);
  archive = path.join(dir, SITE_7Z);
  // An "upload" of the archive: stored under its id, keeping the chosen name.
  mkdirSync(path.join(dir, 'up-0123456789'));
  copyFileSync(archive, path.join(dir, 'up-0123456789', SITE_7Z));
  uploads.set('0123456789', path.join(dir, 'up-0123456789', SITE_7Z));
  const bad = Buffer.from(readFileSync(archive));
  for (let i = 0; i < 16; i++) bad[Math.floor(bad.length * 0.7) + i] ^= 0x5a;
  mkdirSync(path.join(dir, 'up-abcdef0123'));
  writeFileSync(path.join(dir, 'up-abcdef0123', SITE_7Z), bad);
  uploads.set('abcdef0123', path.join(dir, 'up-abcdef0123', SITE_7Z));
}, 180_000);

afterAll(() => {
  cleanupTemp();
  expect(liveSevenZipWorkers()).toBe(0);
});

const engineFor = (name: string): Engine => servedEngine(path.join(dir, `${name}.qpairs`), uploads);

async function importJob(engine: Engine, sources: Array<{ path: string } | { uploadId: string; name: string }>): Promise<JobDone> {
  const { jobId } = (await engine.invoke('import.start', { format: 'stackexchange', sources })) as { jobId: string };
  return jobDone(engine, jobId);
}

describe('import dialog: a Stack Exchange archive', () => {
  it('by path (desktop dialog): questions, duplicates and the site as source', async () => {
    const engine = engineFor('by-path');
    const done = await importJob(engine, [{ path: archive }]);
    expect(done.ok, done.error ?? '').toBe(true);
    expect(await engine.invoke('workspace.stats', {})).toMatchObject({ questions: 589, answers: 1280, duplicatePairs: 13 });
    expect(engine.ws.stats()).toMatchObject({ sources: { 'cstheory.meta': 589 } });
    engine.close();
  });

  it('uploaded (serve mode): the same; a corrupt upload fails naming the chosen name and the member, changing nothing', async () => {
    const engine = engineFor('uploaded');
    const bad = await importJob(engine, [{ uploadId: 'abcdef0123', name: SITE_7Z }]);
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatch(new RegExp(`^${SITE_7Z.replace(/\./g, '\\.')}!/Posts\\.xml: cannot unpack Posts\\.xml from the archive ${SITE_7Z.replace(/\./g, '\\.')}: `));
    expect(bad.error).not.toContain(dir);
    expect(await engine.invoke('workspace.stats', {})).toMatchObject({ questions: 0, answers: 0, duplicatePairs: 0 });
    const done = await importJob(engine, [{ uploadId: '0123456789', name: SITE_7Z }]);
    expect(done.ok, done.error ?? '').toBe(true);
    expect(await engine.invoke('workspace.stats', {})).toMatchObject({ questions: 589, answers: 1280, duplicatePairs: 13 });
    expect(engine.ws.stats()).toMatchObject({ sources: { 'cstheory.meta': 589 } });
    engine.close();
  });
});
