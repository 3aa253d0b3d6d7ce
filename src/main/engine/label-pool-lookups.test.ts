/**
 * A label is acknowledged on the engine's thread, so what it reads there pauses every annotator in
 * serve mode. Looking a pool up with Workspace.findPool()/pool() counts its queries, pairs and runs
 * (about 2 ms a call at 60,000 pairs, on a loaded 2-core machine), and label.set looked its pool up
 * that way five times for an annotator (the role check, the pool's closure, the handler, the
 * assignment, the blind filter of the result), again for every subscriber's label.changed event:
 * 24.7–26.9 ms per annotator label on a 3,000-query pool of 60,000 pairs, 0.8–1.0 ms after. These
 * lookups now read the pool's settings only (findPoolSettings / poolSettings / poolId).
 */
import { describe, expect, it, vi } from 'vitest';
import type { Engine } from './engine';
import type { CallerInput } from './access';
import { useTeamEngine } from './test-team';

// Pools "sealed" (blind) and "open", graded, q1 with c1-c3 labeled 1 by alice already (test-team.ts).
let engine: Engine;
useTeamEngine('qpairs-label-lookups-', (e) => (engine = e));

const CALLERS: Record<string, CallerInput> = {
  'the local owner': { annotator: null, local: true },
  'an annotator with a token': { annotator: 'alice', local: false },
};

describe("a label does not count its pool's rows", () => {
  for (const [who, input] of Object.entries(CALLERS)) {
    for (const pool of ['sealed', 'open']) {
      it(`${who}, ${pool} pool: label.set and the label.changed event each subscriber is shown`, async () => {
        const counted = vi.spyOn(engine.ws, 'findPool');
        // A new value (alice gave 1): the same label again writes no event.
        const candidateId = input.local ? 'c1' : 'c2';
        try {
          const ack = (await engine.invoke('label.set', { pool, queryId: 'q1', candidateId, annotator: 'alice', value: '2' }, input)) as { seq: number };
          expect(ack.seq).toBeGreaterThan(0);
          const event = { pool, queryId: 'q1', candidateId, annotator: 'alice', value: '2', seq: ack.seq } as never;
          expect(engine.canSee({ annotator: 'bob', local: false }, 'label.changed', event)).toBe(pool === 'open');
          expect(engine.canSee({ annotator: 'alice', local: false }, 'label.changed', event)).toBe(true);
          expect(counted).not.toHaveBeenCalled();
        } finally {
          counted.mockRestore();
        }
      });
    }
  }
  it('the pool is still looked up: an unknown pool is refused with the same error', async () => {
    for (const input of Object.values(CALLERS)) {
      await expect(engine.invoke('label.set', { pool: 'nope', queryId: 'q1', candidateId: 'c1', annotator: 'alice', value: '1' }, input)).rejects.toThrow(/no pool named "nope"/);
    }
  });
});
