/**
 * Commands sent to a serve-mode server over its HTTP API from a test's request context (setting up a
 * workspace without the UI).
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { unpackedDataset } from '../datasets';

/** The SemEval-2016 dev file (550 questions), the workspace most end-to-end tests set up. */
export const SEMEVAL_DEV = unpackedDataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');

/** Runs one command; fails the test, with the server's answer, when it is refused. */
export async function invoke<T>(request: APIRequestContext, command: string, args: unknown): Promise<T> {
  const r = await request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command, args } });
  expect(r.ok(), `${command}: ${await r.text()}`).toBe(true);
  return (await r.json()) as T;
}

/** Runs one command as the owner (loopback, no token, no cookie) on the server at `port`, whatever the page's login; fails the test when it is refused. */
export async function invokeAsOwner<T>(port: number, command: string, args: unknown): Promise<T> {
  const r = await fetch(`http://127.0.0.1:${port}/api/invoke`, { method: 'POST', headers: { 'X-QPairs': '1', 'Content-Type': 'application/json' }, body: JSON.stringify({ command, args }) });
  const text = await r.text();
  expect(r.ok, `${command}: ${text}`).toBe(true);
  return JSON.parse(text) as T;
}

/** Imports the SemEval dev file and waits until its 550 questions are in. */
export async function importSemEvalDev(request: APIRequestContext): Promise<void> {
  await invoke(request, 'import.start', { format: 'semeval', sources: [{ path: SEMEVAL_DEV }] });
  await expect.poll(async () => (await invoke<{ questions: number }>(request, 'workspace.stats', {})).questions, { timeout: 60_000 }).toBe(550);
}

/**
 * A blind pool `pool` of `n` seeded queries × `depth` candidates, assigned to alice and bob (who must
 * exist), in dispute: alice labels every pair 0, bob 1 on each query's first candidate and 0 elsewhere,
 * so each query holds one disagreement for a judge.
 */
export async function createDisputedPool(request: APIRequestContext, pool: string, o: { n: number; seed: number; depth: number }): Promise<void> {
  await invoke(request, 'pool.create', { name: pool, sample: { n: o.n, seed: o.seed }, depth: o.depth });
  await invoke(request, 'pool.assign', { pool, annotators: ['alice', 'bob'] });
  for (const q of await invoke<Array<{ id: string }>>(request, 'annotate.queries', { pool, annotator: 'bob' })) {
    const v = await invoke<{ candidates: Array<{ id: string; position: number }> }>(request, 'annotate.query', { pool, annotator: 'bob', queryId: q.id });
    for (const c of v.candidates) {
      await invoke(request, 'label.set', { pool, queryId: q.id, candidateId: c.id, annotator: 'alice', value: '0' });
      await invoke(request, 'label.set', { pool, queryId: q.id, candidateId: c.id, annotator: 'bob', value: c.position === 0 ? '1' : '0' });
    }
  }
}
