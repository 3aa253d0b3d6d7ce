import type { AnnotatorRole } from '../../workspace/workspace';
import { ANNOTATOR_ROLES, addAnnotator, setAnnotatorRole } from '../../gold';
import { parse, table, UsageError } from '../args';
import { json, withWorkspace, type Out } from './common';

const USAGE = 'usage: qpairs annotators list W [--json] | add W NAME… [--role R] | role W NAME ROLE';

function role(v: string | undefined): AnnotatorRole | undefined {
  if (v === undefined) return undefined;
  if (!(ANNOTATOR_ROLES as readonly string[]).includes(v)) throw new UsageError(`unknown role "${v}" (roles: ${ANNOTATOR_ROLES.join(', ')})`);
  return v as AnnotatorRole;
}

/**
 * `qpairs annotators list W [--json]`, `qpairs annotators add W NAME… [--role annotator|judge|owner|gold|system]`,
 * `qpairs annotators role W NAME ROLE` (e.g. mark a judge).
 */
export async function cmdAnnotators(argv: string[], out: Out): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'list') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
    return withWorkspace(positionals[0], (ws) => {
      const counts = new Map(
        (ws.db.prepare(`SELECT annotator_id AS id, count(*) AS n FROM labels GROUP BY annotator_id`).all() as Array<{ id: number; n: number }>).map((r) => [r.id, r.n]),
      );
      const rows = ws.listAnnotators().map((a) => ({ name: a.name, role: a.role, labelEvents: counts.get(a.id) ?? 0 }));
      if (values.json) out.log(json(rows));
      else out.log(table(['annotator', 'role', 'label events'], rows.map((r) => [r.name, r.role, r.labelEvents])));
      return 0;
    }, { out });
  }
  if (sub === 'add') {
    const { values, positionals } = parse(rest, { role: { type: 'string' }, json: { type: 'boolean' } });
    const [w, ...names] = positionals;
    if (names.length === 0) throw new UsageError(USAGE);
    const r = role(values.role);
    return withWorkspace(w, (ws) => {
      const done = ws.transaction(() => names.map((n) => ({ name: n, role: addAnnotator(ws, n, r) })));
      if (values.json) out.log(json(done));
      else for (const d of done) out.log(`annotator ${d.name}: ${d.role}`);
      return 0;
    }, { write: 'annotators add', out });
  }
  if (sub === 'role') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
    const [w, name, r] = positionals;
    if (!name || !r) throw new UsageError(USAGE);
    const rr = role(r)!;
    return withWorkspace(w, (ws) => {
      const got = setAnnotatorRole(ws, name, rr);
      if (values.json) out.log(json({ name, role: got }));
      else out.log(`annotator ${name}: ${got}`);
      return 0;
    }, { write: 'annotators role', out });
  }
  throw new UsageError(USAGE);
}
