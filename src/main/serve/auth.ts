/**
 * Serve-mode authentication: per-annotator bearer tokens. Bound to a loopback address the
 * server needs no token (only local processes can reach it); bound to any other address it
 * refuses to start without tokens. A request proves its token with `Authorization: Bearer T`,
 * with the `qpairs_token` cookie (set when the page is first opened with `?token=T`), or — for
 * the first page load and the WebSocket only — with `?token=T`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { QPairsError } from '../errors';

export const TOKEN_COOKIE = 'qpairs_token';

export type TokenMap = Record<string, string>; // annotator -> secret

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

export function generateToken(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * Parses `--token` values: `NAME=SECRET`, or `NAME` alone (a secret is generated).
 * Returns the map and the generated ones (to print).
 */
export function parseTokenSpecs(specs: readonly string[]): { tokens: TokenMap; generated: Array<{ annotator: string; token: string }> } {
  const tokens: TokenMap = {};
  const generated: Array<{ annotator: string; token: string }> = [];
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    // Names are NFC, as everywhere a person's name is taken (Workspace.personName).
    const annotator = (eq < 0 ? spec : spec.slice(0, eq)).trim().normalize('NFC');
    const secret = eq < 0 ? '' : spec.slice(eq + 1);
    // Not the value itself: without a name it may be a secret alone.
    if (!annotator) throw new QPairsError('--token: a value has no name before "=": give NAME=SECRET or NAME');
    if (annotator in tokens) throw new QPairsError(`--token: annotator "${annotator}" given twice`);
    if (eq >= 0 && secret.length < 8) throw new QPairsError(`--token ${annotator}=…: the secret must have at least 8 characters`);
    const token = secret || generateToken();
    if (!secret) generated.push({ annotator, token });
    tokens[annotator] = token;
  }
  const seen = new Set<string>();
  for (const t of Object.values(tokens)) {
    if (seen.has(t)) throw new QPairsError('--token: two annotators share a secret');
    seen.add(t);
  }
  return { tokens, generated };
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Looks a presented token up in constant time per candidate; returns its annotator or null. */
export function annotatorForToken(tokens: TokenMap, presented: string | null | undefined): string | null {
  if (!presented) return null;
  const p = digest(presented);
  let found: string | null = null;
  for (const [annotator, secret] of Object.entries(tokens)) {
    if (timingSafeEqual(p, digest(secret)) && found === null) found = annotator;
  }
  return found;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}

/** The token a request presents (header, then cookie, then `?token=` when allowed). */
export function presentedToken(req: IncomingMessage, url: URL, allowQuery: boolean): string | null {
  const auth = req.headers.authorization;
  if (auth && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim();
  const cookie = parseCookies(req.headers.cookie)[TOKEN_COOKIE];
  if (cookie) return cookie;
  if (allowQuery) return url.searchParams.get('token');
  return null;
}
