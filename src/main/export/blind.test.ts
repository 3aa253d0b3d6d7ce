import { describe, expect, it } from 'vitest';
import { blindReport, blindStatement } from './blind';
import { buildExport } from './index';
import { useOneQueryPool } from './test-pool';

const pool = useOneQueryPool('qpairs-blind-');
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

const label = (c: string, annotator = 'alice', origin = 'test'): void => void pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator, value: '1', origin });

describe('the datasheet says which labels were given blind', () => {
  it('a pool blind since creation: every annotator label counted blind (judges and gold are not annotators)', async () => {
    label('c1');
    label('c2', 'bob');
    label('c3', 'gold');
    const r = blindReport(pool.ws, 'p');
    expect(r).toMatchObject({ blindNow: true, blindEvents: 2, openEvents: 0 });
    expect(blindStatement(r)).toMatch(/^The pool has been blind since it was created \(.+\).* All 2 label events by its annotators were given blind\.$/);
  });

  it('a pool opened for a while: the periods and the split of label events', async () => {
    label('c1');
    await tick();
    pool.ws.setPoolBlind('p', false);
    await tick();
    label('c2');
    label('c3');
    await tick();
    pool.ws.setPoolBlind('p', true);
    const r = blindReport(pool.ws, 'p');
    expect(r.periods.map((x) => x.blind)).toEqual([true, false, true]);
    expect(r).toMatchObject({ blindNow: true, blindEvents: 1, openEvents: 2 });
    const text = blindStatement(r);
    expect(text).toMatch(/^Blind setting over time: blind from \S+ to \S+; open from \S+ to \S+; blind from \S+ until the export\./);
    expect(text).toMatch(/1 of 3 label events by its annotators was given blind; 2 while the pool was open/);
    const sheet = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { annotator: 'alice', version: 't' }).datasheet.content;
    expect(sheet).toContain(`**Blind labeling.** ${text}`);
  });

  it('labels imported from files (a re-imported export) are not said to be given blind: the workspace does not know how they were given', () => {
    label('c1', 'alice', 'import:labels-jsonl:alice.jsonl');
    label('c2', 'bob', 'import:labels-jsonl:bob.jsonl');
    const only = blindStatement(blindReport(pool.ws, 'p'));
    expect(blindReport(pool.ws, 'p')).toMatchObject({ blindEvents: 0, openEvents: 0, importedEvents: 2 });
    // Before: "All 2 label events by its annotators were given blind."
    expect(only).not.toMatch(/label events by its annotators were given blind/);
    expect(only).toMatch(/No label events by its annotators were given in this workspace\. 2 label events by its annotators were imported from files, not given here: whether they were given blind is not recorded/);
    label('c3');
    const sheet = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { version: 't' }).datasheet.content;
    expect(sheet).toMatch(/The 1 label event by its annotators in this workspace was given blind\. 2 label events by its annotators were imported from files/);
  });
});
