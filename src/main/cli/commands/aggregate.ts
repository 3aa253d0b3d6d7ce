import { AGGREGATION_RULES, meanRuleText, noAnnotatorsNote, UNSURE_UNDER_RULE, type AggregationRule } from '../../../shared/gold';
import { aggregationSummary, loadPoolState, setAggregation } from '../../gold';
import { parse, takePositionals, requireString, table, UsageError } from '../args';
import { unknownChoice } from '../../../shared/suggest';
import { json, numberFlag, withWorkspace, type Out } from './common';

/**
 * `qpairs aggregate W --pool P [--rule adjudicated|majority|mean|unanimous] [--threshold T] [--json]`:
 * sets the pool's aggregation rule (when given) and shows the aggregate (@aggregate) it gives.
 */
export async function cmdAggregate(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, {
    pool: { type: 'string' },
    rule: { type: 'string' },
    threshold: { type: 'string' },
    json: { type: 'boolean' },
  });
  const pool = requireString(values.pool, '--pool P');
  if (values.rule !== undefined && !(AGGREGATION_RULES as readonly string[]).includes(values.rule)) {
    throw new UsageError(unknownChoice('rule', values.rule, AGGREGATION_RULES));
  }
  const threshold = numberFlag(values.threshold, '--threshold');
  if (threshold !== undefined && values.rule !== undefined && values.rule !== 'mean') {
    throw new UsageError(`--threshold applies to --rule mean only (similar when the mean grade is above it), not to --rule ${values.rule}`);
  }
  // Only setting the rule writes: showing the aggregate reads, so it works while serve mode or the
  // desktop app holds the workspace (as eval and agreement do) and on a read-only workspace.
  const sets = values.rule !== undefined || threshold !== undefined;
  takePositionals(positionals, ['W'], 'aggregate');
  return withWorkspace(positionals[0], (ws) => {
    if (sets) {
      setAggregation(ws, pool, (values.rule as AggregationRule | undefined) ?? loadPoolState(ws, pool).rule, threshold);
    }
    // One snapshot: a label serve mode commits meanwhile is wholly in the summary or wholly out of it.
    const s = ws.snapshot(() => aggregationSummary(loadPoolState(ws, pool)));
    if (values.json) out.log(json(s));
    else {
      out.log(`pool ${s.pool}: rule ${s.rule}${s.rule === 'mean' ? ` (${meanRuleText(s.threshold)})` : ''}; annotators ${s.annotators.join(', ') || 'none'}; judges ${s.judges.join(', ') || 'none'}`);
      out.log(
        table(
          ['pairs', 'count'],
          [
            ['in the pool', s.pairs],
            ['with a vote', s.labeled],
            ['resolved', s.resolved],
            // As the datasheet's aggregation table: pairs whose value is a judge's ruling (none under mean and
            // unanimous, which ignore judges), and the disagreements with how many a judge has ruled on.
            ['settled by a judge', s.byStatus.adjudicated],
            ['unresolved', s.unresolved],
            ['disagreements (settled)', `${s.disagreements} (${s.settled})`],
            ['with a "?" vote (settled, unresolved)', `${s.unsure.pairs} (${s.unsure.settled}, ${s.unsure.unresolved})`],
          ],
        ),
      );
      out.log(`"?" under rule ${s.rule}: ${UNSURE_UNDER_RULE[s.rule]}`);
      const note = noAnnotatorsNote(s);
      if (note) out.log(`note: ${note}`);
    }
    return 0;
  }, { ...(sets ? { write: 'aggregate' } : {}), out });
}
