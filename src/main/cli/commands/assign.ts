import { assignPool, assignmentView } from '../../gold';
import { parse, takePositionals, requireString, table, UsageError } from '../args';
import { intFlag, json, list, positiveInt, withWorkspace, type Out } from './common';
import { assignmentNotes, poolVoters } from '../../team/assign-notes';
import { knownPeople } from '../../team/new-person';

/**
 * `qpairs assign W --pool P --annotators A,B[,C] [--per-query K --seed S] [--json]`: assigns the
 * pool to annotators, with full overlap or K annotators per query (seeded, balanced). Replaces an
 * earlier assignment; labels are kept. K per query needs the seed spelled out, as `pool create
 * --sample` does: an assignment is part of the data set's record and must be reproducible.
 */
export async function cmdAssign(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, {
    pool: { type: 'string' },
    annotators: { type: 'string' },
    'per-query': { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
  });
  const pool = requireString(values.pool, '--pool P');
  const annotators = list(requireString(values.annotators, '--annotators A,B'))!;
  const perQuery = positiveInt(values['per-query'], '--per-query');
  const seed = intFlag(values.seed, '--seed');
  if (seed !== undefined && perQuery === undefined) throw new UsageError('--seed goes with --per-query K');
  if (perQuery !== undefined && seed === undefined) throw new UsageError('--per-query needs --seed S (so the assignment can be reproduced)');
  takePositionals(positionals, ['W'], 'assign');
  return withWorkspace(positionals[0], (ws) => {
    const known = knownPeople(ws);
    const voters = poolVoters(ws, pool);
    assignPool(ws, pool, annotators, perQuery ?? null, seed ?? 1);
    const notes = assignmentNotes(ws, annotators, known, voters);
    const v = notes.length ? { ...assignmentView(ws, pool), notes } : assignmentView(ws, pool);
    if (values.json) out.log(json(v));
    else {
      out.log(
        v.mode === 'full'
          ? `pool ${pool} assigned to ${v.annotators.join(', ')} (full overlap)`
          : `pool ${pool} assigned to ${v.annotators.join(', ')}, ${v.perQuery} per query (seed ${v.seed})`,
      );
      out.log(table(['annotator', 'queries', 'pairs', 'labeled', 'done queries'], v.progress.map((p) => [p.annotator, p.assignedQueries, p.assignedPairs, p.labeledPairs, p.doneQueries])));
      for (const n of notes) out.log(`note: ${n}`);
    }
    return 0;
  }, { write: 'assign', out });
}
