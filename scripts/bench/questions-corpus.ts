/**
 * A questions-JSONL corpus of N questions for `qpairs import --format questions-jsonl`, with the
 * text model of the synthetic Stack Exchange dump (se-dump.ts: recombined real text from
 * readRealTexts, real title and body lengths, hapax words replaced by a Zipf tail over 2M words so
 * the vocabulary keeps growing with N): one line per question,
 * `{"id":"q1","title":…,"body":…,"tags":[…],"author":"u…","created":"…"}`, the body plain text
 * with paragraphs separated by a blank line. Written as a stream (memory stays flat at any N) and
 * seeded: the same arguments write byte-identical files. Ids are q1 … qN in file order.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { readRealTexts, type RealTexts } from './real-text';
import { datePicker, FileSink, ownerPicker, textModel } from './se-dump';
import { mulberry32 } from '../../src/main/stats/random';

export interface QuestionsCorpusOptions {
  questions: number;
  file: string;
  seed?: number;
  onProgress?: (written: number, total: number) => void;
}

export interface QuestionsCorpusSummary {
  file: string;
  questions: number;
  bytes: number;
}

/** The id of the i-th question (0-based) in a corpus written by writeQuestionsCorpus. */
export const corpusQuestionId = (i: number): string => `q${i + 1}`;

export function writeQuestionsCorpus(opts: QuestionsCorpusOptions, real: RealTexts = readRealTexts()): QuestionsCorpusSummary {
  const rnd = mulberry32(opts.seed ?? 7);
  const model = textModel(real, rnd);
  const owner = ownerPicker(rnd, opts.questions);
  const date = datePicker(rnd);
  mkdirSync(path.dirname(opts.file), { recursive: true });
  const out = new FileSink(opts.file);
  for (let q = 0; q < opts.questions; q++) {
    const row = {
      id: corpusQuestionId(q),
      title: model.title(),
      body: model.plainBody(),
      tags: model.tags(),
      author: `u${owner()}`,
      created: `${date()}Z`,
    };
    out.write(`${JSON.stringify(row)}\n`);
    if (opts.onProgress && (q + 1) % 10_000 === 0) opts.onProgress(q + 1, opts.questions);
  }
  out.close();
  return { file: opts.file, questions: opts.questions, bytes: out.bytes };
}
