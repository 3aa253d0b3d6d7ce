import { SUBCOMMANDS } from '../usage';
import type { AnnotatorRole } from '../../workspace/workspace';
import { ANNOTATOR_ROLES, addAnnotator } from '../../gold';
import { setRoleWithNotes } from '../../team/role-notes';
import { parse, table, takePositionals, UsageError } from '../args';
import { subcommandError, unknownChoice } from '../../../shared/suggest';
import { json, withWorkspace, type Out } from './common';
import { inviteAnnotator, revokeAnnotator, teamMembers } from '../../team/tokens';
import { shellQuote, WorkspaceLockedError } from '../../workspace/lock';
import { QPairsError } from '../../errors';
import { inviteLink } from '../../../shared/invite-link';

const USAGE = 'usage: qpairs annotators list W [--json] | add W NAME… [--role R] | role W NAME ROLE | invite W NAME [--role R] [--url URL] | revoke W NAME';

/**
 * A workspace a server holds cannot be changed here; inviting or revoking is done there, where it
 * also takes effect at once (issue 23).
 */
async function withTeamWrite<T>(w: string | undefined, what: 'invite' | 'revoke', name: string, fn: Parameters<typeof withWorkspace<T>>[1], out: Out): Promise<T> {
  try {
    return await withWorkspace(w, fn, { write: `annotators ${what}`, out });
  } catch (e) {
    if (e instanceof WorkspaceLockedError && /\bserve\b/.test(e.holder?.command ?? '')) {
      throw new QPairsError(
        `${e.message}\nA server holds this workspace: ${what} ${name} there instead — in the app, Pools → Team access (as an owner), ` +
          `or POST {"command":"annotator.${what}","args":{"name":"${name}"}} to its /api/invoke with an owner's token. ` +
          `It takes effect at once; no restart.`,
        { file: w },
      );
    }
    throw e;
  }
}

function role(v: string | undefined): AnnotatorRole | undefined {
  if (v === undefined) return undefined;
  if (!(ANNOTATOR_ROLES as readonly string[]).includes(v)) throw new UsageError(unknownChoice('role', v, ANNOTATOR_ROLES));
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
    takePositionals(positionals, ['W'], 'annotators list');
    return withWorkspace(positionals[0], (ws) => {
      const counts = new Map(
        (ws.db.prepare(`SELECT annotator_id AS id, count(*) AS n FROM labels GROUP BY annotator_id`).all() as Array<{ id: number; n: number }>).map((r) => [r.id, r.n]),
      );
      const team = new Map(teamMembers(ws).map((m) => [m.name, m]));
      const rows = ws.listAnnotators().map((a) => {
        const m = team.get(a.name);
        const token = m?.invited ? 'live' : m?.revoked ? 'revoked' : 'none';
        return { name: a.name, role: a.role, labelEvents: counts.get(a.id) ?? 0, token, invited: m?.invited ?? null, lastSeen: m?.lastSeen ?? null };
      });
      if (values.json) out.log(json(rows));
      else out.log(table(['annotator', 'role', 'label events', 'token', 'last seen'], rows.map((r) => [r.name, r.role, r.labelEvents, r.token, r.lastSeen ?? ''])));
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
    takePositionals(positionals, ['W', 'NAME', 'ROLE'], 'annotators role');
    const rr = role(r)!;
    return withWorkspace(w, (ws) => {
      const { role: got, notes } = setRoleWithNotes(ws, name, rr);
      if (values.json) out.log(json(notes.length ? { name, role: got, notes } : { name, role: got }));
      else {
        out.log(`annotator ${name}: ${got}`);
        for (const n of notes) out.log(`note: ${n}`);
      }
      return 0;
    }, { write: 'annotators role', out });
  }
  if (sub === 'invite') {
    const { values, positionals } = parse(rest, { role: { type: 'string' }, url: { type: 'string' }, json: { type: 'boolean' } });
    const [w, name] = positionals;
    if (!name || positionals.length > 2) throw new UsageError(USAGE);
    const base = values.url === undefined ? 'http://HOST:5180' : serverBase(values.url);
    return withTeamWrite(w, 'invite', name, (ws) => {
      const inv = inviteAnnotator(ws, name, values.role);
      const link = inviteLink(base, inv.token, inv.role);
      if (values.json) out.log(json({ ...inv, link }));
      else {
        out.log(`${inv.created ? 'added' : 'invited'} ${inv.name} (${inv.role})${inv.revokedEarlier ? `; their earlier token no longer works` : ''}.`);
        out.log(`token (shown this once; only a salted hash is kept): ${inv.token}`);
        out.log(`link: ${link}${values.url ? '' : '   (replace HOST:5180 with the server’s address, or give --url)'}`);
        out.log(`give it to them alone; revoke with \`qpairs annotators revoke ${shellQuote(w!)} ${shellQuote(inv.name)}\` (or the Team panel).`);
      }
      return 0;
    }, out);
  }
  if (sub === 'revoke') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
    const [w, name] = positionals;
    if (!name || positionals.length > 2) throw new UsageError(USAGE);
    return withTeamWrite(w, 'revoke', name, (ws) => {
      const r = revokeAnnotator(ws, name);
      if (values.json) out.log(json(r));
      else out.log(r.revoked ? `revoked ${r.name}'s token: it no longer works (labels and role stay).` : `${r.name} had no live token.`);
      return 0;
    }, out);
  }
  throw new UsageError(sub === undefined ? USAGE : subcommandError('annotators', sub, SUBCOMMANDS.annotators!));
}

/**
 * The server address of `invite --url`, checked before anyone is invited (the token is shown once):
 * `HOST:PORT` alone gets `http://`; an address that is not http(s), or that has a query or a
 * fragment, is a usage error — its link would not open the app. A path stays (a proxy's prefix).
 */
export function serverBase(url: string): string {
  const given = url.trim();
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(given) ? given : `http://${given}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw new UsageError(`--url ${url}: not an address; give the server's, e.g. http://10.0.0.5:5180`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--url ${url}: the server's address is http:// or https://, e.g. http://10.0.0.5:5180`);
  if (u.search || u.hash || u.username || u.password) throw new UsageError(`--url ${url}: give the server's address alone (no ?query, #fragment or user), e.g. http://10.0.0.5:5180`);
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}
