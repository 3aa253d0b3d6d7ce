/**
 * pool.progress marked a judge's rulings `kind: 'judge'` for whoever asked, while annotator.list
 * gives an annotator the other people's names only and pool.assignment of an open pool names no
 * judge but herself: in an open pool her progress call told her which of the others judges. Now,
 * for an annotator, another person's rulings there count as any person's labels (`annotator`);
 * label sources stay `source`; a blind pool gives her her own row alone, as before. The owner
 * is told every kind. The calls are a token's: not local.
 */
import { describe, expect, it } from 'vitest';
import type { PoolProgress } from '../../shared/contract';
import { addOpenPoolBesideBlind, useTrainedModels } from './test-models';

const alice = { annotator: 'alice', local: false };

describe('pool.progress tells an annotator no one else’s role', () => {
  const t = useTrainedModels('judge-kind-shown', [], (ws) => {
    addOpenPoolBesideBlind(ws); // p blind (gold labels), o open beside it (bob's labels); alice and bob annotators
    ws.ensureAnnotator('judy', 'judge');
    // judy rules on a pair of each pool (she is assigned to neither); alice labels one of each.
    for (const pool of ['o', 'p']) {
      ws.addLabel({ pool, queryId: 'q0', candidateId: 'c0-0', annotator: 'judy', value: '1', origin: 'test' });
      ws.addLabel({ pool, queryId: 'q1', candidateId: 'c1-0', annotator: 'alice', value: '1', origin: 'test' });
    }
  });

  const kinds = (r: PoolProgress): Record<string, string> => Object.fromEntries(r.annotators.map((a) => [a.annotator, a.kind]));

  it('open pool: the judge’s rulings count as a person’s labels for her; the owner is told they are a judge’s', async () => {
    expect(kinds((await t.engine.invoke('pool.progress', { pool: 'o' })) as PoolProgress)).toEqual({ bob: 'annotator', judy: 'judge', alice: 'annotator' });
    const hers = (await t.engine.invoke('pool.progress', { pool: 'o' }, alice)) as PoolProgress;
    expect(kinds(hers)).toEqual({ bob: 'annotator', judy: 'annotator', alice: 'annotator' });
    expect(hers.annotators.find((a) => a.annotator === 'judy')).toMatchObject({ labeledPairs: 1 });
    // As annotator.list says of judy: her name, no role.
    expect(((await t.engine.invoke('annotator.list', {}, alice)) as Array<{ name: string; role?: string }>).find((p) => p.name === 'judy')).toEqual({ name: 'judy' });
  });

  it('blind pool: her own row alone, as before', async () => {
    expect(kinds((await t.engine.invoke('pool.progress', { pool: 'p' }, alice)) as PoolProgress)).toEqual({ alice: 'annotator' });
  });
});
