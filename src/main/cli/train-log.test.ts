/**
 * The lines `qpairs train` writes to a log or pipe for hnil's reports, as its training sends them:
 * the worker's "reading …" step, the DeepWalk passes (epoch 0, counted in steps), then an epoch. The
 * DeepWalk step was taken for an epoch: no line when it began, "…: epoch 0/1: loss 0.0000" when it ended.
 */
import { describe, expect, it } from 'vitest';
import type { TrainProgressView } from '../../shared/models';
import { trainLogLine } from './train-log';

const linesOf = (reports: TrainProgressView[]): string[] => {
  let last: string | null = null;
  const lines: string[] = [];
  for (const p of reports) {
    const line = trainLogLine(p, last);
    if (line !== null) lines.push(line);
    last = p.phase !== undefined && p.epoch === 0 ? p.phase : null;
  }
  return lines;
};

describe('qpairs train log lines', () => {
  it('says a preparing step that counts steps once, when it begins, and no epoch 0', () => {
    const deepWalk = (step: number): TrainProgressView => ({ epoch: 0, epochs: 1, step, steps: 3, loss: 0, phase: 'DeepWalk over the question network' });
    expect(
      linesOf([
        { epoch: 0, epochs: 1, step: 0, steps: 0, loss: 0, phase: 'reading the questions and answers' },
        deepWalk(1),
        deepWalk(2),
        deepWalk(3),
        { epoch: 1, epochs: 1, step: 1, steps: 2, loss: 0.5 },
        { epoch: 1, epochs: 1, step: 2, steps: 2, loss: 0.25, devMRR: 0.75, devMAP: 0.6 },
      ]),
    ).toEqual(['reading the questions and answers…', 'DeepWalk over the question network…', 'epoch 1/1: loss 0.2500, dev MRR 75.00, MAP 60.00']);
  });

  it('keeps the skip-gram pre-training and cross-validation epochs as they were', () => {
    expect(
      linesOf([
        { epoch: 1, epochs: 5, step: 4, steps: 4, loss: 7.5, phase: 'skip-gram pre-training' },
        { epoch: 2, epochs: 3, step: 6, steps: 6, loss: 0.5, phase: 'CV repeat 1/1 (report) fold 5/5: epoch 2/3' },
      ]),
    ).toEqual(['skip-gram pre-training: epoch 1/5: loss 7.5000', 'CV repeat 1/1 (report) fold 5/5: epoch 2/3: loss 0.5000']);
  });
});
