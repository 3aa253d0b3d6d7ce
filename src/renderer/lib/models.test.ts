import { describe, expect, it } from 'vitest';
import { describeSettings, MODEL_KINDS, MODEL_NAME_RE, type TrainProgressView } from '../../shared/models';
import {
  applyTrainProgress,
  describeCv,
  describeTraining,
  parseModelSettings,
  describeProgress,
  fmtRate,
  fmtSeconds,
  historySeries,
  lossYMax,
  MODEL_HELP,
  modelNameError,
  suggestModelName,
  tickDigits,
  traceSeries,
  trainFraction,
  trainingFinished,
  trainJobScoring,
  overallFraction,
  traceFraction,
  type TrainTrace,
} from './models';
import type { TrainProgressEvent } from '../../shared/contract';

const ev = (progress: TrainProgressView, name = 'm') => ({ jobId: 'j', name, progress });
function replay(events: TrainProgressView[]): TrainTrace {
  let t: TrainTrace | null = null;
  for (const p of events) t = applyTrainProgress(t, ev(p));
  return t!;
}

describe('model names', () => {
  it('accepts what the contract accepts', () => {
    for (const n of ['tfidf-1', 'a', 'A.b_c+d-e', '9lives', 'x'.repeat(100)]) {
      expect(modelNameError(n), n).toBeNull();
      expect(MODEL_NAME_RE.test(n)).toBe(true);
    }
  });
  it('says why a name is rejected', () => {
    expect(modelNameError('')).toBe('enter a name');
    expect(modelNameError('-x')).toBe('must start with a letter or digit');
    expect(modelNameError('_x')).toBe('must start with a letter or digit');
    expect(modelNameError('my model')).toBe('only letters, digits, . _ + - (not space)');
    expect(modelNameError('a/b:c/')).toBe('only letters, digits, . _ + - (not “/”, “:”)');
    expect(modelNameError('x'.repeat(101))).toBe('too long (101 characters, at most 100)');
    expect(modelNameError('é')).toBe('must start with a letter or digit');
    for (const n of ['-x', 'my model', 'a/b', 'x'.repeat(101), 'é']) expect(MODEL_NAME_RE.test(n)).toBe(false);
  });
  it('suggests a free name per kind', () => {
    expect(suggestModelName('tfidf', [])).toBe('tfidf-1');
    expect(suggestModelName('tfidf', ['tfidf-1', 'tfidf-2', 'ltr-3'])).toBe('tfidf-3');
  });
  it('describes every kind', () => {
    for (const k of MODEL_KINDS) expect(MODEL_HELP[k].length).toBeGreaterThan(10);
  });
});

