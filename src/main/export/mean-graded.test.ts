/**
 * The mean rule on a graded pool gives the mean grade, rounded to the nearest grade with a tie (a
 * mean halfway between two grades) to the lower one, kept relevant (at least 1) above the
 * threshold and not (at most 0) otherwise: it gave binary gold labels (1 or 0) on every pool. The
 * pool's state (what the app and `qpairs eval` read), the jsonl and qrels exports and the datasheet
 * agree, and the datasheet says the rule as `qpairs aggregate` and the Team panel do.
 */
import { describe, expect, it } from 'vitest';
import { meanRuleText } from '../../shared/gold';
import { loadPoolState, setAggregation } from '../gold';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { buildExport } from './index';

const scratch = scratchWorkspaces('qpairs-mean-graded-');

/** Votes of alice and bob per candidate, and the gold grade worked out by hand (threshold 0.5). */
const CASES: Array<[string, string, string, string]> = [
  ['c1', '3', '2', '2'], // mean 2.5: a tie, the lower grade
  ['c2', '2', '1', '1'], // 1.5: a tie
  ['c3', '1', '0', '0'], // 0.5: not above 0.5
  ['c4', '3', '3', '3'],
  ['c5', '4', '?', '4'], // "?" left out: 4
  ['c6', '3', '0', '1'], // 1.5: a tie
];

describe('the mean rule on a graded pool', () => {
  it('gives the rounded mean grade in the pool state, the jsonl and qrels exports, and the datasheet says how', () => {
    const ws = scratch.fresh('g');
    ws.transaction(() => {
      for (const id of ['q', ...CASES.map((c) => c[0])]) ws.upsertQuestion({ id, source: 's', title: id, body: id });
      ws.createPool({ name: 'g', scheme: 'graded' });
      ws.addPoolQuery('g', 'q', CASES.map((c) => c[0]));
      for (const [c, a, b] of CASES) {
        ws.addLabel({ pool: 'g', queryId: 'q', candidateId: c, annotator: 'alice', value: a, origin: 'test' });
        ws.addLabel({ pool: 'g', queryId: 'q', candidateId: c, annotator: 'bob', value: b, origin: 'test' });
      }
    });
    expect(setAggregation(ws, 'g', 'mean')).toEqual({ rule: 'mean', threshold: 0.5 });
    const want = CASES.map(([c, , , g]) => [c, g]);
    expect(loadPoolState(ws, 'g').pairs.map((e) => [e.candidateId, e.resolution.value])).toEqual(want);

    const jsonl = buildExport(ws, 'g', 'jsonl', 'g.jsonl', { bootstrap: 20 });
    const rows = jsonl.files[0]!.content.trim().split('\n').map((l) => JSON.parse(l) as { candidate_id: string; annotator: string; label: string; grade: number; status: string });
    expect(rows.map((r) => [r.candidate_id, r.label])).toEqual(want);
    expect(rows.map((r) => r.grade)).toEqual(want.map(([, g]) => Number(g)));
    expect(new Set(rows.map((r) => `${r.annotator} ${r.status}`))).toEqual(new Set(['gold mean']));
    expect(jsonl.datasheet.content).toContain(`Rule **mean**: ${meanRuleText(0.5)}.`);
    expect(jsonl.datasheet.content).not.toContain('binary label');

    const qrels = buildExport(ws, 'g', 'qrels', 'g.qrels', { bootstrap: 20 });
    expect(qrels.files[0]!.content.trim().split('\n')).toEqual(want.map(([c, g]) => `q 0 ${c} ${g}`));
  });
});
