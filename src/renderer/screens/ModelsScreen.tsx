/**
 * The Models screen: research rerankers trained inside QPairs. Shows the tfjs backend the engine
 * runs them on, trains a model as a job (models.train) with a live progress bar, loss and dev
 * MRR/MAP plots per epoch (train.progress events) and a Cancel button (job.cancel), and lists the
 * trained models with their report; a model can score a pool again (models.score) or be deleted.
 * After training the engine scores every pool with the model (run = the model's name), so it
 * appears as a ranker on the Annotate (pools that are not blind) and Evaluate screens.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
// Types only from the contract: importing its values would bundle zod, whose eval probe trips the CSP.
import type { JobDone, ModelsView } from '../../shared/contract';
import { MODEL_KINDS } from '../../shared/models';
import { ModelRows } from './ModelRows';
import { TrainPanel } from './ModelTrainPanel';
import type { SharedState } from '../lib/shared-state';
import { useApp, useEvent, useJobs, useReconnect } from '../lib/context';
import { ReadOnlyNote } from '../components/ReadOnlyNote';
import { errorMessage, fmtInt } from '../lib/format';
import { MODEL_HELP, modelNameError, parseModelSettings, suggestModelName, trainJobScoring, type ModelKind } from '../lib/models';
import { ModelSettingsField } from './ModelSettingsField';
import { OptionalWholeNumberField, readOptionalWholeNumber } from '../components/OptionalWholeNumber';
import { mayCall } from '../lib/roles';
import { FilterBox, useTableSort } from '../components/DataTable';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { FieldHint, hintIdOf } from '../components/FieldHint';
import { NumberInput } from '../components/NumberInput';

const BACKEND_HELP: Record<string, string> = {
  tensorflow: 'native TensorFlow (tfjs-node): the fastest',
  wasm: 'WebAssembly with SIMD: portable, several times slower than native for the recurrent models',
  cpu: 'plain JavaScript: the slowest; install @tensorflow/tfjs-node or keep the wasm backend available',
};


/** Training jobs started from this page (kept across screen changes for the page's lifetime). */
const started = new Map<string, { name: string; kind: string; devPool: string | null; existedBefore: boolean }>();

