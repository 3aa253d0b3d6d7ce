/**
 * A model chosen on the evaluated queries: its kept epoch (or mnet-fisher's K) is the one that scored
 * best on its dev pool's queries ('dev') or on the training queries its early stopping held out when it
 * had neither a dev pool nor --cv ('holdout': not trained on, so the trained-on mark misses them), or
 * cross-validation set its epoch count on the queries its out-of-fold scores rank ('cv'). Its figures there are optimistic, not held out — a model figure counts only on data disjoint
 * from everything that trained or chose it. `model` is the run's own model, or a feature run's model
 * whose scores the run's fusing model carries.
 */
export interface SelectedOn {
  by: 'dev' | 'holdout' | 'cv';
  model: string;
}

/** "chosen on these queries (its dev pool)" — the words every flag of it uses (CLI, Evaluate, comparison, live panel, datasheet). */
export function describeSelectedOn(run: string, s: SelectedOn): string {
  const whose = s.model === run ? 'its' : `its feature run ${s.model}'s`;
  if (s.by === 'dev') return `chosen on these queries (${whose} dev pool: the version kept scored best here)`;
  if (s.by === 'holdout') return `chosen on these queries (${whose} early stopping held them out of training: the version kept scored best on them)`;
  return `chosen on these queries (${whose} cross-validation set the epoch count on them)`;
}