describe('training trace → chart series', () => {
  const steps: TrainProgressView[] = [
    { epoch: 1, epochs: 3, step: 1, steps: 4, loss: 0.9 },
    { epoch: 1, epochs: 3, step: 2, steps: 4, loss: 0.8 },
    { epoch: 1, epochs: 3, step: 4, steps: 4, loss: 0.7, devMRR: 0.5, devMAP: 0.4 },
    { epoch: 2, epochs: 3, step: 2, steps: 4, loss: 0.6 },
  ];

  it('keeps finished epochs and the running epoch as a live last point', () => {
    const t = replay(steps);
    expect(t.epochs).toEqual([{ epoch: 1, loss: 0.7, devMRR: 0.5, devMAP: 0.4 }]);
    expect(t.events).toBe(4);
    const s = traceSeries(t);
    expect(s.loss).toEqual([{ name: 'loss', points: [[1, 0.7], [1.5, 0.6]] }]);
    // In percent, as the progress line and the models table give them (82.33, not 0.823).
    expect(s.dev).toEqual([
      { name: 'dev MRR', points: [[1, 50]] },
      { name: 'dev MAP', points: [[1, 40]] },
    ]);
    expect(historySeries([{ epoch: 1, loss: 0.7, devMRR: 0.8233, devMAP: 0.7345, seconds: 1 }]).dev.map((d) => d.points[0]![1])).toEqual([82.33, 73.45]);
    expect(trainFraction(t.last)).toBeCloseTo(1.5 / 3);
    expect(trainingFinished(t)).toBe(false);
  });

  it('ends with one point per epoch and knows training is over', () => {
    const t = replay([
      ...steps,
      { epoch: 2, epochs: 3, step: 4, steps: 4, loss: 0.5, devMRR: 0.6, devMAP: 0.5 },
      { epoch: 3, epochs: 3, step: 4, steps: 4, loss: 0.45, devMRR: 0.55, devMAP: 0.52 },
    ]);
    const s = traceSeries(t);
    expect(s.loss[0]!.points).toEqual([
      [1, 0.7],
      [2, 0.5],
      [3, 0.45],
    ]);
    expect(s.dev[0]!.points.map((p) => p[0])).toEqual([1, 2, 3]);
    expect(trainFraction(t.last)).toBe(1);
    expect(trainingFinished(t)).toBe(true);
  });

  it('a repeated epoch end replaces the earlier one', () => {
    const t = replay([steps[2]!, { ...steps[2]!, loss: 0.65 }]);
    expect(t.epochs).toEqual([{ epoch: 1, loss: 0.65, devMRR: 0.5, devMAP: 0.4 }]);
  });

  it('puts pre-training phases in their own series, without dev metrics', () => {
    const t = replay([
      { epoch: 1, epochs: 2, step: 5, steps: 5, loss: 3.2, phase: 'skip-gram pre-training' },
      { epoch: 2, epochs: 2, step: 5, steps: 5, loss: 2.9, phase: 'skip-gram pre-training' },
      { epoch: 1, epochs: 4, step: 1, steps: 10, loss: 0.3 },
    ]);
    const s = traceSeries(t);
    expect(s.loss).toEqual([{ name: 'loss', points: [[0.1, 0.3]] }]);
    expect(s.pretrain).toEqual([
      {
        name: 'skip-gram pre-training',
        points: [
          [1, 3.2],
          [2, 2.9],
        ],
      },
    ]);
    expect(s.dev).toEqual([]);
    // A running pre-training epoch is a live last point of its phase.
    const live = traceSeries(replay([{ epoch: 1, epochs: 3, step: 2, steps: 8, loss: 4, phase: 'encoder-decoder pre-training' }]));
    expect(live.pretrain).toEqual([{ name: 'encoder-decoder pre-training', points: [[0.25, 4]] }]);
    expect(live.loss).toEqual([{ name: 'loss', points: [] }]);
    expect(trainFraction({ epoch: 1, epochs: 2, step: 5, steps: 5, loss: 1, phase: 'x' })).toBe(0.5);
    expect(trainingFinished(replay([{ epoch: 2, epochs: 2, step: 5, steps: 5, loss: 1, phase: 'x' }]))).toBe(false);
  });

  it('has no dev series without dev metrics, and ignores non-finite losses', () => {
    const t = replay([
      { epoch: 1, epochs: 1, step: 1, steps: 1, loss: Number.NaN },
      { epoch: 1, epochs: 1, step: 1, steps: 1, loss: 0 },
    ]);
    expect(traceSeries(t)).toEqual({ loss: [{ name: 'loss', points: [[1, 0]] }], dev: [], pretrain: [] });
    expect(traceSeries(null)).toEqual({ loss: [], dev: [], pretrain: [] });
  });

  it('turns a stored history into the same series', () => {
    const s = historySeries([
      { epoch: 1, loss: 0.69, devMRR: 0.79, devMAP: 0.71, seconds: 0.1 },
      { epoch: 2, loss: 0.52, devMRR: 0.8, seconds: 0.1 },
    ]);
    expect(s.loss).toEqual([
      {
        name: 'loss',
        points: [
          [1, 0.69],
          [2, 0.52],
        ],
      },
    ]);
    expect(s.dev).toEqual([
      {
        name: 'dev MRR',
        points: [
          [1, 79],
          [2, 80],
        ],
      },
      { name: 'dev MAP', points: [[1, 71]] },
    ]);
    expect(historySeries([{ epoch: 1, loss: 0, seconds: 0 }]).dev).toEqual([]);
  });

  it('describes progress in one line', () => {
    expect(describeProgress({ epoch: 2, epochs: 5, step: 3, steps: 10, loss: 0.12345 })).toBe('epoch 2/5 · step 3/10 · loss 0.1235');
    expect(describeProgress({ epoch: 1, epochs: 1, step: 1, steps: 1, loss: 0, devMRR: 0.7767, devMAP: 0.6977 })).toBe(
      'epoch 1/1 · step 1/1 · loss 0.0000 · dev MRR 77.67 · dev MAP 69.77',
    );
    expect(describeProgress({ epoch: 1, epochs: 3, step: 0, steps: 0, loss: 2, phase: 'skip-gram pre-training' })).toBe('skip-gram pre-training: epoch 1/3 · loss 2.0000');
  });
});

