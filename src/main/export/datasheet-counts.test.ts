import { describe, expect, it } from 'vitest';
import { buildExport } from './index';
import { useOneQueryPool } from './test-pool';

const pool = useOneQueryPool('qpairs-datasheet-counts-');

describe("the datasheet's agreement counts take their noun's number", () => {
  it('a one-query pool: "in 1 query" (it said "in 1 queries")', () => {
    for (const [c, a, b] of [['c1', '1', '1'], ['c2', '0', '1'], ['c3', '0', '0']] as const) {
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'alice', value: a, origin: 'test' });
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'bob', value: b, origin: 'test' });
    }
    const sheet = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(sheet).toContain('2 annotators (alice, bob), 3 labeled pairs in 1 query. ');
  });

  it('says how many "?" (unsure) labels the agreement statistics left out, as qpairs agreement and the Agreement screen do', () => {
    for (const [c, a, b] of [['c1', '1', '1'], ['c2', '0', '?'], ['c3', '?', '1']] as const) {
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'alice', value: a, origin: 'test' });
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'bob', value: b, origin: 'test' });
    }
    const sheet = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(sheet).toContain('2 annotators (alice, bob), 3 labeled pairs in 1 query; 2 "?" (unsure) labels left out (a "?" counts as no label here). ');
    // The figures are those of the items both labeled decisively: c1 alone, agreed.
    expect(sheet).toMatch(/\| alice – bob \| 1 \| 1\.000 \|/);
  });
});
