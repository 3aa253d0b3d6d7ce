/**
 * A small synthetic corpus for the training tests: question texts of 20 pseudo-words whose
 * vocabulary depends on a number (texts of nearby numbers share words), a workspace of 30 such
 * questions q0…q29 in five topics, and labeled pools over them (each query: two relevant and two
 * non-relevant candidates, annotator `gold`). Test support only.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importFiles } from '../import';
import { Workspace } from '../workspace/workspace';

/** Twenty pseudo-words determined by k. */
export const syntheticText = (k: number): string => Array.from({ length: 20 }, (_, i) => `w${(k * 13 + i * 7) % 97}`).join(' ');

/** Imports the 30 synthetic questions q0…q29 (five topics) into `ws`, through a file written in `dir`. */
export async function importSyntheticQuestions(ws: Workspace, dir: string): Promise<void> {
  const qf = path.join(dir, 'q.jsonl');
  writeFileSync(qf, Array.from({ length: 30 }, (_, k) => JSON.stringify({ id: `q${k}`, title: `t ${k % 5}`, body: syntheticText(k % 5) + ' ' + syntheticText(k) })).join('\n') + '\n');
  await importFiles(ws, 'questions-jsonl', [qf]);
}

/** A workspace in a new temporary folder (named after `prefix`) holding the 30 questions q0…q29. */
export async function syntheticWorkspace(prefix: string): Promise<{ dir: string; ws: Workspace }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  await importSyntheticQuestions(ws, dir);
  return { dir, ws };
}

/**
 * Imports pool `pool` with queries q{n} for n in `queries`: candidates q(n+5), q(n+10) relevant,
 * q(n+1), q(n+2) not (mod 30) — all four not relevant for the queries in `noRelevant`.
 */
export async function importSyntheticPool(ws: Workspace, dir: string, pool: string, queries: readonly number[], noRelevant: readonly number[] = []): Promise<void> {
  const file = path.join(dir, `${pool}.jsonl`);
  const lines = queries.flatMap((q) =>
    [5, 10, 1, 2].map((d, i) => JSON.stringify({ query_id: `q${q}`, candidate_id: `q${(q + d) % 30}`, label: i < 2 && !noRelevant.includes(q) ? 1 : 0 })),
  );
  writeFileSync(file, lines.join('\n') + '\n');
  await importFiles(ws, 'labels-jsonl', [file], { pool, annotator: 'gold' });
}
