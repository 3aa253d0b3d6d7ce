/**
 * Reading commands that read several tables (agreement, eval --compare, eval's metrics and standing,
 * and the engine's eval.pool that the live panels call) read one snapshot of the workspace: a label another connection commits between two of their
 * statements — serve mode labeling while `qpairs agreement` runs, or while a compute worker reads —
 * is in none of their reads. Before, each statement saw the latest commit, so a result could mix the
 * state before a label with the state after it.
 *
 * The hook: the reader's statements are counted, and after the n-th one ran a second connection
 * commits a label change; for every n the result must be the one computed just before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { runComputeTask, type ComputeTask } from './compute-task';
import { runCli } from '../cli/test-cli';
import { Engine } from './engine';

let dir: string;
let file: string;
let writer: Workspace;
/** Each label's current value, by `annotator query candidate`. */
const current = new Map<string, string>();
const QUERIES = ['q1', 'q2', 'q3', 'q4'];
const CANDIDATES = ['c1', 'c2', 'c3'];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-snapshot-'));
  file = path.join(dir, 'w.qpairs');
  const ws = Workspace.create(file);
  ws.transaction(() => {
    for (const id of [...QUERIES, ...CANDIDATES]) ws.upsertQuestion({ id, source: 'test', title: `title ${id}`, body: `body ${id}` });
    ws.ensureAnnotator('alice', 'annotator');
    ws.ensureAnnotator('bob', 'annotator');
    ws.createPool({ name: 'p', scheme: 'binary', blind: false });
    const r1 = ws.ensureRun('p', 'r1', 'test');
    const r2 = ws.ensureRun('p', 'r2', 'test');
    let k = 0;
    for (const q of QUERIES) {
      ws.addPoolQuery('p', q, CANDIDATES);
      for (const c of CANDIDATES) {
        k++;
        ws.setRunScore(r1, q, c, k % 3);
        ws.setRunScore(r2, q, c, (k * 7) % 5);
        for (const who of ['alice', 'bob', 'gold']) {
          const value = (k + who.length) % 2 ? '1' : '0';
          ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: who, value, origin: 'test' });
          current.set(`${who} ${q} ${c}`, value);
        }
      }
    }
  });
  ws.close();
  writer = Workspace.open(file);
});
afterEach(() => {
  vi.restoreAllMocks();
  writer.close();
  rmSync(dir, { recursive: true, force: true });
});

let flips = 0;
/** A change every reading command sees: alice's and gold's labels on one pair flip (a pair after another), so alice and bob agree there or no longer do. */
function commitChange(): void {
  const q = QUERIES[flips++ % QUERIES.length]!;
  const c = CANDIDATES[Math.floor(flips / QUERIES.length) % CANDIDATES.length]!;
  for (const who of ['alice', 'gold']) {
    const key = `${who} ${q} ${c}`;
    const value = current.get(key) === '1' ? '0' : '1';
    writer.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: who, value, origin: 'test' });
    current.set(key, value);
  }
}

/**
 * Makes `ws` call `after()` once, right after its n-th statement execution (get, all, iterate, run);
 * returns how many statements ran so far.
 */
function hook(ws: Workspace, n: number, after: () => void): () => number {
  let count = 0;
  const orig = ws.stmt.bind(ws);
  const wrap = (st: ReturnType<Workspace['stmt']>): ReturnType<Workspace['stmt']> =>
    new Proxy(st, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver);
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          const out = v.apply(target, args);
          if (out === target) return wrap(st); // pluck(), raw(), expand() chain
          if (prop === 'get' || prop === 'all' || prop === 'iterate' || prop === 'run') {
            if (++count === n) after();
          }
          return out;
        };
      },
    });
  (ws as unknown as { stmt: (sql: string) => unknown }).stmt = (sql: string) => wrap(orig(sql));
  return () => count;
}

const tasks: ComputeTask[] = [
  { kind: 'agreement', pool: 'p', bootstrap: 50, seed: 1 },
  { kind: 'compare', pool: 'p', runs: ['r1', 'r2'], bootstrap: 50, permutations: 50, seed: 1 },
];

