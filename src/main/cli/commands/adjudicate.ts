import { judgesByVotesOn, loadPoolState, pairFigures, pairNotes, reviewQueue } from '../../gold';
import { parse, takePositionals, requireString, table } from '../args';
import { json, positiveInt, withWorkspace, type Out } from './common';
import { counted } from '../../../shared/plural';

/**
 * `qpairs adjudicate W --pool P [--judge J] [--all] [--limit N] [--json]`: the review queue —
 * disagreements not yet settled by a judge (all of them with --all), highest impact first. A
 * judge settles one with `qpairs label W --pool P --annotator J --query Q --candidate C --value V`
 * (or in the app's review screen).
 */
export async function cmdAdjudicate(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, {
    pool: { type: 'string' },
    judge: { type: 'string' },
    all: { type: 'boolean' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  });
  const pool = requireString(values.pool, '--pool P');
  const limit = positiveInt(values.limit, '--limit');
  takePositionals(positionals, ['W'], 'adjudicate');
  return withWorkspace(positionals[0], (ws) => {
    // One snapshot: a label serve mode commits meanwhile is wholly in the queue or wholly out of it.
    const { q, figures, judges } = ws.snapshot(() => {
      const s = loadPoolState(ws, pool);
      const q = reviewQueue(ws, pool, values.judge ?? null, { includeSettled: values.all ?? false, limit }, s);
      // The app's queue leaves each pair's positions, |ΔAP| per run and rule value to review.pair; the CLI's JSON has them per item.
      // The hint names first the judge who voted on the fewest of the pairs listed still to settle (who voted on a pair may not rule on it).
      const judges = judgesByVotesOn(ws, s, q.items.filter((i) => !i.settled));
      return { q, figures: values.json ? q.items.map((i) => pairFigures(ws, s, i.queryId, i.candidateId)) : [], judges };
    });
    if (values.json) {
      // The app's queue carries titles cut short and which votes have a note; the CLI's JSON gives whole titles and the notes.
      const titles = ws.getQuestionTitles([...new Set(q.items.flatMap((i) => [i.queryId, i.candidateId]))], Number.MAX_SAFE_INTEGER);
      const noteAt = pairNotes(ws, q.pool);
      const items = q.items.map((i, k) => ({
        ...i,
        ...figures[k],
        queryTitle: titles.get(i.queryId) ?? null,
        candidateTitle: titles.get(i.candidateId) ?? null,
        labels: i.labels.map(({ noted, ...l }) => (noted ? { ...l, note: noteAt(i.queryId, i.candidateId, l.annotator) } : l)),
      }));
      // The label version and the pool's query order serve the app's refresh, not a script.
      const { version: _version, queryOrder: _order, ...rest } = q;
      out.log(json({ ...rest, items }));
      return 0;
    }
    const unsure = q.unsure > 0 ? ` (${counted(q.disagreements, 'disagreement')}, ${q.unsure} with a "?")` : '';
    out.log(`pool ${q.pool}: ${q.unsure > 0 ? counted(q.total, 'pair to review', 'pairs to review') : counted(q.total, 'disagreement')}${unsure}, ${q.settled} settled, ${q.remaining} to settle (rule ${q.rule})`);
    if (q.note) out.log(q.note);
    if (q.items.length) {
      out.log(
        table(
          ['query', 'candidate', 'labels', 'impact', 'settled'],
          q.items.map((i) => [i.queryId, i.candidateId, i.labels.map((l) => `${l.annotator}=${l.value}`).join(' '), i.impact.toFixed(5), i.settled ? `${i.settled.judge}=${i.settled.value}` : i.outdatedRuling ? `outdated: ${i.outdatedRuling.judge}=${i.outdatedRuling.value}` : '']),
        ),
      );
      if (q.items.some((i) => !i.settled && i.outdatedRuling)) {
        out.log('outdated: a ruling given before a vote on the pair changed or arrived; it does not count until a judge rules again (the same value too)');
      }
    }
    if (q.remaining > 0) out.log(settleHint(positionals[0]!, q.pool, values.judge ?? judges[0], judges.length > 0));
    return 0;
  }, { out });
}

/**
 * How to settle from the command line: the list of disagreements said nothing of it, and a pool with
 * no judge (rule adjudicated) kept its disagreements unresolved — out of the gold and of eval — with no
 * word of what to do.
 */
function settleHint(w: string, pool: string, judge: string | undefined, hasJudge: boolean): string {
  const label = `qpairs label ${w} --pool ${pool} --annotator ${judge ?? 'JUDGE'} --query Q --candidate C --value V`;
  return hasJudge || judge !== undefined
    ? `to settle one, the judge labels it: ${label} (or Review in the app)`
    : `no judge can settle these: make someone one (qpairs annotators role ${w} NAME judge, or qpairs annotators add ${w} NAME --role judge), then: ${label}`;
}