describe('loss axis and formatting', () => {
  it('rounds the largest loss up to a nice top', () => {
    const s = (...ys: number[]) => [{ name: 'loss', points: ys.map((y, i) => [i, y] as [number, number]) }];
    expect(lossYMax(s(0.6931, 0.52))).toBe(1); // steps of 1, 2, 2.5, 5 × 10^k
    expect(lossYMax(s(0.2428))).toBe(0.25);
    expect(lossYMax(s(2.3))).toBe(2.5);
    expect(lossYMax(s(0.03))).toBe(0.05);
    expect(lossYMax(s(5))).toBe(5);
    expect(lossYMax(s(0))).toBe(1);
    expect(lossYMax([])).toBe(1);
    expect(tickDigits(1)).toBe(1);
    expect(tickDigits(0.25)).toBe(2);
    expect(tickDigits(0.05)).toBe(3);
    expect(tickDigits(50)).toBe(1);
  });
  it('formats rates and seconds', () => {
    expect(fmtRate(7667.4, 'docs')).toBe('7,667 docs/s');
    expect(fmtRate(29.04, 'pairs')).toBe('29.0 pairs/s');
    expect(fmtRate(0.531, '')).toBe('0.53 examples/s');
    expect(fmtRate(Number.NaN, 'pairs')).toBe('—');
    expect(fmtSeconds(0.12)).toBe('0.1 s');
    expect(fmtSeconds(25.3)).toBe('25 s');
    expect(fmtSeconds(125)).toBe('2 min 05 s');
    // A model row lacking its figures (models.list gives null): "—".
    expect(fmtRate(null, '')).toBe('—');
    expect(fmtSeconds(null)).toBe('—');
  });
  it('describes what a model was trained on, "—" for what its record lacks', () => {
    const t = { trainPools: ['a', 'b'], devPool: null, epochs: 3, seed: 1, positives: 1234, negatives: 5, questions: 9 };
    expect(describeTraining(t)).toBe('a, b (1,234 positive, 5 negative pairs)');
    expect(describeTraining({ ...t, trainPools: [] })).toBe('user-marked duplicates (1,234 positive, 5 negative pairs)');
    expect(describeTraining({ ...t, trainPools: null, positives: null, negatives: null })).toBe('— (— positive, — negative pairs)');
  });
});

describe('overall training progress', () => {
  it('never goes back when pre-training ends and training starts', () => {
    let t: TrainTrace | null = null;
    const seen: number[] = [];
    const ev = (progress: TrainProgressView): void => {
      t = applyTrainProgress(t, { name: 'm', progress } as TrainProgressEvent);
      seen.push(traceFraction(t));
    };
    ev({ epoch: 1, epochs: 2, step: 5, steps: 10, loss: 1, phase: 'skip-gram pre-training' });
    ev({ epoch: 2, epochs: 2, step: 10, steps: 10, loss: 1, phase: 'skip-gram pre-training' });
    ev({ epoch: 1, epochs: 5, step: 1, steps: 10, loss: 1 });
    ev({ epoch: 5, epochs: 5, step: 10, steps: 10, loss: 1 });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(seen[1]).toBeCloseTo(0.3, 5);
    expect(seen.at(-1)).toBeCloseTo(1, 5);
  });
  it('gives the whole bar to training without pre-training', () => {
    expect(overallFraction([''], { epoch: 1, epochs: 2, step: 10, steps: 10, loss: 1 })).toBeCloseTo(0.5, 5);
  });
  it('a preparation (the worker reading the texts) is no stage of the bar and says what it does, without a loss', () => {
    const reading: TrainProgressView = { epoch: 0, epochs: 1, step: 0, steps: 0, loss: 0, phase: 'reading the questions and answers' };
    let t = replay([reading]);
    expect(traceFraction(t)).toBe(0);
    expect(describeProgress(t.last)).toBe('reading the questions and answers…');
    expect(trainingFinished(t)).toBe(false);
    t = applyTrainProgress(t, ev({ epoch: 1, epochs: 2, step: 10, steps: 10, loss: 1 }));
    // The training fills the whole bar (no 30% kept for a pre-training phase that is none).
    expect(t.stages).toEqual(['']);
    expect(traceFraction(t)).toBeCloseTo(0.5, 5);
    // A later preparation (the next fold's worker reading again) keeps the bar where it was.
    t = applyTrainProgress(t, ev(reading));
    expect(traceFraction(t)).toBeCloseTo(0.5, 5);
    expect(describeProgress(t.last)).toBe('reading the questions and answers…');
  });
});

