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

/** Imports the SemEval dev file and waits until its 550 questions are in. */
export async function importSemEvalDev(request: APIRequestContext): Promise<void> {
  await invoke(request, 'import.start', { format: 'semeval', sources: [{ path: SEMEVAL_DEV }] });
  await expect.poll(async () => (await invoke<{ questions: number }>(request, 'workspace.stats', {})).questions, { timeout: 60_000 }).toBe(550);
}
