import { setLabel } from '../../engine/annotate';
import { checkAnnotatorName } from '../../gold';
import { addedPersonNote, knownPeople } from '../../team/new-person';
import { parse, takePositionals, requireString, UsageError } from '../args';
import { json, withWorkspace, type Out } from './common';

/**
 * `qpairs label W --pool P --annotator A --query Q --candidate C (--value V | --clear) [--json]`:
 * sets one label through the same durable path as the app (validated by the pool's scheme,
 * appended to the label history, committed before the command returns). A judge settles a
 * disagreement this way — only a pair in dispute, with one of the pool's labels, never "?"
 * (gold/review.ts checkRuling, as review.settle).
 */
export async function cmdLabel(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, {
    pool: { type: 'string' },
    annotator: { type: 'string' },
    query: { type: 'string' },
    candidate: { type: 'string' },
    value: { type: 'string' },
    clear: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const pool = requireString(values.pool, '--pool P');
  const annotator = checkAnnotatorName(requireString(values.annotator, '--annotator A'));
  const queryId = requireString(values.query, '--query Q');
  const candidateId = requireString(values.candidate, '--candidate C');
  if ((values.value !== undefined) === (values.clear === true)) throw new UsageError('give either --value V or --clear');
  takePositionals(positionals, ['W'], 'label');
  return withWorkspace(positionals[0], (ws) => {
    const known = knownPeople(ws);
    const ack = setLabel(ws, { pool, queryId, candidateId, annotator, value: values.clear ? null : values.value! });
    const note = addedPersonNote(ws, annotator, known, (meant) => `then clear this label with --clear and give it with --annotator ${meant}`);
    // A --clear with no label to clear said "already has that label", as though a label were there.
    const unchanged = values.clear ? `unchanged: ${annotator} has no label for ${queryId} → ${candidateId} to clear` : `unchanged: ${annotator} already has that label for ${queryId} → ${candidateId}`;
    if (values.json) out.log(json(ack));
    else out.log(ack.seq === null ? unchanged : `label ${ack.seq}: ${annotator} ${queryId} → ${candidateId} = ${ack.record?.value ?? '(cleared)'}`);
    // On standard error with --json: the answer stays the app's label.set acknowledgement.
    if (note && values.json) out.err(`note: ${note}.`);
    else if (note) out.log(`note: ${note}.`);
    return 0;
  }, { write: 'label', out });
}