describe('the settings box of the Models form', () => {
  const tfidf = { minN: 1, maxN: 3, minDf: 2 };
  it('reads empty as the defaults and a JSON object of known settings as given', () => {
    expect(parseModelSettings('  ', tfidf)).toEqual({ error: null });
    expect(parseModelSettings('{"maxN": 1}', tfidf)).toEqual({ config: { maxN: 1 }, error: null });
  });
  it('says what is wrong with anything else, before the engine is asked', () => {
    expect(parseModelSettings('{maxN: 1}', tfidf).error).toMatch(/^not JSON/);
    // The example is one of the model's own settings (tfidf has no "epochs").
    expect(parseModelSettings('[1]', tfidf).error).toBe('a JSON object of settings, e.g. {"minN": 1}');
    expect(parseModelSettings('null', tfidf).error).toMatch(/JSON object/);
    expect(parseModelSettings('{"maxn": 1, "epoch": 2}', tfidf).error).toBe('no setting “maxn”, “epoch” for this model (see its settings below)');
    // Before the settings have arrived, the engine's check is the only one.
    expect(parseModelSettings('{"maxn": 1}', undefined)).toEqual({ config: { maxn: 1 }, error: null });
  });
  it('describes a model\'s settings in one line', () => {
    expect(describeSettings(undefined)).toBe('default settings');
    expect(describeSettings({ maxN: 1, runs: ['a', 'b'] })).toBe('maxN 1, runs ["a","b"]');
  });
});

describe('describeCv (the Models table\'s CV figure)', () => {
  it('gives MAP and MRR with their 95% CIs and how many distinct questions were scored, as qpairs train does', () => {
    // tfidf --cv 5 on SemEval-2016 train parts 1 and 2; the table said only "grouped CV MAP 70.55 (5 folds × 1)".
    const cv = {
      folds: 5,
      repeats: 1,
      clusters: 117,
      queries: 170,
      scoredQuestions: 117,
      MAP: 0.7055,
      MRR: 0.8009,
      ci: { MAP: [0.6486, 0.7623] as [number, number], MRR: [0.7373, 0.8644] as [number, number] },
      selection: 'nothing to choose',
    };
    expect(describeCv(cv)).toBe(
      'grouped CV MAP 70.55 (95% CI 64.86–76.23), MRR 80.09 (95% CI 73.73–86.44): 5 folds × 1 repeat, each of 117 distinct questions scored once (170 labeled training queries)',
    );
  });

  it('a model stored before the counts were kept, or without an interval, says what it has', () => {
    const cv = { folds: 3, repeats: 2, clusters: 1, MAP: 0.5, MRR: 0.5, ci: { MAP: null, MRR: null }, selection: '' };
    expect(describeCv(cv)).toBe('grouped CV MAP 50.00, MRR 50.00: 3 folds × 2 repeats, each of 1 distinct question scored once');
  });
});

describe('a train job scoring the pools with its stored model (Cancel no longer applies)', () => {
  // mnet-fisher's last event is a GMM phase, not an epoch end: the trace alone missed its scoring, and Cancel stayed.
  const gmm = replay([{ epoch: 2, epochs: 2, step: 3, steps: 3, loss: 1, phase: 'GMM K = 4 (EM 12 iterations)' }]);
  it('is known from the engine\'s phase, whatever the trace', () => {
    expect(trainingFinished(gmm)).toBe(false);
    expect(trainJobScoring({ progress: { phase: 'scoring' }, done: null, trace: gmm })).toBe(true);
    expect(trainJobScoring({ progress: { phase: 'scoring' }, done: null, trace: null })).toBe(true);
  });
  it('not while training, nor once the job is done', () => {
    expect(trainJobScoring({ progress: {}, done: null, trace: gmm })).toBe(false);
    expect(trainJobScoring({ progress: null, done: null, trace: null })).toBe(false);
    expect(trainJobScoring({ progress: { phase: 'scoring' }, done: { ok: true }, trace: gmm })).toBe(false);
  });
});
