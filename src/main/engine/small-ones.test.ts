/**
 * Issue 23, item 7 and the training queue of item 6, through the engine as each role calls it:
 * model names are owned; undo only undoes a pair's latest event and names no one else's; exports
 * never overwrite existing files unless forced; trainings queue (one at a time by default).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobProgress, LabelAck } from '../../shared/contract';
import type { LabelRecord } from '../../shared/types';
import { EXPORT_FILES_EXIST } from '../../shared/gold';
import { QPairsError } from '../errors';
import { writeExport } from '../export';
import { toWireError } from '../serve/wire';
import type { Engine } from './engine';
import { trainTfidf } from './test-models';
import { jobDone, teamEngine } from './test-team';

let dir: string;
let engine: Engine;
const CAROL = { annotator: 'carol', local: false } as const; // judge
const ALICE = { annotator: 'alice', local: false } as const;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-small-'));
  engine = teamEngine(dir);
});
afterEach(async () => {
  await engine.jobs.idle();
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const train = (name: string, caller?: { annotator: string; local: boolean }): Promise<void> => trainTfidf(engine, name, ['open'], caller);

describe('model names are owned', () => {
  it("a judge cannot replace the owner's model (nor its runs); the judge's own model is theirs to retrain; the owner may replace any", async () => {
    await train('ranker');
    const runsBefore = engine.ws.listRuns('sealed').filter((r) => r.name === 'ranker');
    expect(runsBefore).toHaveLength(1);
    const refused = engine.invoke('models.train', { model: 'tfidf', name: 'ranker', trainPools: ['open'] }, CAROL);
    await expect(refused).rejects.toMatchObject({ code: 'forbidden' });
    await expect(refused).rejects.toThrow(/a model named "ranker" already exists and is not yours/);
    expect(engine.ws.listRuns('sealed').filter((r) => r.name === 'ranker')).toEqual(runsBefore);
    // A name that is a pool's retriever or imported run is refused too.
    await expect(engine.invoke('models.train', { model: 'tfidf', name: 'secretrun' }, CAROL)).rejects.toThrow(/choose another name/);

    await train('judged', CAROL);
    await train('judged', CAROL); // her own: retraining is fine
    expect(engine.ws.db.prepare(`SELECT created_by FROM models WHERE name = 'judged'`).pluck().get()).toBe('carol');
    engine.ws.setAnnotatorRole('erin', 'judge');
    const other = engine.invoke('models.train', { model: 'tfidf', name: 'judged' }, { annotator: 'erin', local: false });
    await expect(other).rejects.toThrow(/not yours/);
    await expect(other).rejects.not.toThrow(/carol/);
    await train('judged'); // the owner may
    expect(engine.ws.db.prepare(`SELECT created_by FROM models WHERE name = 'judged'`).pluck().get()).toBeNull();
  });
});

describe('trainings queue', () => {
  it('with one slot, a second training waits, shown as queued, then runs', async () => {
    const progress: JobProgress[] = [];
    engine.on('job.progress', (p) => progress.push(p));
    const a = (await engine.invoke('models.train', { model: 'tfidf', name: 'first', trainPools: ['open'] })) as { jobId: string };
    const b = (await engine.invoke('models.train', { model: 'tfidf', name: 'second', trainPools: ['open'] })) as { jobId: string };
    const [da, db] = await Promise.all([jobDone(engine, a.jobId), jobDone(engine, b.jobId)]);
    expect([da.ok, db.ok]).toEqual([true, true]);
    expect(engine.trainings.max).toBe(1);
    expect(progress.filter((p) => p.jobId === b.jobId)[0]!.message).toBe('queued: 1 training ahead (at most 1 at once)');
    expect(progress.some((p) => p.jobId === a.jobId && /queued/.test(p.message))).toBe(false);
    expect(engine.trainings.load).toEqual({ running: 0, queued: 0 });
  });

  it('a queued training cancelled before its turn never runs', async () => {
    const a = (await engine.invoke('models.train', { model: 'tfidf', name: 'first', trainPools: ['open'] })) as { jobId: string };
    const b = (await engine.invoke('models.train', { model: 'tfidf', name: 'second', trainPools: ['open'] })) as { jobId: string };
    const doneB = jobDone(engine, b.jobId);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    engine.jobs.cancel(b.jobId);
    expect((await doneB).cancelled).toBe(true);
    expect((await jobDone(engine, a.jobId)).ok).toBe(true);
    expect(engine.ws.db.prepare(`SELECT count(*) FROM models WHERE name = 'second'`).pluck().get()).toBe(0);
  });
});

describe('undo', () => {
  it('restores the previous value only for the pair’s latest event; an older one is refused and changes nothing', async () => {
    const set = async (value: string): Promise<number> => ((await engine.invoke('label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c1', annotator: 'alice', value }, ALICE)) as LabelAck).seq!;
    const current = (): string | undefined => engine.ws.currentLabels('sealed', 'alice').find((l) => l.queryId === 'q1' && l.candidateId === 'c1')?.value;
    const s2 = await set('2');
    const s3 = await set('3');
    // Said so that the one who pressed u in a tab whose history never held event s3 knows what to do.
    await expect(engine.invoke('label.undo', { seq: s2, annotator: 'alice' }, ALICE)).rejects.toThrow(
      `label event ${s2} (q1 → c1) is not your latest label of that pair: event ${s3} changed it since (from another tab or window, or a script). Undo that change where it was made, or set the label you want.`,
    );
    expect(current()).toBe('3');
    const u3 = (await engine.invoke('label.undo', { seq: s3, annotator: 'alice' }, ALICE)) as LabelRecord;
    expect(current()).toBe('2');
    // The same undo sent again (its answer lost) answers that undo again while it is the pair's latest: nothing undone twice.
    const events = engine.ws.labelHistory('sealed').length;
    expect(await engine.invoke('label.undo', { seq: s3, annotator: 'alice' }, ALICE)).toEqual(u3);
    expect(engine.ws.labelHistory('sealed')).toHaveLength(events);
    expect(current()).toBe('2');
    // Undo again walks back one more label (the undone s3 no longer stands in the way) …
    await engine.invoke('label.undo', { seq: s2, annotator: 'alice' }, ALICE);
    expect(current()).toBe('1'); // teamEngine's alice had labeled it 1
    // … but a label given after that stands again.
    const s4 = await set('4');
    await expect(engine.invoke('label.undo', { seq: s2, annotator: 'alice' }, ALICE)).rejects.toThrow(/already undone/);
    await expect(engine.invoke('label.undo', { seq: s3, annotator: 'alice' }, ALICE)).rejects.toThrow(/already undone/);
    const first = engine.ws.db.prepare(`SELECT min(seq) FROM labels l JOIN annotators a ON a.id = l.annotator_id WHERE a.name = 'alice' AND query_id = 'q1' AND candidate_id = 'c1' AND l.pool_id = (SELECT id FROM pools WHERE name = 'sealed')`).pluck().get() as number;
    await expect(engine.invoke('label.undo', { seq: first, annotator: 'alice' }, ALICE)).rejects.toThrow(`event ${s4} changed it since`);
    expect(current()).toBe('4');
  });

  it('a redo sent again (its answer lost) answers the redo saved, adds nothing; another value, or a change since, is refused', async () => {
    const pair = { pool: 'open', queryId: 'q2', candidateId: 'c2', annotator: 'alice' };
    const s = ((await engine.invoke('label.set', { ...pair, value: '6' }, ALICE)) as LabelAck).seq!;
    const u = ((await engine.invoke('label.undo', { seq: s, annotator: 'alice' }, ALICE)) as LabelRecord).seq;
    const redo = (await engine.invoke('label.set', { ...pair, value: '6', ifLatest: u }, ALICE)) as LabelAck;
    const events = engine.ws.labelHistory('open').length;
    const again = (await engine.invoke('label.set', { ...pair, value: '6', ifLatest: u }, ALICE)) as LabelAck;
    expect([again.seq, again.record?.seq, again.record?.value]).toEqual([redo.seq, redo.seq, '6']);
    expect(engine.ws.labelHistory('open')).toHaveLength(events);
    await expect(engine.invoke('label.set', { ...pair, value: '7', ifLatest: u }, ALICE)).rejects.toThrow(/changed since the undo/);
    await engine.invoke('label.set', { ...pair, value: '8' }, ALICE);
    await engine.invoke('label.set', { ...pair, value: '6' }, ALICE);
    await expect(engine.invoke('label.set', { ...pair, value: '6', ifLatest: u }, ALICE)).rejects.toThrow(/changed since the undo/);
  });

  it("a refusal names no one else's event: bob's seq and a missing seq read alike", async () => {
    const bobs = ((await engine.invoke('label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c2', annotator: 'bob', value: '4' }, { annotator: 'bob', local: false })) as LabelAck).seq!;
    const e1 = await engine.invoke('label.undo', { seq: bobs, annotator: 'alice' }, ALICE).catch((e: Error) => e.message);
    const e2 = await engine.invoke('label.undo', { seq: 999_999, annotator: 'alice' }, ALICE).catch((e: Error) => e.message);
    expect(e1).toBe(`no label event ${bobs} of alice`);
    expect(e2).toBe('no label event 999999 of alice');
  });
});

describe('exports never overwrite', () => {
  it('an existing file, datasheet or hf-dataset README.md is refused (nothing written) unless force', async () => {
    const out = path.join(dir, 'gold.jsonl');
    writeFileSync(out, 'mine\n');
    expect(() => writeExport(engine.ws, 'sealed', 'jsonl', out)).toThrow(/refusing to overwrite an existing file: .*gold\.jsonl; nothing was written/);
    expect(readFileSync(out, 'utf8')).toBe('mine\n');
    expect(existsSync(`${out}.datasheet.md`)).toBe(false);
    writeExport(engine.ws, 'sealed', 'jsonl', out, { force: true });
    expect(readFileSync(out, 'utf8')).not.toBe('mine\n');

    const hf = path.join(dir, 'hf');
    mkdirSync(hf);
    writeFileSync(path.join(hf, 'README.md'), '# my card\n');
    expect(() => writeExport(engine.ws, 'sealed', 'hf-dataset', hf)).toThrow(/README\.md/);
    expect(readFileSync(path.join(hf, 'README.md'), 'utf8')).toBe('# my card\n');
    expect(existsSync(path.join(hf, 'data', 'pairs.jsonl'))).toBe(false);
    // Through the contract: the owner's export.write with a path is refused the same way.
    await expect(engine.invoke('export.write', { pool: 'sealed', format: 'jsonl', path: out })).rejects.toThrow(/refusing to overwrite/);
  });
  it('the refusal names the control of the surface it is shown on: --force in the CLI, "Replace them" in the desktop app (the app said give --force)', async () => {
    mkdirSync(path.join(dir, 'desktop'));
    const desktop = teamEngine(path.join(dir, 'desktop'), 'electron');
    try {
      const out = path.join(dir, 'twice.jsonl');
      writeFileSync(out, 'mine\n');
      writeFileSync(`${out}.datasheet.md`, 'my sheet\n');
      expect(() => writeExport(desktop.ws, 'sealed', 'jsonl', out)).toThrow(/; nothing was written \(choose another output, or give --force to replace them\)$/);
      const app = await desktop.invoke('export.write', { pool: 'sealed', format: 'jsonl', path: out }).catch((e: Error) => e.message);
      expect(app).toMatch(/^refusing to overwrite 2 existing files: .*; nothing was written \(Export to… another name, or choose “Replace them” to replace them\)$/);
      expect(app).not.toContain('--force');
      writeFileSync(out, 'mine\n');
      const one = await desktop.invoke('export.write', { pool: 'sealed', format: 'jsonl', path: out, force: false, replaceChosen: true }).catch((e: Error) => e.message);
      expect(one).toMatch(/^refusing to overwrite an existing file: .*twice\.jsonl\.datasheet\.md; nothing was written \(Export to… another name, or choose “Replace them” to replace it\)$/);
      expect(readFileSync(out, 'utf8')).toBe('mine\n');
    } finally {
      desktop.close();
    }
  });
  it("a download's hf-dataset card names the folder its zip holds (POOL/data/pairs.jsonl) in the re-import command, and no server path", async () => {
    const r = await engine.invoke('export.write', { pool: 'open', format: 'hf-dataset' }, { annotator: 'dave', local: false }); // the owner by token: a remote user
    const card = (r as { files: Array<{ name: string; content?: string }> }).files.find((f) => f.name.endsWith('README.md'))!;
    expect(card.name).toBe('open/README.md');
    expect(card.content).toContain('Re-import: `qpairs import W --format labels-jsonl --pool open --scheme graded open/data/pairs.jsonl`');
    expect(card.content).not.toContain(dir);
    expect(card.content).not.toContain('OUT/');
  });
  it("serve mode's owner on the server calling export.write with a path (a script: the served Export screen downloads) is told its force argument, not the desktop app's button", async () => {
    const out = path.join(dir, 'scripted.jsonl');
    writeFileSync(out, 'mine\n');
    writeFileSync(`${out}.datasheet.md`, 'my sheet\n');
    const owner = { annotator: null, local: true } as const;
    const two = await engine.invoke('export.write', { pool: 'sealed', format: 'jsonl', path: out }, owner).catch((e: Error) => e.message);
    expect(two).toMatch(/^refusing to overwrite 2 existing files: .*; nothing was written \(give another path, or give force: true to replace them\)$/);
    expect(two).not.toMatch(/Replace them|--force|Export to/);
    const one = await engine.invoke('export.write', { pool: 'sealed', format: 'jsonl', path: out, replaceChosen: true }, owner).catch((e: Error) => e.message);
    expect(one).toMatch(/scripted\.jsonl\.datasheet\.md; nothing was written \(give another path, or give force: true to replace it\)$/);
    await engine.invoke('export.write', { pool: 'sealed', format: 'jsonl', path: out, force: true }, owner);
    expect(readFileSync(out, 'utf8')).not.toBe('mine\n');
  });
  it('the refusal carries its reason code to the clients (the Export screen offers Replace them on it, not on the words); other errors carry none', async () => {
    const out = path.join(dir, 'coded.jsonl');
    writeFileSync(out, 'mine\n');
    const refused = await engine.invoke('export.write', { pool: 'sealed', format: 'jsonl', path: out }).catch((e: unknown) => e);
    expect(toWireError(refused)).toMatchObject({ code: 'user-error', reason: EXPORT_FILES_EXIST, message: expect.stringMatching(/^refusing to overwrite an existing file/) });
    expect(toWireError(new QPairsError(`refusing to overwrite ${out}: said by something else`))).toEqual({ code: 'user-error', message: `refusing to overwrite ${out}: said by something else` });
    // Free-text reasons stay on the server.
    expect(toWireError(new QPairsError('bad', { reason: 'bad option' }))).toEqual({ code: 'user-error', message: 'bad' });
    const other = await engine.invoke('export.write', { pool: 'sealed', format: 'jsonl', annotator: 'nobody-at-all', path: path.join(dir, 'other.jsonl') }).catch((e: unknown) => e);
    expect(toWireError(other)).toEqual({ code: 'not-found', message: expect.stringContaining('nobody-at-all') });
  });
});
