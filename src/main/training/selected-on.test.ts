/**
 * A model's figures are flagged as chosen on the queries that chose its kept version, whatever pool holds
 * those queries now: the flag matched the dev pool by name, so a pool made again under that name with other
 * queries (an import undone and another made) was flagged, and the dev queries under another name were not.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliOk as ok } from '../cli/test-cli';
import { topicPoolsWorkspace, writeLines } from '../cli/test-topic-pools';
import { Workspace } from '../workspace/workspace';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-selected-on-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Runs = Record<string, { selectedOn?: unknown }>;
const evalRuns = async (w: string, pool: string): Promise<Runs> => (JSON.parse(await ok('eval', w, '--pool', pool, '--json')) as { runs: Runs }).runs;
const poolId = (w: string, name: string): number => {
  const ws = Workspace.open(w);
  try {
    return ws.pool(name).id;
  } finally {
    ws.close();
  }
};

describe('the dev-pool flag follows the dev queries, not the pool name', () => {
  it('a pool made again under the dev pool name with other queries is not flagged; the dev queries under another name are', async () => {
    // Pools T, E, D (6 queries x 3 candidates each, labeled); D is made by the last import.
    const w = await topicPoolsWorkspace(dir, {
      pools: ['T', 'E', 'D'],
      queryTitle: (pool, q, topic) => `${pool} question ${q} about ${topic}`,
      candidateBody: (text, pool) => `${text} candidate ${pool}`,
    });
    await ok('train', w, '--model', 'dae', '--name', 'dae', '--train-pool', 'T', '--dev-pool', 'D', '--epochs', '3');
    expect((await evalRuns(w, 'D')).dae!.selectedOn).toEqual({ by: 'dev', model: 'dae' });
    const devId = poolId(w, 'D');
    // The import that made D undone (dae's run there goes with it), then D made again from E's queries.
    await ok('import', 'undo', w);
    await ok('import', w, '--format', 'labels-csv', path.join(dir, 'labels-E.csv'), '--pool', 'D', '--scheme', 'binary');
    // D's labels again, as pool D2: the queries that chose dae's epoch, under another name.
    await ok('import', w, '--format', 'labels-csv', path.join(dir, 'labels-D.csv'), '--pool', 'D2', '--scheme', 'binary');
    await ok('score', w, '--model', 'dae', '--pool', 'D');
    await ok('score', w, '--model', 'dae', '--pool', 'D2');
    // The new D even has the old one's id (SQLite reuses the highest rowid): an id would not tell them apart either.
    expect(poolId(w, 'D')).toBe(devId);
    expect((await evalRuns(w, 'D')).dae).not.toHaveProperty('selectedOn');
    expect((await evalRuns(w, 'D2')).dae!.selectedOn).toEqual({ by: 'dev', model: 'dae' });
    expect(await ok('eval', w, '--pool', 'D2')).toMatch(/^! dae: chosen on these queries \(its dev pool: the version kept scored best here\) — optimistic, not held out$/m);
    const listed = (JSON.parse(await ok('models', 'list', w, '--json')) as { models: Array<{ name: string; overlap: Array<{ pool: string; selectedOn?: unknown }> }> }).models;
    expect(listed.find((m) => m.name === 'dae')!.overlap.filter((o) => o.selectedOn).map((o) => o.pool)).toEqual(['D2']);
    // The query ids stay server-side: not in listings.
    expect(listed.find((m) => m.name === 'dae')!).not.toHaveProperty('training.selectedOnQueries');

    // A record from before the dev queries were kept matches the dev pool by name, all it has.
    const ws = Workspace.open(w);
    try {
      const t = JSON.parse((ws.db.prepare(`SELECT training FROM models WHERE name = 'dae'`).get() as { training: string }).training) as Record<string, unknown>;
      expect(t.selectedOnQueries).toEqual(['Dq0', 'Dq1', 'Dq2', 'Dq3', 'Dq4', 'Dq5']);
      delete t.selectedOnQueries;
      ws.db.prepare(`UPDATE models SET training = ? WHERE name = 'dae'`).run(JSON.stringify(t));
    } finally {
      ws.close();
    }
    expect((await evalRuns(w, 'D')).dae!.selectedOn).toEqual({ by: 'dev', model: 'dae' });
    expect((await evalRuns(w, 'D2')).dae).not.toHaveProperty('selectedOn');
  }, 120_000);
});

describe("early stopping's held-out training queries", () => {
  it('flag the figures on them (not trained on, yet the epoch kept scored best on them), wherever they are evaluated', async () => {
    const w = await topicPoolsWorkspace(dir, {
      pools: ['T', 'E'],
      queryTitle: (pool, q, topic) => `${pool} question ${q} about ${topic}`,
      candidateBody: (text, pool) => `${text} candidate ${pool}`,
    });
    // No dev pool, no --cv: a seeded fifth of T's 6 clusters is held out to choose the epoch.
    await ok('train', w, '--model', 'dae', '--name', 'dae', '--train-pool', 'T', '--epochs', '3');
    const ws = Workspace.open(w);
    let heldOut: string[];
    try {
      const trained = new Set(ws.db.prepare(`SELECT query_id FROM model_trained_on`).all().map((r) => (r as { query_id: string }).query_id));
      heldOut = ws.poolQueries('T').map((q) => q.queryId).filter((id) => !trained.has(id));
      const t = JSON.parse((ws.db.prepare(`SELECT training FROM models WHERE name = 'dae'`).get() as { training: string }).training) as { earlyStopping: { heldOutQueries: number } };
      expect(t.earlyStopping.heldOutQueries).toBe(heldOut.length);
    } finally {
      ws.close();
    }
    expect(heldOut.length).toBeGreaterThan(0);
    // A pool of the held-out queries alone: the trained-on mark says 0 of them, so only this flag tells.
    const lines = readFileSync(path.join(dir, 'labels-T.csv'), 'utf8').trim().split('\n');
    const held = path.join(dir, 'held.csv');
    writeFileSync(held, [lines[0], ...lines.slice(1).filter((l) => heldOut.includes(l.split(',')[0]!))].join('\n') + '\n');
    await ok('import', w, '--format', 'labels-csv', held, '--pool', 'H', '--scheme', 'binary');
    await ok('score', w, '--model', 'dae', '--pool', 'H');
    const h = (JSON.parse(await ok('eval', w, '--pool', 'H', '--json')) as { runs: Record<string, { selectedOn?: unknown; overlap?: { trainedOn: number } }> }).runs.dae!;
    expect(h.overlap).toMatchObject({ trainedOn: 0 });
    expect(h.selectedOn).toEqual({ by: 'holdout', model: 'dae' });
    expect(await ok('eval', w, '--pool', 'H')).toMatch(
      /^! dae: chosen on these queries \(its early stopping held them out of training: the version kept scored best on them\) — optimistic, not held out$/m,
    );
    // T holds them too (beside the trained-on mark); E, which neither trained nor chose it, is not flagged.
    expect((await evalRuns(w, 'T')).dae!.selectedOn).toEqual({ by: 'holdout', model: 'dae' });
    expect((await evalRuns(w, 'E')).dae).not.toHaveProperty('selectedOn');
    const line = (await ok('models', 'list', w)).split('\n').find((l) => l.startsWith('dae '));
    expect(line).toContain(` T ${6 - heldOut.length}/6 its hold-out, H its hold-out `);
  }, 120_000);
});

describe('the dev queries under other ids', () => {
  it('flag the figures on copies of the dev questions (same or near-same text), not on other questions of the same topics', async () => {
    const w = await topicPoolsWorkspace(dir, {
      pools: ['T', 'D'],
      queryTitle: (pool, q, topic) => `${pool} question ${q} about ${topic}`,
      candidateBody: (text, pool) => `${text} candidate ${pool}`,
    });
    await ok('train', w, '--model', 'dae', '--name', 'dae', '--train-pool', 'T', '--dev-pool', 'D', '--epochs', '3');
    // Pool C asks D's questions again as new questions: q0-q2 word for word, q3-q5 with one more word.
    const ws = Workspace.open(w);
    const copies: string[] = [];
    try {
      for (let q = 0; q < 6; q++) {
        const d = ws.getQuestion(`Dq${q}`)!;
        const body = q < 3 ? d.body : `${d.body} please`;
        copies.push(JSON.stringify({ id: `copy${q}`, title: d.title, body }));
      }
    } finally {
      ws.close();
    }
    await ok('import', w, '--format', 'questions-jsonl', writeLines(dir, 'copies.jsonl', copies));
    const dLabels = readFileSync(path.join(dir, 'labels-D.csv'), 'utf8').trim().split('\n');
    const asPool = (name: string, keep: (q: number) => boolean): void => {
      const rows = dLabels.slice(1).filter((l) => keep(Number(l.split(',')[0]!.slice(2))));
      writeLines(dir, `labels-${name}.csv`, [dLabels[0]!, ...rows.map((l) => l.replace(/^Dq(\d)/, 'copy$1'))]);
    };
    asPool('same', (q) => q < 3);
    asPool('near', (q) => q >= 3);
    for (const pool of ['same', 'near']) {
      await ok('import', w, '--format', 'labels-csv', path.join(dir, `labels-${pool}.csv`), '--pool', pool, '--scheme', 'binary');
      await ok('score', w, '--model', 'dae', '--pool', pool);
      expect((await evalRuns(w, pool)).dae!.selectedOn).toEqual({ by: 'dev', model: 'dae' });
    }
    // T's queries share D's topics and candidates' words, yet are other questions: not flagged.
    expect((await evalRuns(w, 'T')).dae).not.toHaveProperty('selectedOn');
  }, 120_000);
});
