/**
 * A small open pool built with the CLI for the specs that drive one page on it: the SemEval dev
 * questions, pool `p` (3 queries × 4 candidates, BM25, seed 1, not blind), labels given as CSV rows,
 * and a run `rev` that ranks each query's candidates in reverse pool order; then a page on a server
 * of it (`useServedSmallPool`: set up before the spec's tests, torn down after them).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { unpackedDataset } from '../datasets';
import { useServedWorkspace, type ServedWorkspace } from './served-workspace';

const root = path.resolve(import.meta.dirname, '../..');
const SEMEVAL_DEV = unpackedDataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');

/** Runs the built CLI (Node 22) and returns its standard output. */
export function qpairs(...args: string[]): string {
  return execFileSync(path.join(root, 'node_modules', '.bin', 'node'), [path.join(root, 'bin', 'qpairs.mjs'), ...args], { encoding: 'utf8' });
}

/** A small pool's workspace and its pairs as [query, candidate] in pool order. */
export interface SmallPool {
  workspace: string;
  pairs: Array<[string, string]>;
}

/**
 * Builds the workspace `dir/w.qpairs` with pool p, labeled by `labelRows(pairs)` (CSV rows
 * `query,candidate,annotator,label`), and the run `rev`. Returns the workspace and p's pairs as
 * [query, candidate] in pool order (12 of them).
 */
export function buildSmallPool(dir: string, labelRows: (pairs: Array<[string, string]>) => string[]): SmallPool {
  const workspace = path.join(dir, 'w.qpairs');
  qpairs('init', workspace);
  qpairs('import', workspace, '--format', 'semeval', '--pool', 'dev', SEMEVAL_DEV);
  qpairs('pool', 'create', workspace, '--name', 'p', '--sample', '3', '--seed', '1', '--depth', '4', '--blind', 'false');
  const csv = path.join(dir, 'pairs.csv');
  qpairs('export', workspace, '--pool', 'p', '--format', 'csv', '--no-text', csv);
  const pairs = readFileSync(csv, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',').slice(0, 2) as [string, string]);
  expect(pairs).toHaveLength(12);
  const labels = path.join(dir, 'labels.csv');
  writeFileSync(labels, ['query_id,candidate_id,annotator,label', ...labelRows(pairs)].join('\n') + '\n');
  qpairs('import', workspace, '--format', 'labels-csv', '--pool', 'p', labels);
  const run = path.join(dir, 'rev.txt');
  writeFileSync(run, pairs.map(([q, c], i) => `${q} Q0 ${c} ${4 - (i % 4)} ${(i % 4) + 1} rev`).join('\n') + '\n');
  qpairs('import', workspace, '--format', 'trec-run', '--pool', 'p', run);
  return { workspace, pairs };
}

/** A spec's served small pool: filled in before its first test, torn down after its last. */
export interface ServedSmallPool extends ServedWorkspace, SmallPool {
  workspace: string;
}

/**
 * Registers the spec's setup and teardown: before its tests, a scratch directory `qpairs-e2e-NAME-`,
 * the small pool labeled by `labelRows` (see buildSmallPool), then `prepare` (more data for the
 * spec, by the CLI), a server on the e2e base port + `portOffset` and a page on it
 * (useServedWorkspace); after them, the page closed, the server stopped and the directory removed.
 * Returns the state the tests read.
 */
export function useServedSmallPool(
  name: string,
  portOffset: number,
  labelRows: (pairs: Array<[string, string]>) => string[],
  prepare?: (pool: SmallPool & { dir: string }) => void,
): ServedSmallPool {
  return useServedWorkspace(name, portOffset, {
    workspace: 'w.qpairs',
    prepare: (served) => {
      const pool = Object.assign(served, buildSmallPool(served.dir, labelRows));
      prepare?.(pool);
    },
  }) as ServedSmallPool;
}
