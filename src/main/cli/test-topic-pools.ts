/**
 * Test fixture (not used by the app): a workspace, made through the CLI, of small pools of topic
 * questions — 6 queries × 3 candidates per pool, candidate 0 sharing the query's topic (gold says
 * relevant), the others another topic's words — for the CLI tests of training and evaluation flags.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliOk } from './test-cli';

export const TOPICS = ['visa renewal office', 'beach swimming sand', 'car insurance price', 'school fees children', 'bank account salary', 'apartment rent villa'];

/** Writes `lines` (one per line) to `dir/name`; its path. */
export function writeLines(dir: string, name: string, lines: readonly string[]): string {
  const p = path.join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
}

export interface TopicPools {
  pools: readonly string[];
  /** A query's title (its body is `<topic> <pool> <q>`). */
  queryTitle: (pool: string, q: number, topic: string) => string;
  /** A candidate's body from its title's words. */
  candidateBody: (text: string, pool: string) => string;
  /** A query's id (default `<pool>q<q>`); another pool's id makes the pools share that query. */
  queryId?: (pool: string, q: number) => string;
  /** Also import run "order" into each pool: it ranks the relevant candidate last. */
  runs?: boolean;
}

/** Workspace `dir/W.qpairs` with the pools (scheme binary, labels by gold); its path. */
export async function topicPoolsWorkspace(dir: string, o: TopicPools): Promise<string> {
  const w = path.join(dir, 'W.qpairs');
  const questions: string[] = [];
  const labels = new Map<string, string[]>();
  const runs = new Map<string, string[]>();
  for (const pool of o.pools) {
    const poolLabels = ['query_id,candidate_id,annotator,label'];
    const poolRuns: string[] = [];
    TOPICS.forEach((topic, q) => {
      const own = `${pool}q${q}`;
      const qid = o.queryId?.(pool, q) ?? own;
      if (qid === own) questions.push(JSON.stringify({ id: qid, title: o.queryTitle(pool, q, topic), body: `${topic} ${pool} ${q}` }));
      for (let k = 0; k < 3; k++) {
        const cid = `${own}c${k}`;
        const text = k === 0 ? topic : TOPICS[(q + k) % TOPICS.length]!;
        questions.push(JSON.stringify({ id: cid, title: `${text} ${k}`, body: o.candidateBody(text, pool) }));
        poolLabels.push(`${qid},${cid},gold,${k === 0 ? 1 : 0}`);
        poolRuns.push(`${qid} Q0 ${cid} ${3 - k} ${k + 1} order`);
      }
    });
    labels.set(pool, poolLabels);
    runs.set(pool, poolRuns);
  }
  await runCliOk('init', w);
  await runCliOk('import', w, '--format', 'questions-jsonl', writeLines(dir, 'q.jsonl', questions));
  for (const pool of o.pools) {
    await runCliOk('import', w, '--format', 'labels-csv', writeLines(dir, `labels-${pool}.csv`, labels.get(pool)!), '--pool', pool, '--scheme', 'binary');
    if (o.runs) await runCliOk('import', w, '--format', 'trec-run', writeLines(dir, `runs-${pool}.txt`, runs.get(pool)!), '--pool', pool);
  }
  return w;
}
