/**
 * Training on pools whose questions were imported by id only (AskUbuntu's pool file without its
 * text_tokenized file) ended in "internal error: QPairsError: skipgram: the corpus has no word seen
 * minCount times" and a worker's stack trace. Models that learn from text are now refused before
 * anything starts, saying what to import; fused, which learns from the pools' runs too, trains.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CancelledError, errorFromWorker, NotFoundError, QPairsError } from '../errors';
import { runCli, runCliOk, useCliWorkspace } from './test-cli';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = useCliWorkspace('qpairs-cli-train-no-text-', async ({ w, dir }) => {
  // The shipped AskUbuntu dev file's first 40 queries: ids, labels and Lucene BM25 scores, no text.
  const lines = readFileSync(path.join(root, 'datasets/askubuntu/dev.txt'), 'utf8').split('\n').slice(0, 40);
  writeFileSync(path.join(dir, 'dev.txt'), lines.join('\n') + '\n');
  await runCliOk('import', w, '--format', 'askubuntu-pool', path.join(dir, 'dev.txt'), '--pool', 'au');
});

describe('training on questions without text', () => {
  it('is refused for a model that learns from text, before anything is stored, saying what to import', async () => {
    for (const model of ['ltr', 'dae', 'bow-cnn']) {
      const r = await runCli('train', cli.w, '--model', model, '--name', 'm', '--train-pool', 'au', '--epochs', '1');
      expect(r.code).toBe(1);
      expect(r.err).toMatch(new RegExp(`^qpairs train: training pool "au" has no question text: its [\\d,]+ questions were imported by id only, and ${model} learns from text\\. Import their texts first \\(AskUbuntu: --format askubuntu-corpus`));
      expect(r.err).not.toContain('internal error');
    }
    expect(await runCliOk('models', 'list', cli.w)).not.toMatch(/^m /m);
  }, 60_000);

  it('fused trains on the pool\'s run alone', async () => {
    const out = await runCliOk('train', cli.w, '--model', 'fused', '--name', 'f', '--train-pool', 'au', '--epochs', '2');
    expect(out).toContain('scored pool au');
  }, 120_000);
});

describe('errors from worker threads', () => {
  it('come back as the class the user sees: a QPairsError stays one line, not an internal error', () => {
    const e = errorFromWorker({ name: 'QPairsError', message: 'skipgram: no words', details: { file: 'f' } });
    expect(e).toBeInstanceOf(QPairsError);
    expect((e as QPairsError).details).toEqual({ file: 'f' });
    expect(errorFromWorker({ name: 'NotFoundError', message: 'x' })).toBeInstanceOf(NotFoundError);
    expect(errorFromWorker({ name: 'CancelledError', message: 'x' })).toBeInstanceOf(CancelledError);
    const other = errorFromWorker({ name: 'RangeError', message: 'x' });
    expect(other).not.toBeInstanceOf(QPairsError);
    expect(other.name).toBe('RangeError');
  });
});
