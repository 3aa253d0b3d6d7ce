import { describe, expect, it } from 'vitest';
import { buildExport } from './index';
import { useOneQueryPool } from './test-pool';
import { addAnnotator } from '../gold/store';

const pool = useOneQueryPool('qpairs-export-unlabeled-');

describe('exporting a pool no one has labeled yet', () => {
  it('writes its pairs unlabeled under the default source (it failed: no annotator named "gold")', () => {
    const built = buildExport(pool.ws, 'p', 'csv', 'pairs.csv');
    expect(built.files).toHaveLength(1);
    const csv = built.files[0]!.content;
    expect(csv.trim().split('\n').slice(1).map((l) => l.split(',').slice(0, 2).join(' '))).toEqual(['q c1', 'q c2', 'q c3']);
    expect(built.warnings).toContain('gold has no labels in pool "p"');
  });
  it('qrels and semeval-relevancy both say how many pairs they left out (qrels said nothing but in its datasheet)', () => {
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'ann', value: '1', origin: 'test' });
    for (const format of ['qrels', 'semeval-relevancy'] as const) {
      const built = buildExport(pool.ws, 'p', format, 'out', { annotator: 'ann' });
      expect(built.files[0]!.lines).toBe(1);
      expect(built.warnings).toContain('2 pairs without a label from ann were left out');
    }
  });
  it("a query with no candidate is named in the datasheet: the pool counts it and no file has a row for it (the datasheet said 'queries 2' over a file of one)", () => {
    pool.ws.upsertQuestion({ id: 'q0', source: 's', title: 'the', body: '' });
    pool.ws.addPoolQuery('p', 'q0', []);
    for (const format of ['jsonl', 'qrels', 'csv'] as const) {
      expect(buildExport(pool.ws, 'p', format, 'out').datasheet.content).toContain(
        'Note: 1 of the 2 queries has no candidate (BM25 finds no other question for it: q0): nothing to label there, and no metric counts it; the files have no row for it.',
      );
    }
    expect(buildExport(pool.ws, 'p', 'jsonl', 'out').files[0]!.content).not.toContain('"q0"');
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

describe('what the labels are, as the dataset card and the datasheet say it', () => {
  it('an unlabeled pool\'s hf-dataset card says there are no labels yet (it said "Labels: annotator gold", and no gold exists)', () => {
    const built = buildExport(pool.ws, 'p', 'hf-dataset', 'out');
    const card = built.datasheet.content;
    expect(card).toContain('\nLabels: none yet — the pool has no gold labels and no one has labeled it, so no pair carries a label. The datasheet follows.');
    expect(card).toContain('Labels: none yet — the pool has no gold labels and no one has labeled it');
    expect(card).toContain('No aggregation: the export carries no labels.');
    expect(card).not.toMatch(/annotator \**gold/);
  });
  it('names the source that is there: imported gold, a reference system, a person, or a person with no labels here', () => {
    addAnnotator(pool.ws, 'ref', 'system');
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'gold', value: '1', origin: 'test' });
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'ref', value: '0', origin: 'test' });
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c2', annotator: 'ann', value: '1', origin: 'test' });
    addAnnotator(pool.ws, 'bob');
    const card = (annotator?: string): string => buildExport(pool.ws, 'p', 'hf-dataset', 'out', annotator ? { annotator } : {}).datasheet.content;
    expect(card()).toContain('\nLabels: the imported gold labels (annotator gold). The datasheet follows.');
    expect(card()).toContain('Labels: the imported gold labels (annotator **gold**).');
    expect(card('ref')).toContain('\nLabels: the labels of reference system ref (role system). The datasheet follows.');
    expect(card('ann')).toContain('\nLabels: the labels of annotator ann. The datasheet follows.');
    expect(card('bob')).toContain('\nLabels: none — annotator bob has no labels in this pool, so no pair carries a label. The datasheet follows.');
    expect(card('@aggregate')).toContain("\nLabels: the aggregate of the pool's annotators (rule adjudicated) (column annotator = \"gold\"). The datasheet follows.");
  });
});
