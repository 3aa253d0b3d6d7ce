/**
 * A large labeled pool built with the CLI, for the specs of a long export: `queries` generated
 * questions as queries, each with its BM25 top-10 (pool `big`), every pair labeled by ann, bea and
 * cid, so the datasheet's agreement bootstrap runs over 10 × `queries` pairs (seconds at 1,500).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { qpairs } from './small-pool';

/** Builds the workspace `w` (created) in `dir`; returns the first query's first candidate (g0 → it). */
export function buildLabeledPool(dir: string, w: string, queries: number): { firstCandidate: string } {
  qpairs('init', w);
  const words = Array.from({ length: 1500 }, (_, i) => `term${i.toString(36)}`);
  let s = 17;
  const rnd = (): number => (s = (s * 48271) % 2147483647) / 2147483647;
  const pick = (): string => words[Math.floor(rnd() * words.length)]!;
  const questions = Array.from({ length: queries * 4 }, (_, i) => JSON.stringify({ id: `g${i}`, title: Array.from({ length: 6 }, pick).join(' '), body: Array.from({ length: 30 }, pick).join(' '), source: 'gen' }));
  writeFileSync(path.join(dir, 'q.jsonl'), questions.join('\n') + '\n');
  qpairs('import', w, '--format', 'questions-jsonl', path.join(dir, 'q.jsonl'));
  writeFileSync(path.join(dir, 'queries.txt'), Array.from({ length: queries }, (_, i) => `g${i}`).join('\n') + '\n');
  qpairs('pool', 'create', w, '--name', 'big', '--queries', path.join(dir, 'queries.txt'), '--depth', '10');
  const pairsFile = path.join(dir, 'pairs.csv');
  qpairs('export', w, '--pool', 'big', '--format', 'csv', '--no-text', '--json', pairsFile);
  const pairs = readFileSync(pairsFile, 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').slice(0, 2) as [string, string]);
  const rows = pairs.flatMap(([q, c]) => ['ann', 'bea', 'cid'].map((a) => `${q},${c},${a},${rnd() < 0.4 ? 1 : 0}`));
  writeFileSync(path.join(dir, 'labels.csv'), ['query_id,candidate_id,annotator,label', ...rows].join('\n') + '\n');
  qpairs('import', w, '--format', 'labels-csv', '--pool', 'big', path.join(dir, 'labels.csv'));
  return { firstCandidate: pairs.find(([q]) => q === 'g0')![1] };
}
