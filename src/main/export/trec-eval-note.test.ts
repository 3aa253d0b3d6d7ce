import { describe, expect, it } from 'vitest';
import { buildExport } from './index';
import { useOneQueryPool } from './test-pool';

const pool = useOneQueryPool('qpairs-datasheet-trec-eval-');

describe('a trec-run export says what trec_eval will make of it', () => {
  it('names the runs with equal scores (trec_eval orders them by docno descending, the ranks by pool order) and the queries a run leaves out', () => {
    const ws = pool.ws;
    for (const id of ['q2', 'd1', 'd2']) ws.upsertQuestion({ id, source: 's', title: id, body: id });
    ws.addPoolQuery('p', 'q2', ['d1', 'd2']);
    for (const [c, v] of [['c1', '0'], ['c2', '1'], ['c3', '0']] as const) ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'alice', value: v, origin: 'test' });
    // "tie" gives c1 and c2 one score and scores nothing of q2; "clean" tells every candidate apart.
    const tie = ws.ensureRun('p', 'tie', 'imported');
    ws.setRunScore(tie, 'q', 'c1', 1);
    ws.setRunScore(tie, 'q', 'c2', 1);
    ws.setRunScore(tie, 'q', 'c3', 0);
    const clean = ws.ensureRun('p', 'clean', 'imported');
    for (const [q, c, v] of [['q', 'c1', 3], ['q', 'c2', 2], ['q', 'c3', 1], ['q2', 'd1', 2], ['q2', 'd2', 1]] as const) ws.setRunScore(clean, q, c, v);

    const both = buildExport(ws, 'p', 'trec-run', 'p.run', { annotator: 'alice', bootstrap: 10 });
    const tieFile = both.files.find((f) => f.name.endsWith('p.tie.run'))!;
    // The ranks keep the pool's order (c1 before c2); trec_eval would put c2 (the similar one) first.
    expect(tieFile.content.split('\n').slice(0, 2)).toEqual(['q Q0 c1 1 1 tie', 'q Q0 c2 2 1 tie']);
    expect(tieFile.content).not.toContain('q2 ');
    const sheet = both.datasheet.content;
    expect(sheet).toContain('With trec_eval: it reads the scores, not the rank column, and orders equal scores by docno descending, as `qpairs eval --ties trec-eval` does;');
    expect(sheet).toContain('Equal scores within a query: tie in 1 query — there the two orders can differ.');
    expect(sheet).toContain(
      "Queries a run scores no candidate of are absent from its file (tie: 1 query): trec_eval -c counts them 0 and trec_eval without -c leaves them out, where `qpairs eval` ranks them in the pool's order and flags it.",
    );

    const one = buildExport(ws, 'p', 'trec-run', 'p.run', { annotator: 'alice', run: 'clean', bootstrap: 10 }).datasheet.content;
    expect(one).toContain('No query here has equal scores, so both orders agree.');
    expect(one).not.toContain('absent from its file');
    // Other formats carry no run ranks to explain.
    expect(buildExport(ws, 'p', 'qrels', 'p.qrels', { annotator: 'alice', bootstrap: 10 }).datasheet.content).not.toContain('With trec_eval');
  });
});
