/**
 * An annotator's label events come back numbered by her own count: the gap between two of hers
 * no longer counts everyone else's label events (blind pools included). Undo and redo take her
 * numbers; owners keep the workspace's.
 */
import { describe, expect, it } from 'vitest';
import { statementsDuring } from '../workspace/test-statements';
import type { LabelAck, LabelRecord } from '../../shared/contract';
import type { Engine } from './engine';
import { globalSeq, ownSeq } from './own-seq';
import { useTeamEngine } from './test-team';

const alice = { annotator: 'alice', local: false };
const bob = { annotator: 'bob', local: false };

describe('an annotator’s label event numbers are her own', () => {
  let engine: Engine;
  useTeamEngine('qpairs-own-seq-', (e) => (engine = e));

  it('label.set, label.undo, redo (ifLatest), label.changed and the refusals use them; bob’s labels in between change nothing', async () => {
    const pair = { pool: 'open', queryId: 'q1', candidateId: 'c2' };
    const seen: LabelRecord[] = [];
    const off = engine.on('label.changed', (rec) => {
      if (engine.canSee(alice, 'label.changed', rec)) seen.push(engine.eventFor(alice, 'label.changed', rec));
    });
    // alice has 12 labels (teamEngine): this is her 13th event.
    const first = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '2' }, alice)) as LabelAck;
    expect([first.seq, first.record?.seq]).toEqual([13, 13]);
    // bob labels the blind pool 5 times: her next number does not move by them.
    for (let i = 0; i < 5; i++) await engine.invoke('label.set', { pool: 'sealed', queryId: 'q2', candidateId: 'c1', annotator: 'bob', value: String(i + 10) }, bob);
    const second = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '3' }, alice)) as LabelAck;
    expect(second.seq).toBe(14);
    // Undoing her 13th is refused, naming her 14th (not the workspace's number).
    await expect(engine.invoke('label.undo', { seq: 13, annotator: 'alice' }, alice)).rejects.toThrow(/label event 13 .* event 14 changed it since/);
    const undone = (await engine.invoke('label.undo', { seq: 14, annotator: 'alice' }, alice)) as LabelRecord;
    expect(undone).toMatchObject({ seq: 15, value: '2', origin: 'undo:14' });
    // Redo while the pair is as the undo left it; refused after.
    const redo = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '3', ifLatest: 15 }, alice)) as LabelAck;
    expect(redo.seq).toBe(16);
    await expect(engine.invoke('label.set', { ...pair, annotator: 'alice', value: '4', ifLatest: 15 }, alice)).rejects.toThrow(/changed since the undo \(event 16,/);
    await expect(engine.invoke('label.undo', { seq: 99, annotator: 'alice' }, alice)).rejects.toMatchObject({ code: 'not-found', message: 'no label event 99 of alice' });
    off();
    // Her events by her numbers; bob's in the open pool would carry 0 (his in the blind pool never reach her).
    expect(seen.map((r) => [r.annotator, r.seq])).toEqual([
      ['alice', 13],
      ['alice', 14],
      ['alice', 15],
      ['alice', 16],
    ]);
    await engine.invoke('label.set', { pool: 'open', queryId: 'q2', candidateId: 'c1', annotator: 'bob', value: '5' }, bob);
    const owners = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '1' })) as LabelAck;
    // The owner keeps the workspace's numbers (far past alice's count).
    expect(owners.seq).toBeGreaterThan(17);
    const bobs = engine.ws.labelEvent(owners.seq! - 1)!;
    expect(engine.eventFor(alice, 'label.changed', bobs).seq).toBe(0);
    // Nor a number in another's origin: the event an undo took back, an import's count.
    expect(engine.eventFor(alice, 'label.changed', { ...bobs, origin: 'undo:12' }).origin).toBe('undo');
    expect(engine.eventFor(alice, 'label.changed', { ...bobs, origin: 'import:7' }).origin).toBe('import');
    expect(engine.eventFor(alice, 'label.changed', { ...bobs, origin: 'ui' }).origin).toBe('ui');
  });

  it('a label sent again unchanged (its first answer lost) answers seq null and her latest event on the pair by her count, the owner by the workspace’s', async () => {
    const pair = { pool: 'open', queryId: 'q2', candidateId: 'c3' };
    const first = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '9' }, alice)) as LabelAck;
    expect(first.latest).toBeUndefined();
    await engine.invoke('label.set', { pool: 'sealed', queryId: 'q2', candidateId: 'c1', annotator: 'bob', value: '7' }, bob);
    const again = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '9' }, alice)) as LabelAck;
    expect(again).toMatchObject({ seq: null, latest: first.seq, record: null });
    const owners = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '9' })) as LabelAck;
    expect(owners.latest).toBe(globalSeq(engine.ws, 'alice', first.seq!));
    expect(owners.latest).toBeGreaterThan(first.seq!);
    // A pair never labeled by that name, cleared: no event to name.
    const none = (await engine.invoke('label.set', { ...pair, annotator: 'dave', value: null })) as LabelAck;
    expect(none).toMatchObject({ seq: null, latest: null });
  });
});

describe('her numbers are read from the index of her events', () => {
  let engine: Engine;
  useTeamEngine('qpairs-own-seq-plan-', (e) => (engine = e));

  it('ownSeq and globalSeq read labels_annotator_seq alone (was: every label of her pools through labels_pool_seq, 4.3 ms per label at 30,000 of hers)', () => {
    const read = statementsDuring(engine.ws, () => {
      expect(ownSeq(engine.ws, 'alice', 1e9)).toBe(12);
      expect(globalSeq(engine.ws, 'alice', 12)).toBeGreaterThan(0);
    });
    const onLabels = read.filter((sql) => /FROM labels/.test(sql));
    expect(onLabels).toHaveLength(2);
    for (const sql of onLabels) {
      const plan = (engine.ws.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(1, 1) as Array<{ detail: string }>).map((r) => r.detail);
      expect(plan.find((d) => / labels /.test(d)), sql).toMatch(/^SEARCH labels USING COVERING INDEX labels_annotator_seq \(annotator_id=\?/);
    }
  });
});
