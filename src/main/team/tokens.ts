/**
 * People live in the workspace (issue 23): serve-mode tokens are issued by `annotator.invite`
 * (or `qpairs annotators invite`), stored only as salted scrypt hashes (migration 11,
 * `annotator_tokens`), checked in constant time, and revoked by `annotator.revoke` from the next
 * request on. A restart keeps them; no secret is ever written to the workspace, its WAL or a log.
 *
 * A token is `qp_LOOKUP.SECRET`: LOOKUP (12 random base64url characters, 72 bits) finds its row
 * without trying every hash; SECRET (32 characters, 192 bits) is proven by
 * scrypt(SECRET, salt; N = 2¹⁴, r = 8, p = 1, 32 bytes) compared with `timingSafeEqual`. A token
 * once proven is remembered in memory as SHA-256(SECRET) per row, so later requests cost one
 * SQLite lookup (which also sees a revocation) and one constant-time compare, not a scrypt.
 */
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { NotFoundError, QPairsError } from '../errors';
import { addAnnotator, checkAnnotatorName, checkNewPersonName } from '../gold/store';
import type { TeamMemberView } from '../../shared/contract';
import { PERSON_ROLES } from '../../shared/roles';
import type { AnnotatorRole, Workspace } from '../workspace/workspace';

/** Roles a person with a token can have (gold and system are not people): shared/roles.ts's PERSON_ROLES. */
export type PersonRole = (typeof PERSON_ROLES)[number];

