/**
 * `qpairs models list` on a workspace with a model row whose report and training record are `{}`
 * (damaged, or written by another program): the row is listed with what it has and "—" for the rest.
 * It stopped with "internal error: TypeError: Cannot read properties of undefined (reading 'length')".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { runCli } from './test-cli';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('lists a model row whose report and training are {} with "—" for what it lacks', async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-models-damaged-'));
  const w = path.join(dir, 'w.qpairs');
  const ws = Workspace.create(w);
  ws.db.prepare(`INSERT INTO models(name, kind, saved, report, training, created) VALUES ('bare', 'tfidf', x'00', '{}', '{}', '2026-01-01T00:00:00Z')`).run();
  ws.close();
  const { code, out, err } = await runCli('models', 'list', w);
  expect(err).toBe('');
  expect(code).toBe(0);
  const row = out.split('\n').find((l) => l.startsWith('bare '))!;
  expect(row.split(/\s{2,}/)).toEqual(['bare', 'tfidf', 'default settings', '—/—', '—', 'unknown', '2026-01-01T00:00:00']);
  const listed = JSON.parse((await runCli('models', 'list', w, '--json')).out) as { models: Array<{ report: unknown; training: unknown }> };
  expect(listed.models[0]!.report).toMatchObject({ epochs: null, bestEpoch: null, history: [] });
  expect(listed.models[0]!.training).toMatchObject({ trainPools: null, positives: null });
});
