/**
 * The Pools screen's team panel for one pool: annotators and their roles (judges), the pool's
 * assignment (full overlap, or k annotators per query with a seed) with each annotator's progress
 * on their assigned queries, and the aggregation rule with the aggregate's summary.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AggregationSummary, AssignmentView, CommandResult } from '../../shared/contract';
import { assignmentPrefill } from '../lib/assignment-prefill';
import { AGGREGATION_RULES, meanRuleText, noAnnotatorsNote, type AggregationRule, type PairStatus } from '../../shared/gold';
import type { SharedState } from '../lib/shared-state';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { errorMessage, fmtInt } from '../lib/format';
import { parseNames } from '../lib/stats';
import { ProgressBar } from '../components/ProgressBar';
import { useTableSort } from '../components/DataTable';
import { useDebounced } from '../lib/hooks';
import { mayCall } from '../lib/roles';
import { PoolSelect } from '../components/PoolSelect';
import { RoleSelect } from '../components/RoleSelect';
import { isReservedRole, PERSON_ROLES } from '../../shared/roles';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { NumberInput } from '../components/NumberInput';

/** The roles a person may be given; gold and system are label sources, not people (shown read-only). */
const ROLES = PERSON_ROLES;
type Role = (typeof ROLES)[number];
const RESERVED_HELP: Record<string, string> = {
  gold: 'imported gold labels, not a person: its role cannot change',
  system: 'a reference system’s labels, not a person: its role cannot change',
};

export const RULE_HELP: Record<AggregationRule, string> = {
  adjudicated: 'the agreed label; where annotators disagree, the judge’s label (open until a judge settles it)',
  majority: 'the agreed label; on disagreement the judge’s label if any, else a strict majority of the votes (ties stay open)',
  mean: meanRuleText(null),
  unanimous: 'only pairs every assigned annotator labeled alike; all others stay open',
};

const STATUS_ORDER: PairStatus[] = ['agreed', 'majority', 'mean', 'adjudicated', 'unresolved', 'unlabeled'];

