/**
 * End to end: two annotators label one pool blind (through the engine API, and over HTTP in
 * serve mode at the same time), a judge settles their disagreements, the researcher reads
 * agreement and the ranker comparison, and the team exports the gold set.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LabelAck, LabelRecord, PoolEvaluation, QueryView, SettleAck } from '../../shared/contract';
import type { AgreementView, AggregationSummary, AssignmentView, CompareView, ExportPreview, ExportWritten, ReviewQueue } from '../../shared/gold';
import { Workspace } from '../workspace/workspace';
import { startServer, type RunningServer } from '../serve/server';
import { dataset } from '../../../tests/datasets';
import { Engine } from './engine';
import { runImport } from './work';

let dir: string;
let engine: Engine;
const SEMEVAL_DEV = dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');

/** Pool "team" (binary, no gold labels): the first 4 SemEval dev queries and their candidates, with the search engine's run and its reverse. */
async function teamWorkspace(transport: 'http' | 'electron'): Promise<Engine> {
  const ws = Workspace.create(path.join(dir, `${transport}.qpairs`));
  await runImport(ws, 'semeval', [SEMEVAL_DEV], { pool: 'dev' });
  const se = ws.runScores(ws.listRuns('dev')[0]!.id);
  ws.transaction(() => {
    ws.createPool({ name: 'team', scheme: 'binary', guidelines: 'Similar = answering one answers the other.' });
    const run = ws.ensureRun('team', 'search-engine', 'imported');
    const rev = ws.ensureRun('team', 'reversed', 'test');
    for (const q of ws.poolQueries('dev').slice(0, 4)) {
      ws.addPoolQuery('team', q.queryId, q.candidates);
      for (const c of q.candidates) {
        ws.setRunScore(run, q.queryId, c, se.get(q.queryId)!.get(c)!);
        ws.setRunScore(rev, q.queryId, c, -se.get(q.queryId)!.get(c)!);
      }
    }
  });
  return new Engine(ws, { transport });
}

