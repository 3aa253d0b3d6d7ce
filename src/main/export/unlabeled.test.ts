import { describe, expect, it } from 'vitest';
import { buildExport } from './index';
import { useOneQueryPool } from './test-pool';

const pool = useOneQueryPool('qpairs-export-unlabeled-');

describe('exporting a pool no one has labeled yet', () => {
  it('writes its pairs unlabeled under the default source (it failed: no annotator named "gold")', () => {
    const built = buildExport(pool.ws, 'p', 'csv', 'pairs.csv');
    expect(built.files).toHaveLength(1);
    const csv = built.files[0]!.content;
    expect(csv.trim().split('\n').slice(1).map((l) => l.split(',').slice(0, 2).join(' '))).toEqual(['q c1', 'q c2', 'q c3']);
    expect(built.warnings).toContain('gold has no labels in pool "p"');
  });
  it('still refuses a label source someone typed and nobody has', () => {
    expect(() => buildExport(pool.ws, 'p', 'csv', 'pairs.csv', { annotator: 'alcie' })).toThrow('no annotator named "alcie" (the pool has no labels yet)');
  });
  it('an id with white space cannot go into a white-space separated format: the error says which formats can hold it', () => {
    pool.ws.upsertQuestion({ id: 'q 2', source: 's', title: 'x', body: 'x' });
    pool.ws.addPoolQuery('p', 'q 2', ['c1']);
    pool.ws.addLabel({ pool: 'p', queryId: 'q 2', candidateId: 'c1', annotator: 'ann', value: '1', origin: 'test' });
    expect(() => buildExport(pool.ws, 'p', 'qrels', 'x.qrels', { annotator: 'ann' })).toThrow(
      'question id "q 2" contains white space and cannot be written in the qrels format (its fields are separated by white space); export as jsonl, csv or hf-dataset instead',
    );
  });
});