export function TeamPanel({ shared }: { shared: SharedState }): ReactNode {
  const { client } = useApp();
  const { pools, pool, setPool, role } = shared;
  // Roles, assignments and the aggregation rule are the owner's; the aggregate is read by judges too.
  const canEditRoles = mayCall(role, 'annotator.setRole');
  const canAssignPools = mayCall(role, 'pool.assign');
  const canSetRule = mayCall(role, 'pool.setAggregation');
  const canReadAggregate = mayCall(role, 'pool.aggregation');

  // ------------------------------------------------------------ annotators and roles
  const [people, setPeople] = useState<CommandResult<'annotator.list'>>([]);
  const [newName, setNewName] = useState('');
  const [newRole, setNewRole] = useState<Role>('annotator');
  const [roleError, setRoleError] = useState<string | null>(null);
  // What a role change did to the person's labels and rulings in the pools (annotator.setRole's notes).
  const [roleNote, setRoleNote] = useState<string | null>(null);
  const loadPeople = useCallback(() => {
    client
      .invoke('annotator.list', {})
      .then(setPeople)
      .catch(() => {});
  }, [client]);
  useEffect(loadPeople, [loadPeople]);

  const addPerson = async (): Promise<void> => {
    const name = newName.trim();
    if (!name) return;
    // annotator.add of a name already listed sets its role: a typo'd "Add" would silently demote a judge.
    const known = people.find((p) => p.name === name);
    if (known) {
      setRoleError(`"${name}" is already listed (${known.role}): change the role in their row.`);
      return;
    }
    setRoleError(null);
    try {
      await client.invoke('annotator.add', { name, role: newRole });
      setNewName('');
      loadPeople();
    } catch (e) {
      setRoleError(errorMessage(e));
    }
  };
  const setRole = async (name: string, role: Role): Promise<boolean> => {
    setRoleError(null);
    setRoleNote(null);
    try {
      const r = await client.invoke('annotator.setRole', { name, role });
      setRoleNote(r.notes?.length ? r.notes.join(' ') : null);
      loadPeople();
      return true;
    } catch (e) {
      setRoleError(errorMessage(e));
      return false;
    }
  };

  // ------------------------------------------------------------ assignment
  const [assignment, setAssignment] = useState<AssignmentView | null>(null);
  const [assignmentError, setAssignmentError] = useState<string | null>(null);
  const [names, setNames] = useState('');
  const [namesPool, setNamesPool] = useState<string | null>(null);
  const [mode, setMode] = useState<'full' | 'k'>('full');
  const [k, setK] = useState(2);
  const [seed, setSeed] = useState(1);
  const [assigning, setAssigning] = useState(false);
  const [assignMessage, setAssignMessage] = useState<{ ok: boolean; text: string } | null>(null);

  // ------------------------------------------------------------ aggregation
  const [agg, setAgg] = useState<AggregationSummary | null>(null);
  const [aggError, setAggError] = useState<string | null>(null);
  const [threshold, setThreshold] = useState('0');

  const seq = useRef(0);
  const refresh = useCallback(() => {
    if (!pool) return;
    const my = ++seq.current;
    client
      .invoke('pool.assignment', { pool })
      .then((v) => {
        if (my !== seq.current) return;
        setAssignment(v);
        setAssignmentError(null);
      })
      .catch((e: unknown) => my === seq.current && setAssignmentError(errorMessage(e)));
    if (!canReadAggregate) return;
    client
      .invoke('pool.aggregation', { pool })
      .then((v) => {
        if (my !== seq.current) return;
        setAgg(v);
        setAggError(null);
      })
      .catch((e: unknown) => my === seq.current && setAggError(errorMessage(e)));
  }, [client, pool, canReadAggregate]);
  useEffect(refresh, [refresh]);

  // Prefill the assignment form from the pool's current plan when the pool changes, unless the
  // user has begun typing for this pool before the plan's read came back. Until then the form is
  // an open pool's (no names, everyone on every query): the previous pool's names and overlap are
  // not this pool's, and assigning before the read must not take them.
  const editedPool = useRef<string | null>(null);
  useEffect(() => {
    editedPool.current = null;
    setNamesPool(null);
    setNames('');
    setMode('full');
  }, [pool]);
  const edited =
    <T,>(set: (v: T) => void) =>
    (v: T): void => {
      editedPool.current = pool;
      set(v);
    };
  useEffect(() => {
    const fill = assignmentPrefill(assignment, pool, namesPool, editedPool.current);
    if (!fill) return;
    setNamesPool(pool);
    setNames(fill.names);
    setMode(fill.mode);
    if (fill.k != null) setK(fill.k);
    if (fill.seed != null) setSeed(fill.seed);
  }, [assignment, pool, namesPool]);
  useEffect(() => {
    if (agg && agg.pool === pool) setThreshold(String(agg.threshold));
  }, [agg?.pool, agg?.threshold]); // eslint-disable-line react-hooks/exhaustive-deps

  const refreshSoon = useDebounced(refresh, 250);
  useEvent('label.changed', (rec) => {
    if (rec.pool === pool) refreshSoon();
  });
  useEvent('workspace.changed', () => {
    refresh();
    loadPeople();
  });
  useReconnect(() => {
    refresh();
    loadPeople();
  });

  const knownNames = useMemo(() => people.map((p) => p.name), [people]);
  const chosen = parseNames(names, knownNames);
  const canAssign = !assigning && pool !== '' && chosen.length > 0 && (mode === 'full' || (k >= 1 && k <= chosen.length));
  const assign = async (): Promise<void> => {
    setAssigning(true);
    setAssignMessage(null);
    try {
      const v = await client.invoke('pool.assign', { pool, annotators: chosen, seed, ...(mode === 'k' ? { perQuery: k } : {}) });
      setAssignment(v);
      setAssignMessage({ ok: true, text: `Assigned to ${v.annotators.join(', ')} (${v.mode === 'full' ? 'full overlap' : `${v.perQuery} per query, seed ${v.seed}`}).${v.notes?.length ? ` ${v.notes.join(' ')}` : ''}` });
      loadPeople();
    } catch (e) {
      setAssignMessage({ ok: false, text: errorMessage(e) });
    } finally {
      setAssigning(false);
    }
  };

  /** `withThreshold`: send the threshold field (Apply); a switch to `mean` from another rule lets the engine take the scheme's default. */
  const applyRule = async (rule: AggregationRule, withThreshold: boolean): Promise<void> => {
    setAggError(null);
    const t = Number(threshold);
    try {
      const v = await client.invoke('pool.setAggregation', { pool, rule, ...(withThreshold && rule === 'mean' && threshold.trim() !== '' && Number.isFinite(t) ? { threshold: t } : {}) });
      setAgg(v);
      shared.refreshPools();
    } catch (e) {
      setAggError(errorMessage(e));
    }
  };

  const annotatorNames = people.filter((p) => p.role === 'annotator').map((p) => p.name);
  const addName = (n: string): void => edited(setNames)(parseNames(`${names}, ${n}`, knownNames).join(', '));

  const peopleSort = useTableSort(people, { name: (p) => p.name, role: (p) => p.role }, { rowId: (p) => p.name });
  const progressRows = useMemo(() => assignment?.progress ?? [], [assignment]);
  const progressSort = useTableSort(
    progressRows,
    { annotator: (p) => p.annotator, done: (p) => (p.assignedQueries ? p.doneQueries / p.assignedQueries : null), pairs: (p) => p.labeledPairs },
    { rowId: (p) => p.annotator },
  );

  return (
    <section className="card" data-testid="team-panel">
      <div className="row wrap">
        <h2 className="grow">Team</h2>
        <PoolSelect testId="team-pool" pools={pools} value={pool} onChange={setPool} />
      </div>

      <div className="team-grid">
        <div>
          <h3>Annotators and roles</h3>
          {!canEditRoles && <p className="small muted">Roles are changed by the workspace’s owner.</p>}
          <table className="data compact" data-testid="people-table">
            <thead>
              <tr>
                {peopleSort.header('name', 'Name')}
                {peopleSort.header('role', 'Role')}
              </tr>
            </thead>
            <tbody>
              {people.length === 0 && (
                <tr>
                  <td colSpan={2} className="muted small">
                    nobody yet
                  </td>
                </tr>
              )}
              {peopleSort.rows.map((p) => (
                <tr key={p.name} data-testid={`person-${p.name}`}>
                  <td>{p.name}</td>
                  <td>
                    {p.role === undefined ? (
                      <span className="muted" data-testid={`role-${p.name}`} title="another person’s role is shown to judges and the owner only">
                        —
                      </span>
                    ) : isReservedRole(p.role) || p.name === 'gold' ? (
                      <span className="muted" data-testid={`role-${p.name}`} data-role={p.role} title={RESERVED_HELP[p.role] ?? RESERVED_HELP.gold}>
                        {p.role} <span className="small">(not a person)</span>
                      </span>
                    ) : (
                      <RoleSelect name={p.name} role={p.role} testId={`role-${p.name}`} disabled={!canEditRoles} onSave={(r) => setRole(p.name, r)} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {canEditRoles && (
            <form
              className="row wrap add-person"
              onSubmit={(e) => {
                e.preventDefault();
                void addPerson();
              }}
            >
              <input data-testid="person-name" placeholder="name" value={newName} onChange={(e) => setNewName(e.target.value)} size={12} aria-label="new annotator name" />
              <ChoiceSelect testId="person-role" choices={ROLES} value={newRole} onChange={setNewRole} ariaLabel="new annotator role" />
              <button type="submit" data-testid="person-add" disabled={!newName.trim()}>
                Add
              </button>
            </form>
          )}
          {roleError && (
            <p className="error small" role="alert" data-testid="role-error">
              {roleError}
            </p>
          )}
          {roleNote && (
            <p className="hint small" role="status" data-testid="role-note">
              {roleNote}
            </p>
          )}
          <p className="hint" data-testid="team-judges-hint">
            Judges settle the pool’s disagreements on the Review screen. A judge assigned below also labels this pool as one of its
            annotators (not blind: a judge sees everyone’s labels); to have them only settle, leave them out of the assignment.
          </p>
        </div>

        <div>
          <h3>Assignment</h3>
          {canAssignPools && (
            <form
              className="assign-form"
              // canAssign decides (and says "only N annotators named"): the browser's own check of the
              // per-query field's max refused full overlap for one annotator and focused that field,
              // which switched the overlap to per query.
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                if (canAssign) void assign();
              }}
            >
              <label>
                Annotators <span className="optional">comma-separated; new names are added</span>
                <input data-testid="assign-annotators" value={names} onChange={(e) => edited(setNames)(e.target.value)} placeholder="alice, bob" />
              </label>
              {annotatorNames.length > 0 && (
                <div className="chips small">
                  {annotatorNames.map((n) => (
                    <button type="button" key={n} className="chip" onClick={() => addName(n)} disabled={chosen.includes(n)} data-testid={`assign-chip-${n}`}>
                      + {n}
                    </button>
                  ))}
                </div>
              )}
              <fieldset className="radio-row">
                <legend>Overlap</legend>
                <label className="inline">
                  <input type="radio" name="assign-mode" data-testid="assign-mode-full" checked={mode === 'full'} onChange={() => edited(setMode)('full')} />
                  everyone labels every query
                </label>
                <label className="inline">
                  <input type="radio" name="assign-mode" data-testid="assign-mode-k" checked={mode === 'k'} onChange={() => edited(setMode)('k')} />
                  <NumberInput
                    min={1}
                    max={1000}
                    testId="assign-k"
                    value={k}
                    size={3}
                    onChange={edited(setK)}
                    onFocus={() => edited(setMode)('k')}
                    aria-label="annotators per query"
                    aria-describedby="assign-k-short"
                  />
                  annotators per query
                </label>
              </fieldset>
              <label className="inline">
                Seed
                <NumberInput testId="assign-seed" value={seed} onChange={edited(setSeed)} size={6} />
                <span className="hint">the same seed gives the same assignment</span>
              </label>
              <div className="actions">
                <button type="submit" className="primary" data-testid="assign-submit" disabled={!canAssign}>
                  {assigning ? 'Assigning…' : 'Assign'}
                </button>
                {/* Always in the page, so screen readers hear why Assign is off as the message appears (and the K field names it). */}
                <span className="error small" id="assign-k-short" role="status" data-testid="assign-k-short">
                  {mode === 'k' && chosen.length > 0 && k > chosen.length ? `only ${chosen.length} annotators named` : ''}
                </span>
              </div>
            </form>
          )}
          {assignMessage && (
            <p className={assignMessage.ok ? 'ok small' : 'error small'} role={assignMessage.ok ? 'status' : 'alert'} data-testid="assign-message">
              {assignMessage.text}
            </p>
          )}
          {assignmentError && (
            <p className="error small" role="alert">
              {assignmentError}
            </p>
          )}
          {assignment && assignment.pool === pool && (
            <>
              <p className="small muted" data-testid="assignment-mode" data-mode={assignment.mode}>
                {assignment.mode === 'open'
                  ? 'Not assigned: everyone who labels counts as an annotator of this pool.'
                  : assignment.mode === 'full'
                    ? `Full overlap: ${assignment.annotators.length} annotators label every query.`
                    : `${assignment.perQuery} annotator${assignment.perQuery === 1 ? '' : 's'} per query (seed ${assignment.seed}).`}
                {' '}
                Judges: <span data-testid="assignment-judges">{assignment.judges.length ? assignment.judges.join(', ') : 'none'}</span>
              </p>
              {assignment.progress.length > 0 && (
                <table className="data compact" data-testid="assignment-table">
                  <thead>
                    <tr>
                      {progressSort.header('annotator', 'Annotator')}
                      {progressSort.header('done', 'Assigned queries done')}
                      {progressSort.header('pairs', 'Pairs labeled', { className: 'num' })}
                    </tr>
                  </thead>
                  <tbody>
                    {progressSort.rows.map((p) => (
                      <tr key={p.annotator} data-testid={`assignment-row-${p.annotator}`} data-done={p.doneQueries} data-assigned={p.assignedQueries}>
                        <td>{p.annotator}</td>
                        <td>
                          {p.assignedQueries > 0 ? (
                            <ProgressBar done={p.doneQueries} total={p.assignedQueries} label={`${p.annotator}: assigned queries done`} />
                          ) : (
                            // No bar: an empty total would draw the indeterminate one, which reads as "loading".
                            <span className="small muted" data-testid={`assignment-none-${p.annotator}`}>
                              nothing assigned
                            </span>
                          )}
                        </td>
                        <td className="num">
                          {fmtInt(p.labeledPairs)} / {fmtInt(p.assignedPairs)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </div>

        {canReadAggregate && (
          <div>
            <h3>Aggregation</h3>
            <label className="inline">
              Rule
              <select
                data-testid="aggregation-rule"
                value={agg?.rule ?? 'adjudicated'}
                onChange={(e) => void applyRule(e.target.value as AggregationRule, false)}
                disabled={!agg || !canSetRule}
              >
                {AGGREGATION_RULES.map((r) => (
                  <option key={r} value={r}>
                    {r === 'mean' ? 'mean with threshold' : r}
                  </option>
                ))}
              </select>
            </label>
            {agg?.rule === 'mean' && canSetRule && (
              <form
                className="row"
                onSubmit={(e) => {
                  e.preventDefault();
                  void applyRule('mean', true);
                }}
              >
                <label className="inline">
                  Threshold
                  <input type="number" step="any" data-testid="aggregation-threshold" value={threshold} onChange={(e) => setThreshold(e.target.value)} size={5} />
                </label>
                <button type="submit" data-testid="aggregation-apply">
                  Apply
                </button>
              </form>
            )}
            {agg && <p className="hint">{RULE_HELP[agg.rule]}</p>}
            {aggError && (
              <p className="error small" role="alert" data-testid="aggregation-error">
                {aggError}
              </p>
            )}
            {agg && agg.pool === pool && (
              <div data-testid="aggregation-summary">
                <dl className="mini-stats">
                  <div>
                    <dt>pairs</dt>
                    <dd data-testid="agg-pairs">{fmtInt(agg.pairs)}</dd>
                  </div>
                  <div>
                    <dt>labeled</dt>
                    <dd data-testid="agg-labeled">{fmtInt(agg.labeled)}</dd>
                  </div>
                  <div>
                    <dt>resolved</dt>
                    <dd data-testid="agg-resolved">{fmtInt(agg.resolved)}</dd>
                  </div>
                  <div>
                    <dt>open</dt>
                    <dd data-testid="agg-unresolved">{fmtInt(agg.unresolved)}</dd>
                  </div>
                  <div>
                    <dt>disagreements</dt>
                    <dd data-testid="agg-disagreements">{fmtInt(agg.disagreements)}</dd>
                  </div>
                  <div>
                    <dt>settled</dt>
                    <dd data-testid="agg-settled">{fmtInt(agg.settled)}</dd>
                  </div>
                </dl>
                <p className="small muted">
                  {STATUS_ORDER.filter((s) => agg.byStatus[s]).map((s) => `${s} ${fmtInt(agg.byStatus[s])}`).join(' · ') || 'no pairs'}
                  {Object.keys(agg.distribution).length > 0 && (
                    <>
                      {' '}
                      — values:{' '}
                      {Object.entries(agg.distribution)
                        .map(([v, n]) => `${v} × ${fmtInt(n)}`)
                        .join(', ')}
                    </>
                  )}
                </p>
                {noAnnotatorsNote(agg) && (
                  <p className="hint" data-testid="agg-no-annotators">
                    {noAnnotatorsNote(agg)}
                  </p>
                )}
              </div>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
