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

describe("the datasheet's commands name the exported pool", () => {
  it('the convention command names the pool as the re-import command does (it said --pool P whatever the pool)', () => {
    pool.ws.createPool({ name: 'dev set', scheme: 'binary', convention: 'skip' });
    pool.ws.addPoolQuery('dev set', 'q', ['c1', 'c2']);
    pool.ws.addLabel({ pool: 'dev set', queryId: 'q', candidateId: 'c1', annotator: 'gold', value: '1', origin: 'test' });
    const sheet = buildExport(pool.ws, 'dev set', 'qrels', 'd.qrels').datasheet.content;
    expect(sheet).toContain("Re-import: `qpairs import W --format qrels --pool 'dev set' --scheme binary FILE");
    expect(sheet).toContain("after a re-import into a new pool, `qpairs pool set W --pool 'dev set' --convention skip` gives the same metrics");
    expect(sheet).not.toContain('--pool P ');
  });
});