export function ModelsScreen({ shared }: { shared: SharedState }): ReactNode {
  const { client, info } = useApp();
  const jobs = useJobs();
  const { pools, setModelBackend } = shared;

  // ------------------------------------------------------------ models
  const [view, setView] = useState<ModelsView | null>(null);
  const [viewError, setViewError] = useState<string | null>(null);
  const [duplicates, setDuplicates] = useState<number | null>(null);
  const refresh = useCallback(() => {
    client
      .invoke('models.list', {})
      .then((v) => {
        setView(v);
        setViewError(null);
        setModelBackend(v.backend);
      })
      .catch((e: unknown) => setViewError(errorMessage(e)));
    client
      .invoke('workspace.stats', {})
      .then((s) => setDuplicates(s.duplicatePairs))
      .catch(() => {});
  }, [client, setModelBackend]);
  useEffect(refresh, [refresh]);
  useEvent('workspace.changed', (w) => {
    if (w.what === 'run' || w.what === 'import') refresh();
  });
  useReconnect(refresh);
  const models = view?.models ?? [];
  const sort = useTableSort(
    models,
    {
      name: (m) => m.name,
      kind: (m) => m.kind,
      epoch: (m) => m.report.bestEpoch,
      mrr: (m) => m.report.bestDevMRR ?? null,
      map: (m) => m.report.bestDevMAP ?? null,
      speed: (m) => m.report.examplesPerSecond,
      time: (m) => m.report.seconds,
      created: (m) => m.created,
    },
    { rowId: (m) => m.name, filterText: (m) => `${m.name} ${m.kind} ${m.training.devPool ?? ''}` },
  );
  const names = models.map((m) => m.name);

  // ------------------------------------------------------------ form
  const [kind, setKind] = useState<ModelKind>('tfidf');
  const [nameDraft, setNameDraft] = useState<string | null>(null); // null = the suggestion
  const name = nameDraft ?? suggestModelName(kind, names);
  const [trainPools, setTrainPools] = useState<string[]>([]);
  const [devPool, setDevPool] = useState('');
  const [keepOverlap, setKeepOverlap] = useState(false);
  const [epochs, setEpochs] = useState('');
  const [seed, setSeed] = useState(1);
  const [configText, setConfigText] = useState('');
  const [cvFolds, setCvFolds] = useState('');
  const [cvRepeats, setCvRepeats] = useState(1);
  const [startError, setStartError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  // Forget pools that no longer exist.
  useEffect(() => {
    const have = new Set(pools.map((p) => p.name));
    setTrainPools((cur) => (cur.every((p) => have.has(p)) ? cur : cur.filter((p) => have.has(p))));
    setDevPool((cur) => (cur && !have.has(cur) ? '' : cur));
  }, [pools]);

  const nameError = modelNameError(name);
  const { value: epochsNum, error: epochsError } = readOptionalWholeNumber(epochs, 1, 1000, 'the model’s default');
  const kindSettings = view?.settings?.[kind];
  const { config, error: configError } = parseModelSettings(configText, kindSettings);
  const { value: cvNum, error: cvError } = readOptionalWholeNumber(cvFolds, 2, 100, 'no cross-validation');
  // Without a dev pool or cross-validation, a model trained by epochs (all but tfidf and skipgram) holds out a
  // fifth of its training queries for early stopping (src/main/training/train.ts): the choice "none" says so, and
  // that figures on them are flagged as chosen on them (SelectedOn.by 'holdout', shared/selected-on.ts).
  const holdsOut = kind !== 'tfidf' && kind !== 'skipgram' && cvNum === undefined && trainPools.length > 0;
  const formInvalid = !!(nameError || epochsError || configError || cvError);

  // ------------------------------------------------------------ the training job shown
  const jobId = jobs.latestId('train');
  const job = jobs.get(jobId);
  const trace = job?.train ?? null;
  const done: JobDone | null = job?.done ?? null;
  const mine = jobId ? started.get(jobId) : undefined;
  const running = !!job && !done;
  const [cancelling, setCancelling] = useState<string | null>(null);
  useEffect(() => {
    if (done) refresh();
  }, [done, refresh]);
  // When the training ends, or its pools are being scored, its panel's Cancel goes away: a focus left
  // there (or dropped to the page) comes back to Train, so the keyboard user is not sent to the top of the page.
  const cancellable = running && !trainJobScoring({ progress: job?.progress ?? null, done, trace });
  const trainButton = useRef<HTMLButtonElement>(null);
  const wasCancellable = useRef(cancellable);
  useEffect(() => {
    if (wasCancellable.current && !cancellable) {
      const at = document.activeElement;
      if (!at || at === document.body || !document.contains(at)) trainButton.current?.focus();
    }
    wasCancellable.current = cancellable;
  }, [cancellable]);

  const train = async (): Promise<void> => {
    if (formInvalid) return;
    setStarting(true);
    setStartError(null);
    try {
      const r = await client.invoke('models.train', {
        model: kind,
        name,
        trainPools,
        ...(devPool ? { devPool, keepOverlap } : {}),
        ...(epochsNum !== undefined ? { epochs: epochsNum } : {}),
        ...(config ? { config } : {}),
        ...(cvNum !== undefined ? { cv: cvNum, repeats: cvRepeats } : {}),
        seed,
      });
      started.set(r.jobId, { name, kind, devPool: devPool || null, existedBefore: names.includes(name) });
      // The job's first events may have arrived before its id: make sure the store knows it.
      jobs.track(r.jobId, 'train');
      setNameDraft(null);
    } catch (e) {
      setStartError(errorMessage(e));
    } finally {
      setStarting(false);
    }
  };

  const cancel = (): void => {
    if (!jobId) return;
    setCancelling(jobId);
    client.invoke('job.cancel', { jobId }).catch((e: unknown) => setStartError(errorMessage(e)));
  };

  // ------------------------------------------------------------ per-model actions
  const [scorePool, setScorePool] = useState<Record<string, string>>({});
  const [scoreJobs, setScoreJobs] = useState<Record<string, { jobId: string | null; pool: string; error: string | null }>>({});
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  // Kept: the Delete… button comes back in place of the question, and takes the focus back.
  const [deleteToFocus, setDeleteToFocus] = useState<string | null>(null);
  useEffect(() => {
    if (deleteToFocus === null) return;
    document.querySelector<HTMLButtonElement>(`[data-testid="model-delete-${CSS.escape(deleteToFocus)}"]`)?.focus();
    setDeleteToFocus(null);
  }, [deleteToFocus]);
  // Deleted: its row is gone; the message saying so takes the focus.
  const deleteMessageRef = useRef<HTMLParagraphElement | null>(null);
  const [focusDeleteMessage, setFocusDeleteMessage] = useState(false);
  useEffect(() => {
    if (!focusDeleteMessage) return;
    deleteMessageRef.current?.focus();
    setFocusDeleteMessage(false);
  }, [focusDeleteMessage]);
  const [deleteMessage, setDeleteMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [curvesOf, setCurvesOf] = useState<string | null>(null);

  const score = async (model: string): Promise<void> => {
    const pool = scorePool[model] || shared.pool || pools[0]?.name || '';
    if (!pool) return;
    setScoreJobs((s) => ({ ...s, [model]: { jobId: null, pool, error: null } }));
    try {
      const r = await client.invoke('models.score', { name: model, pool });
      setScoreJobs((s) => ({ ...s, [model]: { jobId: r.jobId, pool, error: null } }));
    } catch (e) {
      setScoreJobs((s) => ({ ...s, [model]: { jobId: null, pool, error: errorMessage(e) } }));
    }
  };

  const remove = async (model: string): Promise<void> => {
    setConfirmDelete(null);
    try {
      const r = await client.invoke('models.delete', { name: model });
      setDeleteMessage(
        r.deleted
          ? { ok: true, text: `Model “${model}” deleted, with the runs it had scored.${r.note ? ` Note: ${r.note}.` : ''}` }
          : { ok: false, text: `There was no model “${model}” to delete.` },
      );
      if (curvesOf === model) setCurvesOf(null);
    } catch (e) {
      setDeleteMessage({ ok: false, text: `“${model}” was not deleted: ${errorMessage(e)}` });
    }
    setFocusDeleteMessage(true);
    refresh();
  };

  const backend = view?.backend ?? null;
  const canTrain = !starting && !running && !formInvalid;

  return (
    <div className="models-screen">
      <section className="card">
        <div className="row wrap">
          <h2 className="grow">Models</h2>
          <div className="backend-badge" data-testid="models-backend" data-backend={backend ?? ''} title={backend ? BACKEND_HELP[backend] : 'loading the model runtime…'}>
            <span className="muted small">tfjs backend</span> <strong>{backend ?? '…'}</strong>
          </div>
        </div>
        <p className="small muted">
          Rerankers trained on this workspace’s labels. Training runs in the engine’s worker thread
          {backend ? (
            <>
              : the neural encoders on the tfjs <strong>{backend}</strong> backend ({BACKEND_HELP[backend] ?? 'tfjs'}), the other models in plain JavaScript (a model’s throughput names
              its backend)
            </>
          ) : null}
          ; afterwards every pool is scored with the model, so it
          appears as a ranker on the Annotate (pools that are not blind) and Evaluate screens.
        </p>
        {viewError && (
          <p className="error" role="alert" data-testid="models-error">
            Could not load the models: {viewError}
          </p>
        )}
      </section>

      <section className="card">
        <h2>Train a model</h2>
        {info?.readonly && <ReadOnlyNote refused="training a model" testId="train-readonly" />}
        {!info?.readonly && (
        <form
          className="form-grid"
          onSubmit={(e) => {
            e.preventDefault();
            if (canTrain) void train();
          }}
        >
          <label>
            Kind
            <ChoiceSelect testId="model-kind" choices={MODEL_KINDS} value={kind} onChange={setKind} title={(k) => MODEL_HELP[k]} />
            <span className="hint" data-testid="model-kind-help">
              {MODEL_HELP[kind]}
            </span>
          </label>
          {/* The field's error or hint describes it (aria-describedby), outside its label: not part of its name. */}
          <div className="field">
            <label>
              Name
              <input
                data-testid="model-name"
                value={name}
                maxLength={120}
                spellCheck={false}
                aria-invalid={nameError ? true : undefined}
                aria-describedby={hintIdOf('model-name')}
                onChange={(e) => setNameDraft(e.target.value)}
              />
            </label>
            <FieldHint testId="model-name" error={nameError} warning={names.includes(name) && <>replaces the existing model “{name}”</>}>
              letters, digits, . _ + - · also the ranker’s name in the pools
            </FieldHint>
          </div>
          <fieldset className="pool-checks">
            <legend>
              Training pools <span className="optional">labeled pairs to learn from</span>
            </legend>
            {pools.length === 0 && <span className="muted small">no pools yet</span>}
            {pools.map((p) => (
              <label key={p.name} className="inline">
                <input
                  type="checkbox"
                  data-testid={`train-pool-${p.name}`}
                  checked={trainPools.includes(p.name)}
                  onChange={(e) => setTrainPools((cur) => (e.target.checked ? [...cur, p.name] : cur.filter((x) => x !== p.name)))}
                />
                {p.name}
              </label>
            ))}
            <span className="hint" data-testid="train-on">
              {trainPools.length
                ? `${trainPools.length} pool${trainPools.length > 1 ? 's' : ''}: their similar labels are the positives`
                : `none: trains on the workspace’s user-marked duplicates${duplicates !== null ? ` (${fmtInt(duplicates)} pairs)` : ''}`}
            </span>
          </fieldset>
          <label>
            Dev pool <span className="optional">optional</span>
            <select data-testid="model-dev-pool" value={devPool} onChange={(e) => setDevPool(e.target.value)}>
              <option value="">{holdsOut ? '(none: hold out a fifth of the training queries)' : '(none: keep the last epoch)'}</option>
              {pools.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
            <span className="hint" data-testid="model-dev-pool-hint">
              {devPool || !holdsOut
                ? 'dev MRR/MAP after every epoch; the best epoch by dev MRR is kept'
                : 'none: a seeded fifth of the training pools’ distinct questions is held out (not trained on) and the best epoch by their MRR is kept (with fewer than 5, the last epoch); figures on those queries, in any pool, are flagged as chosen on them (optimistic, not held out)'}
            </span>
          </label>
          {devPool && (
            <label className="check-field">
              <input type="checkbox" data-testid="model-keep-overlap" checked={keepOverlap} onChange={(e) => setKeepOverlap(e.target.checked)} />
              <span>
                Keep training queries that are dev queries <span className="hint">(off: they are dropped, so the dev figures are held out)</span>
              </span>
            </label>
          )}
          <OptionalWholeNumberField label="Epochs" testId="model-epochs" min={1} max={1000} placeholder="model default" text={epochs} onChange={setEpochs} error={epochsError} hint="empty = the model’s default" />
          <label>
            Seed
            <NumberInput testId="model-seed" value={seed} onChange={setSeed} />
            <span className="hint">the same seed and backend give the same model</span>
          </label>
          <OptionalWholeNumberField
            label="Cross-validation folds"
            testId="model-cv"
            min={2}
            max={100}
            placeholder="none"
            text={cvFolds}
            onChange={setCvFolds}
            error={cvError}
            hint="grouped K-fold CV MAP with its 95% CI (near-duplicates kept in one fold)"
          />
          {cvNum !== undefined && !cvError && (
            <label>
              Repeats
              <NumberInput min={1} max={100} testId="model-cv-repeats" value={cvRepeats} onChange={setCvRepeats} />
              <span className="hint">each with its own random folds</span>
            </label>
          )}
          <ModelSettingsField kind={kind} text={configText} onChange={setConfigText} error={configError} settings={kindSettings} />
          <div className="actions">
            {/* Disabled while the form is invalid; aria-disabled while a training starts or runs, since a
                button that turns disabled under the focus drops it to the page (the submit is ignored then). */}
            <button
              type="submit"
              className="primary"
              data-testid="model-train"
              ref={trainButton}
              disabled={formInvalid}
              aria-disabled={starting || running || undefined}
            >
              {starting ? 'Starting…' : 'Train'}
            </button>
            {running && <span className="hint">a model is training: one at a time</span>}
          </div>
        </form>
        )}
        {startError && (
          <div className="error-box" role="alert" data-testid="train-start-error">
            <strong>Training could not start.</strong>
            <pre>{startError}</pre>
          </div>
        )}
        {job && (
          <TrainPanel
            job={{ progress: job.progress, done, trace }}
            mine={mine}
            cancelling={cancelling === jobId}
            onCancel={cancel}
            modelNames={names}
            listed={view !== null}
          />
        )}
      </section>

      <section className="card">
        <h2>Trained models</h2>
        {deleteMessage && (
          <p ref={deleteMessageRef} tabIndex={-1} className={deleteMessage.ok ? 'ok small' : 'error small'} role="status" data-testid="model-delete-message">
            {deleteMessage.text}
          </p>
        )}
        {view && models.length === 0 ? (
          <p className="muted" data-testid="models-empty">
            No trained models yet.
          </p>
        ) : (
          <div className="table-scroll">
            <FilterBox value={sort.filter} onChange={sort.setFilter} label="Filter models" testId="models-table-filter" shown={sort.rows.length} total={models.length} />
            <table className="data models-table" data-testid="models-table">
              <thead>
                <tr>
                  {sort.header('name', 'Model')}
                  {sort.header('kind', 'Kind')}
                  {sort.header('epoch', 'Best epoch', { className: 'num', title: 'epoch kept (best dev MRR, else the last) / epochs trained' })}
                  {sort.header('mrr', 'Dev MRR', { className: 'num', title: 'mean reciprocal rank on the dev pool, percent' })}
                  {sort.header('map', 'Dev MAP', { className: 'num', title: 'mean average precision on the dev pool, percent' })}
                  <th scope="col">Trained on</th>
                  {sort.header('speed', 'Speed', { className: 'num', title: 'training throughput' })}
                  {sort.header('time', 'Time', { className: 'num', title: 'seconds of training' })}
                  {sort.header('created', 'Created')}
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {sort.rows.map((m) => {
                  const sj = scoreJobs[m.name];
                  const sjState = jobs.get(sj?.jobId ?? null);
                  const pool = scorePool[m.name] || shared.pool || pools[0]?.name || '';
                  return (
                    <ModelRows
                      key={m.name}
                      m={m}
                      pools={pools.map((p) => p.name)}
                      pool={pool}
                      onPool={(p) => setScorePool((s) => ({ ...s, [m.name]: p }))}
                      onScore={() => void score(m.name)}
                      score={sj ? { pool: sj.pool, error: sj.error, started: sj.jobId !== null, done: sjState?.done ?? null } : null}
                      confirming={confirmDelete === m.name}
                      onDelete={() => setConfirmDelete(m.name)}
                      onConfirmDelete={() => void remove(m.name)}
                      onKeep={() => {
                        setConfirmDelete(null);
                        setDeleteToFocus(m.name);
                      }}
                      canDelete={mayCall(shared.role, 'models.delete')}
                      curves={curvesOf === m.name}
                      onCurves={() => setCurvesOf((c) => (c === m.name ? null : m.name))}
                    />
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
