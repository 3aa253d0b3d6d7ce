/** Issue 23: tokens stored as salted scrypt hashes, checked in constant time, revocable, kept across reopen. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scryptSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Every scrypt the code under test runs goes through this spy (it calls the real one). */
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  const scryptSync = vi.fn(real.scryptSync);
  return { ...real, scryptSync, default: { ...real, scryptSync } };
});
const scrypts = vi.mocked(scryptSync);
import { Workspace } from '../workspace/workspace';
import { hasLiveTokens, inviteAnnotator, revokeAnnotator, teamMembers, TokenVerifier } from './tokens';

let dir: string;
let ws: Workspace;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-tokens-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
});
afterEach(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tokens', () => {
  it('stores lookup, salt and scrypt(secret) only; the secret proves itself, nothing else does', () => {
    const inv = inviteAnnotator(ws, 'alice');
    const [, lookup, secret] = /^qp_(.{12})\.(.{32})$/.exec(inv.token)!;
    const row = ws.db.prepare(`SELECT * FROM annotator_tokens`).get() as { lookup: string; salt: Buffer; hash: Buffer };
    expect(row.lookup).toBe(lookup);
    expect(row.salt).toHaveLength(16);
    expect(row.hash.equals(scryptSync(secret!, row.salt, 32, { N: 1 << 14, r: 8, p: 1 }))).toBe(true);
    expect(JSON.stringify(ws.db.prepare(`SELECT lookup, hex(salt), hex(hash), created FROM annotator_tokens`).all())).not.toContain(secret);
    const v = new TokenVerifier(ws);
    expect(v.verify(inv.token)).toBe('alice');
    expect(v.verify(inv.token)).toBe('alice'); // cached: no second scrypt
    const wrong = `qp_${lookup}.${secret!.slice(0, -1)}${secret!.endsWith('A') ? 'B' : 'A'}`;
    expect(v.verify(wrong)).toBeNull();
    for (const bad of [null, '', 'alice', inv.token + 'x', `qp_${'A'.repeat(12)}.${secret}`, inv.token.replace('qp_', '')]) expect(v.verify(bad)).toBeNull();
  });

  it('revoke takes effect at the next verify; a new invitation revokes the old token; reopen keeps live ones', () => {
    const v = new TokenVerifier(ws);
    const a1 = inviteAnnotator(ws, 'alice', 'judge');
    expect(v.verify(a1.token)).toBe('alice');
    const a2 = inviteAnnotator(ws, 'alice', 'judge');
    expect(a2.revokedEarlier).toBe(1);
    expect(v.verify(a1.token)).toBeNull();
    expect(v.verify(a2.token)).toBe('alice');
    expect(hasLiveTokens(ws)).toBe(true);
    const file = ws.path;
    ws.close();
    ws = Workspace.open(file);
    expect(new TokenVerifier(ws).verify(a2.token)).toBe('alice');
    const heard: string[] = [];
    const v2 = new TokenVerifier(ws);
    v2.onRevoked((n) => heard.push(n));
    expect(revokeAnnotator(ws, 'alice')).toEqual({ name: 'alice', revoked: 1 });
    v2.revoked('alice');
    expect(heard).toEqual(['alice']);
    expect(v2.verify(a2.token)).toBeNull();
    expect(hasLiveTokens(ws)).toBe(false);
    expect(teamMembers(ws)).toEqual([expect.objectContaining({ name: 'alice', role: 'judge', invited: null, revoked: expect.any(String) })]);
  });

  it("a new link without a role keeps the person's role (a judge stays a judge); a role given sets it; a new person is an annotator", () => {
    expect(inviteAnnotator(ws, 'judy', 'judge').role).toBe('judge');
    const again = inviteAnnotator(ws, 'judy');
    expect(again).toMatchObject({ role: 'judge', created: false, revokedEarlier: 1 });
    expect(teamMembers(ws).find((m) => m.name === 'judy')?.role).toBe('judge');
    expect(inviteAnnotator(ws, 'judy', 'annotator').role).toBe('annotator');
    expect(inviteAnnotator(ws, 'newcomer').role).toBe('annotator');
  });

  it('gold and system annotators are not people; a person later made gold is refused', () => {
    ws.ensureAnnotator('gold');
    expect(() => inviteAnnotator(ws, 'gold')).toThrow(/not a person/);
    ws.ensureAnnotator('bot', 'system');
    expect(() => inviteAnnotator(ws, 'bot')).toThrow(/not a person/);
    expect(() => inviteAnnotator(ws, 'eve', 'system')).toThrow(/role must be annotator, judge, owner/);
    const inv = inviteAnnotator(ws, 'eve');
    ws.setAnnotatorRole('eve', 'system');
    expect(new TokenVerifier(ws).verify(inv.token)).toBeNull();
  });

  it('a wrong secret pauses that token’s scrypt for a second: a flood of wrong secrets costs no scrypt each', () => {
    const inv = inviteAnnotator(ws, 'alice');
    let t = 1_000_000;
    const v = new TokenVerifier(ws, () => t);
    const [, lookup, secret] = /^qp_(.{12})\.(.{32})$/.exec(inv.token)!;
    const wrong = (i: number): string => `qp_${lookup}.${String(i).padStart(32, 'x')}`;
    scrypts.mockClear();
    expect(v.verify(wrong(0))).toBeNull();
    expect(scrypts).toHaveBeenCalledTimes(1); // the first wrong secret is proven wrong by one scrypt
    // Within the pause no scrypt runs: 50 more wrong secrets (the clock still inside the pause) cost none.
    t += 999;
    for (let i = 1; i <= 50; i++) expect(v.verify(wrong(i))).toBeNull();
    expect(scrypts).toHaveBeenCalledTimes(1);
    // …and so the right, not yet proven secret is refused too until the pause is over (only the token's holder knows its lookup).
    expect(v.verify(inv.token)).toBeNull();
    expect(scrypts).toHaveBeenCalledTimes(1);
    t += 1;
    expect(v.verify(inv.token)).toBe('alice');
    expect(scrypts).toHaveBeenCalledTimes(2); // the pause is over: one scrypt proves it
    // Once proven, a token is not paused by wrong secrets (no scrypt for it): the wrong one costs its one scrypt, the proven one none.
    expect(v.verify(wrong(999))).toBeNull();
    expect(scrypts).toHaveBeenCalledTimes(3);
    expect(v.verify(inv.token)).toBe('alice');
    expect(scrypts).toHaveBeenCalledTimes(3);
    expect(secret).toHaveLength(32);
  });

  it('last_seen is written on use, at most once a minute', () => {
    const inv = inviteAnnotator(ws, 'alice');
    const v = new TokenVerifier(ws);
    v.verify(inv.token);
    const first = ws.db.prepare(`SELECT last_seen FROM annotator_tokens`).pluck().get() as string;
    expect(first).toMatch(/^\d{4}-/);
    v.verify(inv.token);
    expect(ws.db.prepare(`SELECT last_seen FROM annotator_tokens`).pluck().get()).toBe(first);
  });
});
