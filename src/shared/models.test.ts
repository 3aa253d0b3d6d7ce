import { describe, expect, it } from 'vitest';
import { isQueuedTrainingNote, queuedTrainingNote, trainingStep } from './models';

describe('queuedTrainingNote', () => {
  it("says how many trainings are ahead, and the queue's limit when known", () => {
    expect(queuedTrainingNote(1, 1)).toBe('queued: 1 training ahead (at most 1 at once)');
    expect(queuedTrainingNote(3, 2)).toBe('queued: 3 trainings ahead (at most 2 at once)');
    expect(queuedTrainingNote(2)).toBe('queued: 2 trainings ahead');
  });
  it('is what the Live panel recognizes as a waiting retrain, and nothing else is', () => {
    for (const n of [0, 1, 5]) expect(isQueuedTrainingNote(queuedTrainingNote(n, 1))).toBe(true);
    for (const note of ['epoch 1/3', 'scoring pool p', '']) expect(isQueuedTrainingNote(note)).toBe(false);
  });
});

describe('trainingStep', () => {
  it('is the phase when the report has one, else the epoch of the epochs', () => {
    expect(trainingStep({ epoch: 2, epochs: 5 })).toBe('epoch 2/5');
    expect(trainingStep({ epoch: 1, epochs: 3, phase: 'skip-gram pre-training' })).toBe('skip-gram pre-training');
  });
});