describe('compute tasks read one snapshot', () => {
  for (const task of tasks) {
    it(`${task.kind}: a label committed between its statements is not in the result`, () => {
      const reader = Workspace.open(file, { readonly: true });
      try {
        const statements = hook(reader, 0, () => {});
        runComputeTask(reader, task);
        const total = statements();
        expect(total).toBeGreaterThan(2);
        let changed = 0;
        for (let n = 1; n < total; n++) {
          const r = Workspace.open(file, { readonly: true });
          try {
            const before = JSON.stringify(runComputeTask(r, task));
            hook(r, n, commitChange);
            const during = JSON.stringify(runComputeTask(r, task));
            expect(during, `a write after statement ${n} of ${total}`).toBe(before);
            // The next read sees it (a flip can leave a figure as it was: most change).
            const next = Workspace.open(file, { readonly: true });
            if (JSON.stringify(runComputeTask(next, task)) !== before) changed++;
            next.close();
          } finally {
            r.close();
          }
        }
        expect(changed).toBeGreaterThan((total - 1) / 2);
      } finally {
        reader.close();
      }
    });
  }
});

describe('the CLI reading commands read one snapshot', () => {
  const commands = [
    ['agreement', '--pool', 'p', '--bootstrap', '50', '--seed', '1', '--json'],
    ['eval', '--pool', 'p', '--json'],
    ['eval', '--pool', 'p', '--compare', 'r1,r2', '--bootstrap', '50', '--permutations', '50', '--seed', '1', '--json'],
    ['adjudicate', '--pool', 'p', '--all', '--json'],
    ['aggregate', '--pool', 'p', '--json'],
  ];
  for (const [command, ...flags] of commands) {
    it(`qpairs ${command} ${flags.join(' ')}: a label committed between its statements is not in what it prints`, async () => {
      const open = Workspace.open.bind(Workspace);
      let n = 0; // 0: count only
      let counted = (): number => 0;
      vi.spyOn(Workspace, 'open').mockImplementation((p, o) => {
        const ws = open(p, o);
        if (p === file) counted = hook(ws, n, commitChange);
        return ws;
      });
      const run = async (): Promise<string> => {
        const r = await runCli(command!, file, ...flags);
        expect(r.code, r.err).toBe(0);
        return r.out;
      };
      await run();
      const total = counted();
      expect(total).toBeGreaterThan(2);
      let changed = 0;
      for (let k = 1; k < total; k++) {
        n = 0;
        const before = await run();
        n = k;
        expect(await run(), `a write after statement ${k} of ${total}`).toBe(before);
        n = 0;
        if ((await run()) !== before) changed++;
      }
      expect(changed).toBeGreaterThan((total - 1) / 2);
    });
  }
});

describe("the engine's eval.pool (the live panels' metrics) reads one snapshot", () => {
  // The source chosen by default (gold), alice's labels, and the aggregate of alice and bob; partial too.
  const calls = [{ pool: 'p' }, { pool: 'p', annotator: 'alice' }, { pool: 'p', annotator: '@aggregate', partial: true }];
  for (const args of calls) {
    it(`eval.pool ${JSON.stringify(args)}: a label committed between its statements is not in the result, the next call sees it`, async () => {
      const evaluate = async (engine: Engine): Promise<string> => JSON.stringify(await engine.invoke('eval.pool', args));
      const counter = Engine.open(file, { transport: 'electron' });
      let total: number;
      try {
        await evaluate(counter); // the first call of an engine also reads what the command's checks need
        const statements = hook(counter.ws, 0, () => {});
        await evaluate(counter);
        counter.liveEvaluations.clear();
        const before = statements();
        await evaluate(counter);
        total = statements() - before;
      } finally {
        counter.close();
      }
      expect(total).toBeGreaterThan(2);
      let changed = 0;
      for (let n = 1; n < total; n++) {
        const engine = Engine.open(file, { transport: 'electron' });
        try {
          const first = await evaluate(engine);
          engine.liveEvaluations.clear();
          hook(engine.ws, n, commitChange);
          expect(await evaluate(engine), `a write after statement ${n} of ${total}`).toBe(first);
          // The same engine's next call sees it (its cache is rebuilt on another connection's commit).
          if ((await evaluate(engine)) !== first) changed++;
        } finally {
          engine.close();
        }
      }
      expect(changed).toBeGreaterThan((total - 1) / 2);
    });
  }
});
