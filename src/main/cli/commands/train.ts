import { closeSync, openSync, statSync } from 'node:fs';
import { QPairsError } from '../../errors';
import { cannotRead } from '../../import/reader';
import { MODEL_IDS, type ModelId, type TrainReport } from '../../models/types';
import { checkModelConfig } from '../../models/config-check';
import { trainModel, prepareTraining, scoreEveryPool, describeMissingRuns, describeUniformScores, type TrainSpec } from '../../training/train';
import { describeDevOverlap } from '../../training/dev-overlap';
import { listModels, type TrainingInfo } from '../../training/store';
import type { Workspace } from '../../workspace/workspace';
import { parse, requireString, optionalInt, takePositionals, UsageError } from '../args';
import { unknownChoice } from '../../../shared/suggest';
import { describeCvFigures, trainingStep } from '../../../shared/models';
import { ProgressBar } from '../progress';
import { json, withWorkspace, type Out } from './common';
import { preparingPhase, trainLogLine } from '../train-log';

const pct = (x: number): string => (100 * x).toFixed(2);

/** A path as one shell word, quoted when it needs to be (for the commands the output suggests). */
const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * scoreEveryPool for `train`: a Ctrl-C (SIGTERM, SIGHUP) while the stored model scores the pools does not
 * stop it (a pool left unscored would lack the model's run): says so on standard error when it arrives,
 * naming the pool under way.
 */
export async function scoreToTheEnd(ws: Workspace, name: string, out: Out, signal: AbortSignal | undefined): ReturnType<typeof scoreEveryPool> {
  let where = '';
  const onAbort = (): void =>
    out.err(`Ctrl-C: the model "${name}" is stored; scoring the pools with it goes on to the end (${where}), then the command ends — a pool left unscored would lack its run`);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await scoreEveryPool(ws, name, undefined, undefined, (pool, i, n) => {
      where = `pool ${pool}, ${i + 1} of ${n}`;
      if (signal?.aborted && i === 0) onAbort();
    });
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * "trained NAME (M) in 30.5 s on js (training epochs 0.2 s): …": the time is the whole training
 * (training data, the model's fit in its worker, storing it), the epochs' share in parentheses when
 * it is notably less (as the app's training panel says it); the backend is the one the model
 * reports using (the tfjs models the worker's tfjs backend, the others plain js).
 */
export function describeTrained(name: string, model: string, seconds: number, report: TrainReport, heldOut: boolean): string {
  const epochs = seconds > report.seconds * 1.05 ? ` (training epochs ${report.seconds.toFixed(1)} s)` : '';
  return (
    `trained ${name} (${model}) in ${seconds.toFixed(1)} s on ${report.backend}${epochs}: ${report.epochs} epoch${report.epochs === 1 ? '' : 's'}, kept epoch ${report.bestEpoch}` +
    (report.bestDevMRR !== undefined ? ` (${heldOut ? 'held-out' : 'dev'} MRR ${pct(report.bestDevMRR)}, MAP ${pct(report.bestDevMAP ?? 0)})` : '')
  );
}

/** The CV line: "grouped CV MAP 76.51 (95% CI 72.10–80.92), MRR …: 5 folds × 3 repeats scoring each of 117 distinct questions once (170 labeled training queries …)". */
export function describeCv(cv: NonNullable<TrainingInfo['cv']>): string {
  return (
    `${describeCvFigures(cv)} ` +
    `scoring each of ${cv.scoredQuestions ?? cv.clusters} distinct questions once (${cv.queries} labeled training queries in ${cv.clusters} groups of near-duplicates; seed ${cv.seed}); ${cv.selection}`
  );
}

/**
 * Refuses a --vectors file that cannot be read, in words (as an import or --queries says it) and before
 * the command says it trains: it failed after "training … as …" with Node's "ENOENT: no such file or
 * directory, open 'x'".
 */
function checkVectorsFile(file: string): void {
  let isFolder: boolean;
  try {
    closeSync(openSync(file, 'r'));
    isFolder = statSync(file).isDirectory();
  } catch (e) {
    throw new QPairsError(`--vectors ${file}: ${cannotRead(e as NodeJS.ErrnoException)}`);
  }
  if (isFolder) throw new QPairsError(`--vectors ${file}: ${cannotRead({ code: 'EISDIR' } as NodeJS.ErrnoException)}`);
}

/**
 * `qpairs train W --model M --name NAME [--train-pool P]… [--dev-pool P] [--keep-overlap]
 * [--cv K [--repeats R]] [--epochs E] [--seed S] [--vectors word2vec.txt] [--json]`: trains a
 * reranker on the workspace (with no --train-pool, on its user-marked duplicates), stores it,
 * and scores every pool (as the app does) so `qpairs eval` reports it and later models can use
 * its run as a feature. Training queries that are dev queries are
 * dropped unless --keep-overlap (and the output says how many and why); --cv K cross-validates
 * over grouped folds first; without a dev pool or --cv, a seeded fifth of the training clusters
 * is held out for early stopping. See src/main/training/train.ts.
 */
export async function cmdTrain(argv: string[], out: Out, signal: AbortSignal): Promise<number> {
  const { values, positionals } = parse(argv, {
    model: { type: 'string' },
    name: { type: 'string' },
    'train-pool': { type: 'string', multiple: true },
    'dev-pool': { type: 'string' },
    'keep-overlap': { type: 'boolean' },
    cv: { type: 'string' },
    repeats: { type: 'string' },
    epochs: { type: 'string' },
    seed: { type: 'string' },
    config: { type: 'string' },
    vectors: { type: 'string' },
    'max-extra-texts': { type: 'string' },
    'max-extra-chars': { type: 'string' },
    json: { type: 'boolean' },
  });
  const model = requireString(values.model, `--model M (${MODEL_IDS.join(', ')})`);
  if (!(MODEL_IDS as readonly string[]).includes(model)) throw new UsageError(unknownChoice('model', model, MODEL_IDS));
  const name = requireString(values.name, '--name NAME');
  takePositionals(positionals, ['W'], 'train');
  const epochs = optionalInt(values.epochs, '--epochs');
  if (epochs !== undefined && epochs < 1) throw new UsageError('--epochs must be at least 1');
  // tf-idf is fitted in one pass: an --epochs there was ignored without a word.
  if (epochs !== undefined && model === 'tfidf') throw new UsageError('--epochs does not apply to tfidf (it is fitted in one pass over the corpus)');
  // mnet-fisher ignored it too, and said "1 epoch" (its K choices) as though it had applied.
  if (epochs !== undefined && model === 'mnet-fisher') {
    throw new UsageError(`--epochs does not apply to mnet-fisher (its GMM runs EM to convergence; its skip-gram's epochs are a setting: --config '{"epochs":${epochs}}')`);
  }
  const seed = optionalInt(values.seed, '--seed');
  const folds = optionalInt(values.cv, '--cv');
  if (folds !== undefined && folds < 2) throw new UsageError('--cv needs at least 2 folds');
  const repeats = optionalInt(values.repeats, '--repeats');
  if (repeats !== undefined && folds === undefined) throw new UsageError('--repeats goes with --cv K');
  if (repeats !== undefined && repeats < 1) throw new UsageError('--repeats must be at least 1');
  if (values['keep-overlap'] && !values['dev-pool']) throw new UsageError('--keep-overlap goes with --dev-pool P (it keeps training queries that are dev queries)');
  const maxTexts = optionalInt(values['max-extra-texts'], '--max-extra-texts');
  const maxChars = optionalInt(values['max-extra-chars'], '--max-extra-chars');
  if ((maxTexts ?? 0) < 0 || (maxChars ?? 0) < 0) throw new UsageError('--max-extra-texts and --max-extra-chars must be 0 or more');
  const extraTexts = maxTexts !== undefined || maxChars !== undefined ? { maxTexts, maxChars } : undefined;
  let config: Record<string, unknown> | undefined;
  if (values.config) {
    try {
      config = JSON.parse(values.config) as Record<string, unknown>;
    } catch {
      throw new UsageError('--config needs a JSON object, e.g. \'{"hidden":200}\'');
    }
    // Refused before anything is said or opened ("training … as …" used to come first).
    checkModelConfig(model as ModelId, config);
  }
  if (values.vectors !== undefined) checkVectorsFile(values.vectors);
  return withWorkspace(positionals[0], async (ws) => {
    // No backend named yet: the model says which it used (a main-thread initBackend said "wasm"
    // for models that train in plain js, and only delayed the start).
    const earlier = listModels(ws).find((m) => m.name === name);
    const replaced = earlier ? { kind: earlier.kind, created: earlier.created } : null;
    const spec: TrainSpec = {
      model,
      name,
      trainPools: values['train-pool'] ?? [],
      devPool: values['dev-pool'] ?? null,
      epochs,
      seed,
      config,
      vectors: values.vectors,
      extraTexts,
      keepOverlap: values['keep-overlap'] ?? false,
      ...(folds !== undefined ? { cv: { folds, repeats } } : {}),
    };
    // The checks and the overlap check before the first epoch, as the Models screen says it (it came after the training).
    const prepared = prepareTraining(ws, spec);
    // Said once the checks passed: "training ltr as …" came before "no pool named …", as though it had started.
    if (!values.json) out.log(`training ${model} as "${name}"`);
    // A name taken is the earlier model replaced (as the Models screen warns under the name): say so before it is gone.
    if (earlier && !values.json) out.log(`replacing the model "${name}" (${earlier.kind}, created ${earlier.created.replace('T', ' ').slice(0, 19)}) once this training ends; Ctrl-C while it trains keeps it`);
    if (prepared.overlap && !values.json) out.log(describeDevOverlap(prepared.overlap));
    const t0 = performance.now();
    const bar = new ProgressBar(`train ${name}`);
    const logLines = !values.json && !process.stderr.isTTY;
    let lastPreparing: string | null = null;
    try {
      const { report, training } = await trainModel(
        ws,
        spec,
        {
          signal,
          onProgress: (p) => {
            const preparing = preparingPhase(p);
            const dev = p.devMRR !== undefined ? ` dev MRR ${(100 * p.devMRR).toFixed(2)}` : '';
            bar.update(p.step, p.steps, preparing !== null ? `${preparing}…` : `${trainingStep(p)} loss ${p.loss.toFixed(4)}${dev}`);
            // Where the bar is not drawn (a log, a pipe): a line per preparing step begun and per epoch
            // ended, skip-gram pre-training's included (a minute of silence before the first epoch line).
            if (logLines) {
              const line = trainLogLine(p, lastPreparing);
              if (line !== null) out.err(line);
              lastPreparing = preparing;
            }
          },
        },
        prepared,
      );
      const seconds = (performance.now() - t0) / 1000;
      bar.done();
      // Every pool, as the app does: a later `train --model fused` (or ltr) finds this model's run
      // in its training pools. Once the model is stored the pools are scored to completion; a Ctrl-C
      // meanwhile is said to be too late (it was ignored in silence until the scoring ended).
      const scored = await scoreToTheEnd(ws, name, out, signal);
      if (values.json) out.log(json({ name, model, backend: report.backend, seconds, replaced, report, training, scored }));
      else {
        if (training.cv) out.log(describeCv(training.cv));
        if (training.earlyStopping) out.log(`early stopping: ${training.earlyStopping.note}`);
        for (const r of training.inSampleRunsLeftOut ?? [])
          out.log(`left out run "${r.run}" as a feature: its model was trained on ${r.trainedOn === null ? 'queries QPairs did not record' : `${r.trainedOn} of the training queries`} (its scores there are in-sample)`);
        if (training.featureModels?.length)
          out.log(`feature runs of models that read labels: ${training.featureModels.map((f) => `"${f.run}" (trained on ${f.trainedOn} queries)`).join(', ')}; ${name}'s scores carry theirs, so their training queries count as ${name}'s in the overlap marks`);
        out.log(describeTrained(name, model, seconds, report, !!training.earlyStopping?.heldOutQueries));
        out.log(
          `  data: ${training.positives} positive and ${training.negatives} negative pairs, ${training.questions} questions, ` +
            `${training.extraTexts ?? 0} answers as unlabeled text; ${Math.round(report.examplesPerSecond).toLocaleString('en-US')} ${report.exampleUnit}/s in the training steps (what comes before them, e.g. features and text vectors, not counted)`,
        );
        if (scored.length) {
          const where = training.devPool ?? scored[0]!.pool;
          out.log(`  scored ${scored.length === 1 ? 'pool' : `all ${scored.length} pools:`} ${scored.map((p) => `${p.pool} (${p.pairs} pairs)`).join(', ')} as run "${name}": see qpairs eval ${shellWord(positionals[0]!)} --pool ${where}`);
          for (const p of scored) {
            const note = describeMissingRuns(name, p.pool, p.missingRuns);
            if (note) out.log(`  ${note}`);
            const flat = describeUniformScores(name, p.pool, p);
            if (flat) out.log(`  ${flat}`);
          }
        }
      }
      return 0;
    } finally {
      bar.done();
    }
  }, { write: 'train', out });
}