const SCRYPT = { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const TOKEN_RE = /^qp_([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{32})$/;
/**
 * After a wrong secret for a token's lookup, that token's scrypt is not run again for this long
 * (ms): a wrong secret is refused without one. Only a token's holder knows its lookup, so this
 * stops them (or their stolen link) from costing the server a 16 MiB, ~60 ms scrypt per request.
 */
export const WRONG_SECRET_PAUSE_MS = 1000;
/** last_seen is written at most this often per token (ms). */
const SEEN_EVERY_MS = 60_000;

/** A fresh invitation: the token is shown here once and never again. */
export interface Invitation {
  name: string;
  role: PersonRole;
  token: string;
  /** Earlier tokens of this person that the invitation revoked (a person has one live token). */
  revokedEarlier: number;
  /** Whether the person was new to the workspace. */
  created: boolean;
}

function hashSecret(secret: string, salt: Buffer): Buffer {
  return scryptSync(secret, salt, 32, SCRYPT);
}

const sha = (s: string): Buffer => createHash('sha256').update(s).digest();
const now = (): string => new Date().toISOString();

function personRole(role: string | undefined): PersonRole {
  if (role === undefined) return 'annotator';
  if (!(PERSON_ROLES as readonly string[]).includes(role)) {
    throw new QPairsError(`a token is for a person: role must be ${PERSON_ROLES.join(', ')} (not "${role}")`);
  }
  return role as PersonRole;
}

/**
 * Invites a person: creates the annotator when new (role `role`, default annotator) or, for an
 * existing one, sets the role given — none given keeps theirs (a new link never demotes a judge) —,
 * revokes any earlier live token of theirs, and issues a fresh token, returned once.
 */
export function inviteAnnotator(ws: Workspace, name: string, role?: string): Invitation {
  const n = checkAnnotatorName(name, ws);
  checkNewPersonName(ws, n);
  const existing = ws.listAnnotators().find((a) => a.name === n);
  const kept = role === undefined && existing && (PERSON_ROLES as readonly string[]).includes(existing.role) ? existing.role : undefined;
  const r = personRole(kept ?? role);
  if (n === 'gold') throw new QPairsError('"gold" is the name imported gold labels go under, not a person; tokens are for people');
  if (existing && (existing.role === 'gold' || existing.role === 'system')) {
    throw new QPairsError(`"${n}" is the workspace's ${existing.role} annotator, not a person; tokens are for people`);
  }
  const lookup = randomBytes(9).toString('base64url');
  const secret = randomBytes(24).toString('base64url');
  const salt = randomBytes(16);
  const hash = hashSecret(secret, salt);
  return ws.transaction(() => {
    addAnnotator(ws, n, r as AnnotatorRole);
    const id = ws.ensureAnnotator(n);
    const at = now();
    const revokedEarlier = ws.stmt(`UPDATE annotator_tokens SET revoked = ? WHERE annotator_id = ? AND revoked IS NULL`).run(at, id).changes;
    ws.stmt(`INSERT INTO annotator_tokens(annotator_id, lookup, salt, hash, created) VALUES (?, ?, ?, ?, ?)`).run(id, lookup, salt, hash, at);
    return { name: n, role: r, token: `qp_${lookup}.${secret}`, revokedEarlier, created: !existing };
  });
}

/** Revokes every live token of a person; returns how many. Their labels and role stay. */
export function revokeAnnotator(ws: Workspace, name: string): { name: string; revoked: number } {
  const n = checkAnnotatorName(name, ws);
  if (!ws.listAnnotators().some((a) => a.name === n)) throw new NotFoundError(`no annotator named "${n}"`);
  const revoked = ws.stmt(`UPDATE annotator_tokens SET revoked = ? WHERE annotator_id = ? AND revoked IS NULL`).run(now(), ws.ensureAnnotator(n)).changes;
  return { name: n, revoked };
}

/** Everyone who is a person (not gold/system), with their token state, for the owner. */
export function teamMembers(ws: Workspace): TeamMemberView[] {
  const rows = ws
    .stmt(
      `SELECT a.name, a.role,
              (SELECT max(created) FROM annotator_tokens t WHERE t.annotator_id = a.id AND t.revoked IS NULL) AS invited,
              (SELECT max(last_seen) FROM annotator_tokens t WHERE t.annotator_id = a.id) AS lastSeen,
              (SELECT max(revoked) FROM annotator_tokens t WHERE t.annotator_id = a.id) AS revoked,
              (SELECT count(*) FROM labels l WHERE l.annotator_id = a.id) AS labelEvents
       FROM annotators a WHERE a.role NOT IN ('gold', 'system') ORDER BY a.name`,
    )
    .all() as Array<{ name: string; role: string; invited: string | null; lastSeen: string | null; revoked: string | null; labelEvents: number }>;
  return rows.map((r) => ({ ...r, revoked: r.invited ? null : r.revoked }));
}

/**
 * The team with the people the server's own tokens sign in (`serverTokenNames`: --tokens-file,
 * --token; in NFC) marked `serverToken`; one the workspace does not know yet is listed as an annotator.
 * Names compare in NFC: a stored "Zoë" is the line's however each is spelled, and is listed once.
 */
export function teamWithServerTokens(ws: Workspace, serverTokenNames: ReadonlySet<string>): TeamMemberView[] {
  const team = teamMembers(ws).map((m) => (serverTokenNames.has(m.name.normalize('NFC')) ? { ...m, serverToken: true as const } : m));
  const known = new Set(ws.listAnnotators().map((a) => a.name.normalize('NFC')));
  for (const name of serverTokenNames) {
    if (!known.has(name)) team.push({ name, role: 'annotator', invited: null, lastSeen: null, revoked: null, labelEvents: 0, serverToken: true });
  }
  return team.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Whether the named person has a live token in the workspace. */
export function hasLiveToken(ws: Workspace, name: string): boolean {
  return !!ws.stmt(`SELECT 1 FROM annotator_tokens t JOIN annotators a ON a.id = t.annotator_id WHERE a.name = ? AND t.revoked IS NULL LIMIT 1`).get(name);
}

/** Whether the workspace holds any live token (serve mode then requires tokens off loopback). */
export function hasLiveTokens(ws: Workspace): boolean {
  return !!ws.stmt(`SELECT 1 FROM annotator_tokens WHERE revoked IS NULL LIMIT 1`).get();
}

/**
 * Checks presented tokens against the workspace, for serve mode: `verify` answers the token's
 * person or null (unknown, malformed, revoked, or a gold/system name). Cheap after the first
 * success per token (see the file comment); a revocation is seen at the very next call.
 */
export class TokenVerifier {
  private readonly proven = new Map<number, Buffer>(); // token row id -> sha256(secret)
  private readonly seenAt = new Map<number, number>();
  /** When a wrong secret was last presented for a token row (see WRONG_SECRET_PAUSE_MS). */
  private readonly wrongAt = new Map<number, number>();
  private readonly revokeListeners = new Set<(name: string) => void>();

  constructor(
    private readonly ws: Workspace,
    private readonly clock: () => number = Date.now,
  ) {}

  verify(presented: string | null | undefined): string | null {
    if (!presented) return null;
    const m = TOKEN_RE.exec(presented);
    if (!m) return null;
    const row = this.ws
      .stmt(`SELECT t.id, t.salt, t.hash, t.revoked, a.name, a.role FROM annotator_tokens t JOIN annotators a ON a.id = t.annotator_id WHERE t.lookup = ?`)
      .get(m[1]!) as { id: number; salt: Buffer; hash: Buffer; revoked: string | null; name: string; role: string } | undefined;
    if (!row || row.revoked !== null || row.role === 'gold' || row.role === 'system') return null;
    const digest = sha(m[2]!);
    const known = this.proven.get(row.id);
    if (!(known && timingSafeEqual(known, digest))) {
      // A wrong secret for this token just now: refuse without another scrypt (a flood of wrong
      // secrets would otherwise hold the server's main thread ~60 ms each).
      if (this.clock() - (this.wrongAt.get(row.id) ?? -Infinity) < WRONG_SECRET_PAUSE_MS) return null;
      if (!timingSafeEqual(hashSecret(m[2]!, row.salt), row.hash)) {
        this.wrongAt.set(row.id, this.clock());
        return null;
      }
      this.wrongAt.delete(row.id);
      this.proven.set(row.id, digest);
    }
    this.touch(row.id);
    return row.name;
  }

  /** Listens for revocations made through this process (serve mode closes the person's sockets). */
  onRevoked(fn: (name: string) => void): () => void {
    this.revokeListeners.add(fn);
    return () => this.revokeListeners.delete(fn);
  }

  /** Tells the listeners that a person's tokens were revoked (the engine calls it after annotator.revoke). */
  revoked(name: string): void {
    for (const fn of this.revokeListeners) fn(name);
  }

  /** Records last_seen, at most once a minute per token; never fails a request (a busy or read-only file skips it). */
  private touch(id: number): void {
    const t = Date.now();
    if (t - (this.seenAt.get(id) ?? 0) < SEEN_EVERY_MS) return;
    this.seenAt.set(id, t);
    if (this.ws.readonly) return;
    try {
      this.ws.stmt(`UPDATE annotator_tokens SET last_seen = ? WHERE id = ?`).run(new Date(t).toISOString(), id);
    } catch {
      /* last_seen is a courtesy */
    }
  }
}
