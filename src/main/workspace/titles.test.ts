/**
 * Workspace.getQuestionTitles, what the Review queue's titles come from: each title cut to `max`
 * characters, ids without text absent — read with one statement for all the ids (one per id took
 * 160-690 ms for the 5,500 titles of a 3,000-pair review queue).
 */
import type { Statement } from 'better-sqlite3';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { scratchWorkspaces } from './scratch-workspaces';
import type { Workspace } from './workspace';

const scratch = scratchWorkspaces('qpairs-titles-');
let ws: Workspace;
beforeEach(() => {
  ws = scratch.fresh('w');
});

describe('getQuestionTitles', () => {
  it('cuts long titles, leaves out unknown ids, keeps ids that look like numbers or hold quotes', () => {
    ws.transaction(() => {
      ws.upsertQuestion({ id: '879', source: 's', title: 'short' });
      ws.upsertQuestion({ id: 'long', source: 's', title: 'x'.repeat(50) });
      ws.upsertQuestion({ id: 'q"1\'', source: 's', title: 'quoted ids → é' });
      ws.upsertQuestion({ id: 'exact', source: 's', title: 'y'.repeat(10) });
    });
    const t = ws.getQuestionTitles(['879', 'long', 'nope', 'q"1\'', 'exact', '879'], 10);
    expect(Object.fromEntries(t)).toEqual({ '879': 'short', long: `${'x'.repeat(9)}…`, 'q"1\'': 'quoted id…', exact: 'y'.repeat(10) });
    expect(ws.getQuestionTitles([], 10).size).toBe(0);
    expect(ws.getQuestionTitles(['long'], Number.MAX_SAFE_INTEGER).get('long')).toBe('x'.repeat(50));
  });

  it('reads 2,000 titles with one statement run, not one per id', () => {
    ws.transaction(() => {
      for (let i = 0; i < 2000; i++) ws.upsertQuestion({ id: `q${i}`, source: 's', title: `title ${i}` });
    });
    let runs = 0;
    const stmt = ws.stmt.bind(ws);
    vi.spyOn(ws, 'stmt').mockImplementation((sql: string): Statement => {
      const s = stmt(sql);
      return new Proxy(s, {
        get(target, key) {
          const v = Reflect.get(target, key) as unknown;
          if (typeof v !== 'function') return v;
          return (...args: unknown[]) => {
            if (key === 'get' || key === 'all' || key === 'iterate') runs++;
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    });
    const t = ws.getQuestionTitles(Array.from({ length: 2000 }, (_, i) => `q${i}`), 160);
    expect(t.size).toBe(2000);
    expect(t.get('q1999')).toBe('title 1999');
    expect(runs).toBe(1);
  });
});
