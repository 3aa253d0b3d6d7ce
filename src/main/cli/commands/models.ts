import { MODEL_IDS } from '../../models/types';
import { backendName, initBackend } from '../../models';
import { trainModel, scorePool, deleteModelAndRuns } from '../../training/train';
import { listModels } from '../../training/store';
import { QPairsError } from '../../errors';
import { parse, requireString, optionalInt, table, UsageError } from '../args';
import { ProgressBar } from '../progress';
import { json, withWorkspace, type Out } from './common';

/**
 * `qpairs train W --model M --name NAME [--train-pool P]… [--dev-pool P] [--epochs E] [--seed S]
 * [--vectors word2vec.txt] [--json]`: trains a reranker on the workspace (with no --train-pool, on its
 * user-marked duplicates), keeps the best epoch by dev MRR, stores it, and — with --score-pools,
 * or by default the dev pool — scores pools so `qpairs eval` reports it.
 */
export async function cmdTrain(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, {
    model: { type: 'string' },
    name: { type: 'string' },
    'train-pool': { type: 'string', multiple: true },
    'dev-pool': { type: 'string' },
    epochs: { type: 'string' },
    seed: { type: 'string' },
    config: { type: 'string' },
    vectors: { type: 'string' },
    'max-extra-texts': { type: 'string' },
    'max-extra-chars': { type: 'string' },
    json: { type: 'boolean' },
  });
  const model = requireString(values.model, `--model M (${MODEL_IDS.join(', ')})`);
  const name = requireString(values.name, '--name NAME');
  const epochs = optionalInt(values.epochs, '--epochs');
  if (epochs !== undefined && epochs < 1) throw new UsageError('--epochs must be at least 1');
  const seed = optionalInt(values.seed, '--seed');
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
  }
  return withWorkspace(positionals[0], async (ws) => {
    const backend = await initBackend();
    if (!values.json) out.log(`training ${model} as "${name}" on the ${backend} backend`);
    const bar = new ProgressBar(`train ${name}`);
    const ac = new AbortController();
    const onSig = (): void => ac.abort();
    process.once('SIGINT', onSig);
    try {
      const { report, training } = await trainModel(
        ws,
        { model, name, trainPools: values['train-pool'] ?? [], devPool: values['dev-pool'] ?? null, epochs, seed, config, vectors: values.vectors, extraTexts },
        {
          signal: ac.signal,
          onProgress: (p) => {
            const dev = p.devMRR !== undefined ? ` dev MRR ${(100 * p.devMRR).toFixed(2)}` : '';
            bar.update(p.step, p.steps, `${p.phase ?? `epoch ${p.epoch}/${p.epochs}`} loss ${p.loss.toFixed(4)}${dev}`);
            if (p.step === p.steps && p.devMRR !== undefined && !values.json && !process.stderr.isTTY) {
              out.err(`epoch ${p.epoch}/${p.epochs}: loss ${p.loss.toFixed(4)}, dev MRR ${(100 * p.devMRR).toFixed(2)}, MAP ${(100 * (p.devMAP ?? 0)).toFixed(2)}`);
            }
          },
        },
      );
      bar.done();
      let scored: { pool: string; pairs: number } | null = null;
      if (training.devPool) {
        const s = await scorePool(ws, name, training.devPool, { signal: ac.signal });
        scored = { pool: training.devPool, pairs: s.pairs };
      }
      if (values.json) out.log(json({ name, model, backend: report.backend, report, training, scored }));
      else {
        out.log(`trained ${name} (${model}) in ${report.seconds.toFixed(1)} s on ${report.backend}: ${report.epochs} epochs, kept epoch ${report.bestEpoch}` +
          (report.bestDevMRR !== undefined ? ` (dev MRR ${(100 * report.bestDevMRR).toFixed(2)}, MAP ${(100 * (report.bestDevMAP ?? 0)).toFixed(2)})` : ''));
        out.log(
          `  data: ${training.positives} positive and ${training.negatives} negative pairs, ${training.questions} questions, ` +
            `${training.extraTexts ?? 0} answers as unlabeled text; ${report.examplesPerSecond.toFixed(0)} ${report.exampleUnit}/s`,
        );
        if (scored) out.log(`  scored pool ${scored.pool} as run "${name}" (${scored.pairs} pairs): see qpairs eval W --pool ${scored.pool}`);
      }
      return 0;
    } finally {
      bar.done();
      process.off('SIGINT', onSig);
    }
  }, { write: 'train', out });
}

/** `qpairs score W --model NAME --pool P [--json]`: stores the model's scores as run NAME in pool P. */
export async function cmdScore(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, { model: { type: 'string' }, pool: { type: 'string' }, json: { type: 'boolean' } });
  const name = requireString(values.model, '--model NAME');
  const pool = requireString(values.pool, '--pool P');
  return withWorkspace(positionals[0], async (ws) => {
    const t0 = Date.now();
    const r = await scorePool(ws, name, pool);
    const res = { model: name, pool, run: name, queries: r.queries, pairs: r.pairs, seconds: (Date.now() - t0) / 1000 };
    if (values.json) out.log(json(res));
    else out.log(`scored ${r.queries} queries (${r.pairs} pairs) of pool ${pool} with ${name}: run "${name}"`);
    return 0;
  }, { write: 'score', out });
}

/** `qpairs models list|delete W [NAME] [--json]`. */
export async function cmdModels(argv: string[], out: Out): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
  if (sub === 'list') {
    return withWorkspace(positionals[0], async (ws) => {
      const models = listModels(ws);
      const backend = await initBackend().then(() => backendName());
      if (values.json) out.log(json({ backend, models }));
      else {
        out.log(`tfjs backend: ${backend}`);
        out.log(
          table(
            ['model', 'kind', 'epochs', 'dev MRR', 'dev MAP', 'trained on', 'created'],
            models.map((m) => [
              m.name,
              m.kind,
              `${m.report.bestEpoch}/${m.report.epochs}`,
              m.report.bestDevMRR !== undefined ? (100 * m.report.bestDevMRR).toFixed(2) : '',
              m.report.bestDevMAP !== undefined ? (100 * m.report.bestDevMAP).toFixed(2) : '',
              m.training.trainPools.length ? m.training.trainPools.join('+') : 'duplicates',
              m.created.slice(0, 19),
            ]),
          ),
        );
      }
      return 0;
    }, { out });
  }
  if (sub === 'delete') {
    const name = positionals[1];
    if (!name) throw new UsageError('usage: qpairs models delete W NAME');
    return withWorkspace(positionals[0], (ws) => {
      if (!deleteModelAndRuns(ws, name)) throw new QPairsError(`no model named "${name}"`);
      out.log(`deleted model ${name} and the runs it scored`);
      return 0;
    }, { write: 'models delete', out });
  }
  throw new UsageError('usage: qpairs models list|delete W …');
}
