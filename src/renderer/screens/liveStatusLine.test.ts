import { describe, expect, it } from 'vitest';
import { liveStatusSentence } from './liveStatusLine';

const base = { running: false, enabled: true, labelsSinceLast: 12, everyLabels: 20, idleSeconds: 0, queuedBehind: null };

describe('the Live panel’s status sentence', () => {
  it('counts the labels towards the next retrain', () => {
    expect(liveStatusSentence(base, null, false)).toBe('12 labels since the last retrain; the next starts at 20.');
    expect(liveStatusSentence({ ...base, labelsSinceLast: 1, idleSeconds: 60 }, null, false)).toBe('1 label since the last retrain; the next starts at 20 or 60 s after the last label.');
  });

  it('labels at the count, with no retrain said to run (an annotator is not told): due or under way, not "the next starts at" a count passed', () => {
    expect(liveStatusSentence({ ...base, labelsSinceLast: 25 }, null, false)).toBe('25 labels since the last retrain: a retrain is due or under way in the background; labeling goes on.');
  });

  it('says a retrain runs or waits when the status says so (owners)', () => {
    expect(liveStatusSentence({ ...base, running: true }, 'fused: fold 1 of 3', false)).toBe('Retraining in the background — fused: fold 1 of 3; labeling goes on.');
    expect(liveStatusSentence({ ...base, running: true, queuedBehind: 1 }, null, true)).toMatch(/^Retrain waiting for a training slot \(queued: 1 training ahead/);
    expect(liveStatusSentence({ ...base, enabled: false }, null, false)).toBe('Off: the models change only when retrained by hand.');
  });
});
