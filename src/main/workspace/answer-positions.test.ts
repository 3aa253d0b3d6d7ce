/**
 * upsertAnswer with an import's AnswerPositions (workspace-corpus.ts) stores exactly what it
 * stores without them: positions from the table's rule (1 + the highest), the same results and
 * errors — also when an answer id is taken, an answer moves, or the question is gone.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { cleanupTemp, tempWorkspace } from '../import/test-helpers';
import { AnswerPositions } from './workspace-corpus';

afterAll(cleanupTemp);

const ans = (id: string, questionId: string, body = `answer ${id}`) => ({ id, questionId, source: 's', body });

describe('AnswerPositions', () => {
  it('gives the positions the table would, through inserts, repeats and moves', () => {
    const runs = [false, true].map((cached) => {
      const ws = tempWorkspace();
      const pos = cached ? new AnswerPositions() : undefined;
      const results: string[] = [];
      for (const id of ['q1', 'q2']) {
        expect(ws.upsertQuestion({ id, source: 's', title: id, body: id }).result).toBe('inserted');
        pos?.newQuestion(id);
      }
      for (const a of [ans('a1', 'q1'), ans('a2', 'q1'), ans('a3', 'q2'), ans('a2', 'q1'), ans('a2', 'q2'), ans('a4', 'q1'), ans('a5', 'q2'), ans('a1', 'q1', 'edited'), ans('a6', 'q1')]) {
        results.push(ws.upsertAnswer(a, {}, pos));
      }
      const rows = ws.db.prepare(`SELECT rowid, id, question_id, position, body FROM answers ORDER BY rowid`).all();
      ws.close();
      return { results, rows };
    });
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[0]!.results).toEqual(['inserted', 'inserted', 'inserted', 'unchanged', 'updated', 'inserted', 'inserted', 'updated', 'inserted']);
  });

  it('a question gone since it was inserted: the same error as without', () => {
    const ws = tempWorkspace();
    const pos = new AnswerPositions();
    ws.upsertQuestion({ id: 'q1', source: 's', title: 't', body: 'b' });
    pos.newQuestion('q1');
    ws.db.prepare(`DELETE FROM questions WHERE id = 'q1'`).run();
    expect(() => ws.upsertAnswer(ans('a1', 'q1'), {}, pos)).toThrow(QPairsError);
    expect(() => ws.upsertAnswer(ans('a1', 'q1'), {}, pos)).toThrow(/its question q1 is not in the workspace/);
    expect(pos.get('q1')).toBeUndefined();
    ws.close();
  });

  it('is bounded: past its size the oldest questions are forgotten (and scanned again)', () => {
    const pos = new AnswerPositions(8);
    for (let i = 0; i < 20; i++) pos.newQuestion(`q${i}`);
    expect(pos.get('q19')).toBe(0);
    expect(pos.get('q0')).toBeUndefined();
    const kept = Array.from({ length: 20 }, (_, i) => pos.get(`q${i}`)).filter((v) => v !== undefined);
    expect(kept.length).toBeLessThanOrEqual(8);
  });
});
