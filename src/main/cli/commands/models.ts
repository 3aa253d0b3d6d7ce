import { SUBCOMMANDS } from '../usage';
import { backendName, initBackend } from '../../models';
import { scorePool, deleteModelReporting, describeMissingRuns, describeUniformScores } from '../../training/train';
import { listModels, requireModel } from '../../training/store';
import { QPairsError } from '../../errors';
import { parse, requireString, table, takePositionals, UsageError } from '../args';
import { subcommandError } from '../../../shared/suggest';
import { modelPoolOverlaps, poolModelRuns } from '../../engine/models';
import { reportView, trainingView } from '../../engine/model-view';
import { json, withWorkspace, type Out } from './common';
import { describeSettings, type ModelInfoView } from '../../../shared/models';
import { counted } from '../../../shared/plural';

/** `qpairs score W --model NAME --pool P [--json]`: stores the model's scores as run NAME in pool P. */
export async function cmdScore(argv: string[], out: Out, signal?: AbortSignal): Promise<number> {
  const { values, positionals } = parse(argv, { model: { type: 'string' }, pool: { type: 'string' }, json: { type: 'boolean' } });
  takePositionals(positionals, ['W'], 'score');
  const name = requireString(values.model, '--model NAME');
  const pool = requireString(values.pool, '--pool P');
  return withWorkspace(positionals[0], async (ws) => {
    const t0 = Date.now();
    const r = await scorePool(ws, name, pool, { signal });
    const res = { model: name, pool, run: name, queries: r.queries, pairs: r.pairs, missingRuns: r.missingRuns, uniformQueries: r.uniformQueries, uniformWithoutText: r.uniformWithoutText, seconds: (Date.now() - t0) / 1000 };
    if (values.json) out.log(json(res));
    else {
      out.log(`scored ${counted(r.queries, 'query', 'queries')} (${counted(r.pairs, 'pair')}) of pool ${pool} with ${name}: run "${name}"`);
      const note = describeMissingRuns(name, pool, r.missingRuns);
      if (note) out.log(note);
      const flat = describeUniformScores(name, pool, r);
      if (flat) out.log(flat);
    }
    return 0;
  }, { write: 'score', out });
}

/** `qpairs models list W [--json]` and `qpairs models delete W NAME [--json]`. */
export async function cmdModels(argv: string[], out: Out): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
  if (sub === 'list') {
    takePositionals(positionals, ['W'], 'models list');
    return withWorkspace(positionals[0], async (ws) => {
      // Each model's backend: the one its training reported (what `qpairs train` said: js for the models
      // in plain JavaScript; the process's tfjs backend is only what the tfjs models run on here).
      // Per pool the model scored: how many of its evaluated queries the model was trained on.
      const pools = poolModelRuns(ws);
      // A row whose report or training record lacks fields is listed with what it has ("—" for the rest: engine/model-view.ts).
      const stored = listModels(ws);
      const recorded = new Set(stored.filter((m) => m.training.trainedOnQueries !== undefined).map((m) => m.name));
      const models = stored.map((m) => {
        const report = reportView(m.report);
        return { ...m, report, training: trainingView(m.training), backend: report.backend, overlap: modelPoolOverlaps(ws, m.name, pools) };
      });
      const backend = await initBackend().then(() => backendName());
      if (values.json) out.log(json({ backend, models }));
      else {
        // "js" is no tfjs backend: it names the models in plain JavaScript (tfidf, skipgram, ltr, fused, mnet-fisher, dae).
        out.log(`tfjs backend: ${backend}, the neural models' (bow-cnn, cnn, lstm, gru, rcnn, hnil); each model's backend column is the one it trained on, as qpairs train said — "js": plain JavaScript, no tfjs`);
        // Without a dev pool the "dev" figures are those of the training queries held out for early
        // stopping (marked *), and CV MAP comes with its 95% interval, as the Models screen shows them.
        const pct = (x: number): string => (100 * x).toFixed(2);
        const heldOut = (m: (typeof models)[number]): string => (m.training.devPool === null && m.training.earlyStopping ? '*' : '');
        out.log(
          table(
            ['model', 'kind', 'backend', 'settings', 'epochs', 'dev MRR', 'dev MAP', 'CV MAP (95% CI)', 'trained on', 'saw evaluated queries', 'created'],
            models.map((m) => [
              m.name,
              m.kind,
              m.backend,
              describeSettings(m.training.config),
              `${m.report.bestEpoch ?? '—'}/${m.report.epochs ?? '—'}`,
              m.report.bestDevMRR !== undefined ? pct(m.report.bestDevMRR) + heldOut(m) : '',
              m.report.bestDevMAP !== undefined ? pct(m.report.bestDevMAP) + heldOut(m) : '',
              m.training.cv ? pct(m.training.cv.MAP) + (m.training.cv.ci.MAP ? ` (${pct(m.training.cv.ci.MAP[0])}–${pct(m.training.cv.ci.MAP[1])})` : '') : '',
              m.training.trainPools === null ? '—' : m.training.trainPools.length ? m.training.trainPools.join('+') : 'duplicates',
              sawEvaluated(recorded.has(m.name), m.overlap),
              m.created.slice(0, 19),
            ]),
          ),
        );
        const starred = models.filter((m) => heldOut(m) && m.report.bestDevMRR !== undefined);
        if (starred.length) {
          out.log(
            `* no dev pool: ${starred.map((m) => `${m.name} on ${m.training.earlyStopping!.heldOutQueries} training quer${m.training.earlyStopping!.heldOutQueries === 1 ? 'y' : 'ies'}`).join(', ')} held out for early stopping (train with --dev-pool or --cv for a figure on other queries)`,
          );
        }
      }
      return 0;
    }, { out });
  }
  if (sub === 'delete') {
    const name = positionals[1];
    if (!name) throw new UsageError('usage: qpairs models delete W NAME');
    takePositionals(positionals, ['W', 'NAME'], 'models delete');
    return withWorkspace(positionals[0], async (ws) => {
      requireModel(ws, name);
      const { deleted, featureOf, note } = await deleteModelReporting(ws, name);
      if (!deleted) throw new QPairsError(`no model named "${name}"`);
      if (values.json) {
        out.log(json({ deleted: true, model: name, featureOf, note }));
        return 0;
      }
      out.log(`deleted model ${name} and the runs it scored`);
      if (note) out.log(`note: ${note}`);
      return 0;
    }, { write: 'models delete', out });
  }
  throw new UsageError(subcommandError('models', sub, SUBCOMMANDS.models!));
}

const SAW_SELECTED = { dev: 'its dev pool', holdout: 'its hold-out', cv: 'its CV' } as const;

/**
 * The 'saw evaluated queries' cell: per pool the model scored, the evaluated queries it was trained on
 * ("E 6/6") and those whose queries chose it ("D its dev pool", "T its hold-out", "T its CV": shared/selected-on.ts).
 */
export function sawEvaluated(recorded: boolean, overlap: NonNullable<ModelInfoView['overlap']>): string {
  const parts = overlap
    .filter((o) => (recorded && o.trainedOn > 0) || o.selectedOn)
    .map((o) => [o.pool, recorded && o.trainedOn > 0 ? `${o.trainedOn}/${o.of}` : '', o.selectedOn ? SAW_SELECTED[o.selectedOn.by] : ''].filter(Boolean).join(' '));
  return parts.join(', ') || (recorded ? 'none' : 'unknown');
}