/** Each annotator's label: gold's relevance, with a deterministic share flipped per annotator. */
function intended(ws: Workspace, annotator: string): Map<string, string> {
  const gold = new Map(ws.currentLabels('dev', 'gold').map((l) => [`${l.queryId}|${l.candidateId}`, l.value === 'Irrelevant' ? '0' : '1']));
  const out = new Map<string, string>();
  let i = 0;
  for (const q of ws.poolQueries('team')) {
    for (const c of q.candidates) {
      const g = gold.get(`${q.queryId}|${c}`)!;
      const flip = annotator === 'alice' ? i % 5 === 1 : i % 7 === 3;
      out.set(`${q.queryId}|${c}`, flip ? (g === '1' ? '0' : '1') : g);
      i++;
    }
  }
  return out;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-gold-e2e-'));
});
afterEach(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('two annotators and a judge through the engine', () => {
  it('label blind, measure agreement, settle by impact, evaluate the aggregate, compare, export', async () => {
    engine = await teamWorkspace('electron');
    const inv = <T>(c: string, a: unknown): Promise<T> => engine.invoke(c, a) as Promise<T>;
    await inv('annotator.add', { name: 'judy', role: 'judge' });
    const asg = await inv<AssignmentView>('pool.assign', { pool: 'team', annotators: ['alice', 'bob'] });
    expect(asg).toMatchObject({ mode: 'full', annotators: ['alice', 'bob'], judges: ['judy'] });
    expect(asg.progress.map((p) => p.assignedQueries)).toEqual([4, 4]);

    // Both label every pair, interleaved, each seeing only their own labels.
    const want = { alice: intended(engine.ws, 'alice'), bob: intended(engine.ws, 'bob') };
    const views = await Promise.all(
      (['alice', 'bob'] as const).map(async (who) => {
        const seen: QueryView[] = [];
        let v = await inv<QueryView | null>('annotate.query', { pool: 'team', annotator: who });
        while (v) {
          seen.push(v);
          expect(v.blind).toBe(true);
          expect(v.candidates.every((c) => Object.keys(c.others).length === 0 && Object.keys(c.runs).length === 0)).toBe(true);
          for (const c of v.candidates) {
            const ack = await inv<LabelAck>('label.set', { pool: 'team', queryId: v.queryId, candidateId: c.id, annotator: who, value: want[who].get(`${v.queryId}|${c.id}`)! });
            expect(ack.saved).toBe(true);
          }
          v = await inv<QueryView | null>('annotate.navigate', { pool: 'team', annotator: who, from: v.queryId, direction: 'next-unlabeled' });
        }
        return seen.length;
      }),
    );
    expect(views).toEqual([4, 4]);
    const mine = await inv<AssignmentView>('pool.assignment', { pool: 'team', annotator: 'alice' });
    expect(mine.progress.find((p) => p.annotator === 'alice')).toMatchObject({ doneQueries: 4, assignedQueries: 4 });
    expect(mine.queries).toHaveLength(4);
    expect(mine.assigned).toBe(true);
    // The judge is not assigned: the plan, marked so, in one answer (it was refused, so Annotate asked twice).
    const judy = await inv<AssignmentView>('pool.assignment', { pool: 'team', annotator: 'judy' });
    expect(judy).toMatchObject({ mode: 'full', annotators: ['alice', 'bob'], judges: ['judy'], assigned: false, queries: [] });
    expect(judy.progress.map((p) => p.annotator)).toEqual(['alice', 'bob']);

    // Agreement.
    const ag = await inv<AgreementView>('agreement.report', { pool: 'team', bootstrap: 200, seed: 2 });
    const pairs = engine.ws.poolQueries('team').reduce((n, q) => n + q.candidates.length, 0);
    expect(ag).toMatchObject({ annotators: ['alice', 'bob'], items: pairs, queries: 4 });
    expect(ag.pairs[0]).toMatchObject({ a: 'alice', b: 'bob', items: pairs });
    expect(ag.pairs[0]!.cohenKappa.value).not.toBeNull();
    expect(ag.pairs[0]!.ci95.value).not.toBeNull();
    const disagreeing = [...want.alice].filter(([k, v]) => want.bob.get(k) !== v).length;
    expect(disagreeing).toBeGreaterThan(3);
    expect(ag.perQuery.reduce((n, q) => n + q.disagreements.length, 0)).toBe(disagreeing);
    expect(ag.overTime.at(-1)!.queries).toBe(4);

    // The review queue, settled in impact order; it shrinks by one each time.
    const events: LabelRecord[] = [];
    engine.on('label.changed', (r) => events.push(r));
    let q = await inv<ReviewQueue>('review.queue', { pool: 'team', judge: 'judy' });
    expect(q).toMatchObject({ total: disagreeing, settled: 0, remaining: disagreeing, values: ['1', '0'] });
    const impacts = q.items.map((i) => i.impact);
    expect(impacts).toEqual([...impacts].sort((a, b) => b - a));
    expect(q.items[0]!.queryTitle).toBeTruthy();
    expect(q.items[0]!.labels.map((l) => l.annotator)).toEqual(['alice', 'bob']);
    await expect(inv('review.settle', { pool: 'team', judge: 'alice', queryId: q.items[0]!.queryId, candidateId: q.items[0]!.candidateId, value: '1' })).rejects.toMatchObject({
      code: 'user-error',
      message: expect.stringMatching(/not a judge/),
    });
    const agreed = [...want.alice].find(([k, v]) => want.bob.get(k) === v)![0].split('|');
    await expect(inv('review.settle', { pool: 'team', judge: 'judy', queryId: agreed[0], candidateId: agreed[1], value: '1' })).rejects.toThrow(/not a disagreement/);
    const gold = new Map(engine.ws.currentLabels('dev', 'gold').map((l) => [`${l.queryId}|${l.candidateId}`, l.value === 'Irrelevant' ? '0' : '1']));
    let remaining = disagreeing;
    while (q.items.length) {
      const it = q.items[0]!;
      const ack = await inv<SettleAck>('review.settle', { pool: 'team', judge: 'judy', queryId: it.queryId, candidateId: it.candidateId, value: gold.get(`${it.queryId}|${it.candidateId}`)! });
      expect(ack.remaining).toBe(--remaining);
      q = await inv<ReviewQueue>('review.queue', { pool: 'team', judge: 'judy' });
      expect(q.items).toHaveLength(remaining);
    }
    expect(events).toHaveLength(disagreeing);
    expect(events.every((e) => e.annotator === 'judy')).toBe(true);

    // The aggregate is gold's relevance everywhere both agreed or the judge settled.
    const sum = await inv<AggregationSummary>('pool.aggregation', { pool: 'team' });
    expect(sum).toMatchObject({ rule: 'adjudicated', resolved: pairs, unresolved: 0, settled: disagreeing });
    for (const [k, v] of want.alice) if (want.bob.get(k) === v) engine.ws.addLabel({ pool: 'team', queryId: k.split('|')[0]!, candidateId: k.split('|')[1]!, annotator: 'ref', value: v, origin: 't' });
    for (const [k, v] of want.alice) if (want.bob.get(k) !== v) engine.ws.addLabel({ pool: 'team', queryId: k.split('|')[0]!, candidateId: k.split('|')[1]!, annotator: 'ref', value: gold.get(k)!, origin: 't' });
    engine.ws.setAnnotatorRole('ref', 'system');
    const ev = await inv<PoolEvaluation>('eval.pool', { pool: 'team', convention: 'zero' });
    expect(ev.annotator).toBe('@aggregate');
    const ref = await inv<PoolEvaluation>('eval.pool', { pool: 'team', annotator: 'ref', convention: 'zero' });
    // Same values (the query order, hence the summation order, differs).
    for (const [run, m] of Object.entries(ref.runs)) {
      for (const [k, x] of Object.entries(m)) {
        if (k === 'ci') continue; // intervals compared below
        expect((ev.runs[run] as unknown as Record<string, number>)[k], `${run} ${k}`).toBeCloseTo(x, 12);
      }
      for (const metric of ['MAP', 'MRR'] as const) {
        // A metric on which a run scores the same on every query has no interval under either.
        const want = m.ci![metric]!;
        if (want === null) expect(ev.runs[run]!.ci![metric], `${run} ${metric} CI`).toBeNull();
        else ev.runs[run]!.ci![metric]!.forEach((bound, i) => expect(bound, `${run} ${metric} CI`).toBeCloseTo(want[i]!, 12));
      }
    }
    const alice = await inv<PoolEvaluation>('eval.pool', { pool: 'team', annotator: 'alice', convention: 'zero' });
    expect(alice.annotator).toBe('alice');

    // Ranker comparison on the aggregate.
    const cmp = await inv<CompareView>('eval.compare', { pool: 'team', runs: ['search-engine', 'reversed'], convention: 'zero', bootstrap: 200, permutations: 500 });
    expect(cmp).toMatchObject({ annotator: '@aggregate', metric: 'AP', queries: 4 });
    expect(cmp.pairs[0]!.pPermutation.value).toBeGreaterThan(0);
    expect(cmp.pairs[0]!.pHolmT).toMatchObject({ note: 'Holm over 1 pair' });
    await expect(inv('eval.compare', { pool: 'team', runs: ['search-engine'] })).rejects.toMatchObject({ code: 'invalid-argument' });

    // Export: preview, download (no path), and a file write from the desktop app.
    const pv = await inv<ExportPreview>('export.preview', { pool: 'team', format: 'csv', lines: 3, text: false });
    expect(pv.files[0]!.head[0]).toBe('query_id,candidate_id,annotator,label,grade,relevant,status,votes');
    expect(pv.files[0]!.head).toHaveLength(3);
    expect(pv.datasheet).toMatch(/## Agreement\n\n2 annotators \(alice, bob\)/);
    expect(pv.datasheet).toMatch(/\| settled by a judge \| \d+ \|/);
    const dl = await inv<ExportWritten>('export.write', { pool: 'team', format: 'trec-run' });
    expect(dl.files.map((f) => f.name)).toEqual(['team.search-engine.run', 'team.reversed.run', 'team.run.datasheet.md']);
    expect(dl.files[0]!.content).toMatch(/^Q268 Q0 Q268_R4 1 /);
    const out = path.join(dir, 'team.qrels');
    const wr = await inv<ExportWritten>('export.write', { pool: 'team', format: 'qrels', path: out });
    expect(wr.files.map((f) => path.basename(f.name))).toEqual(['team.qrels', 'team.qrels.datasheet.md']);
    expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(pairs);

    // Another rule.
    const maj = await inv<AggregationSummary>('pool.setAggregation', { pool: 'team', rule: 'majority' });
    expect(maj).toMatchObject({ rule: 'majority', resolved: pairs });
    await expect(inv('pool.setAggregation', { pool: 'team', rule: 'plurality' })).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(inv('label.set', { pool: 'team', queryId: 'Q268', candidateId: 'Q268_R4', annotator: '@aggregate', value: '1' })).rejects.toMatchObject({
      code: 'invalid-argument',
    });
  });
});

describe('serve mode: two annotators at the same time, blind, and a judge', () => {
  let server: RunningServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('labels concurrently over HTTP, keeps annotators blind, lets only the judge settle', async () => {
    engine = await teamWorkspace('http');
    engine.ws.setAnnotatorRole('judy', 'judge');
    const staticDir = path.join(dir, 'static');
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
    server = await startServer({ engine, port: 0, staticDir, tokens: { alice: 'secret-a', bob: 'secret-b', judy: 'secret-j' } });
    const call = async (token: string, command: string, args: unknown): Promise<{ status: number; body: any }> => {
      const r = await fetch(`${server!.url}/api/invoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ command, args }),
      });
      return { status: r.status, body: await r.json() };
    };
    // Assigning is the owner's (a judge may not); the owner does it on the server itself.
    expect((await call('secret-j', 'pool.assign', { pool: 'team', annotators: ['alice', 'bob'] })).status).toBe(403);
    await engine.invoke('pool.assign', { pool: 'team', annotators: ['alice', 'bob'] });
    const want = { alice: intended(engine.ws, 'alice'), bob: intended(engine.ws, 'bob') };
    // All labels of both annotators in flight at once.
    const results = await Promise.all(
      (['alice', 'bob'] as const).flatMap((who) =>
        [...want[who]].map(([k, v]) => call(`secret-${who[0]}`, 'label.set', { pool: 'team', queryId: k.split('|')[0], candidateId: k.split('|')[1], annotator: who, value: v })),
      ),
    );
    expect(results.every((r) => r.status === 200 && r.body.saved === true)).toBe(true);
    for (const who of ['alice', 'bob'] as const) {
      const got = new Map(engine.ws.currentLabels('team', who).map((l) => [`${l.queryId}|${l.candidateId}`, l.value]));
      expect(got).toEqual(want[who]);
    }
    // Blind: an annotator cannot act as the other, nor read the pool's agreement, queue or exports.
    expect((await call('secret-a', 'label.set', { pool: 'team', queryId: 'Q268', candidateId: 'Q268_R4', annotator: 'bob', value: '1' })).status).toBe(403);
    expect((await call('secret-a', 'agreement.report', { pool: 'team' })).status).toBe(403);
    expect((await call('secret-b', 'export.preview', { pool: 'team', format: 'csv' })).status).toBe(403);
    expect((await call('secret-a', 'review.queue', { pool: 'team', judge: 'judy' })).status).toBe(403);
    expect((await call('secret-a', 'annotator.setRole', { name: 'alice', role: 'judge' })).status).toBe(403);
    // The judge reads the queue and settles; the server never writes export files for a client.
    const q = await call('secret-j', 'review.queue', { pool: 'team', judge: 'judy' });
    expect(q.status).toBe(200);
    expect(q.body.remaining).toBeGreaterThan(0);
    const first = q.body.items[0];
    const s = await call('secret-j', 'review.settle', { pool: 'team', judge: 'judy', queryId: first.queryId, candidateId: first.candidateId, value: '1' });
    expect(s.status).toBe(200);
    expect(s.body.remaining).toBe(q.body.remaining - 1);
    expect((await call('secret-j', 'agreement.report', { pool: 'team', bootstrap: 50 })).body.pairs[0].a).toBe('alice');
    expect((await call('secret-j', 'export.write', { pool: 'team', format: 'csv', path: path.join(dir, 'x.csv') })).status).toBe(403);
    const dl = await call('secret-j', 'export.write', { pool: 'team', format: 'csv' });
    expect(dl.status).toBe(200);
    expect(dl.body.files[0].content).toMatch(/^query_id,candidate_id/);
  });
});
