/**
 * Team access lists the people the server's own tokens sign in (--tokens-file, --token), marked so,
 * beside the workspace's people: before, a tokens-file person who signed in and labeled was missing
 * from the list, or shown as "no link".
 */
import { describe, expect, it } from 'vitest';
import type { TeamMemberView } from '../../shared/contract';
import type { Engine } from './engine';
import { useTeamEngine } from './test-team';

let engine: Engine;
useTeamEngine('qpairs-team-tokens-', (e) => (engine = e));

it("annotator.team marks the people the server's tokens sign in, and lists those the workspace does not know yet", async () => {
  const before = (await engine.invoke('annotator.team', {})) as TeamMemberView[];
  expect(before.map((m) => m.name)).toEqual(['alice', 'bob', 'carol', 'dave']);
  expect(before.some((m) => m.serverToken)).toBe(false);
  engine.setServerTokenNames(['fred', 'bob']);
  const team = (await engine.invoke('annotator.team', {})) as TeamMemberView[];
  expect(team.map((m) => m.name)).toEqual(['alice', 'bob', 'carol', 'dave', 'fred']);
  expect(team.find((m) => m.name === 'bob')).toMatchObject({ role: 'annotator', serverToken: true });
  expect(team.find((m) => m.name === 'fred')).toEqual({ name: 'fred', role: 'annotator', invited: null, lastSeen: null, revoked: null, labelEvents: 0, serverToken: true });
  expect(team.find((m) => m.name === 'alice')?.serverToken).toBeUndefined();
  // The file changed (fred's line deleted): he is gone from the list.
  engine.setServerTokenNames(['bob']);
  expect(((await engine.invoke('annotator.team', {})) as TeamMemberView[]).map((m) => m.name)).toEqual(['alice', 'bob', 'carol', 'dave']);
});

it("a role chosen for a tokens-file person the workspace does not know yet is kept, and applies at their next request (before: 'no annotator named …')", async () => {
  engine.setServerTokenNames(['fred']);
  const asFred = { annotator: 'fred', local: false };
  await expect(engine.invoke('annotator.team', {}, asFred)).rejects.toThrow(/is for the owner/);
  // Gold and system are not people's roles, whoever asks; and the file's people only (zed has no token).
  await expect(engine.invoke('annotator.setRole', { name: 'fred', role: 'system' })).rejects.toThrow(/reserved/);
  await expect(engine.invoke('annotator.setRole', { name: 'zed', role: 'judge' })).rejects.toThrow(/no annotator named "zed"/);
  expect(((await engine.invoke('annotator.team', {})) as TeamMemberView[]).find((m) => m.name === 'fred')?.role).toBe('annotator');

  expect(await engine.invoke('annotator.setRole', { name: 'fred', role: 'owner' })).toEqual({ name: 'fred', role: 'owner' });
  const team = (await engine.invoke('annotator.team', {}, asFred)) as TeamMemberView[];
  expect(team.find((m) => m.name === 'fred')).toMatchObject({ role: 'owner', invited: null, serverToken: true });
  expect(team.some((m) => m.name === 'zed')).toBe(false);
});

it('a server token named "gold", or of a system annotator, is no one: it labels nothing and gets no events (before: its labels became the pool\'s gold)', async () => {
  engine.setServerTokenNames(['gold', 'refsys']);
  engine.ws.ensureAnnotator('refsys', 'system');
  const label = (annotator: string) => ({ pool: 'open', queryId: 'q2', candidateId: 'c3', annotator, value: '2' });
  for (const name of ['gold', 'refsys']) {
    const as = { annotator: name, local: false };
    await expect(engine.invoke('label.set', label(name), as)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringMatching(/not a person; tokens are for people/) });
    await expect(engine.invoke('app.info', {}, as)).rejects.toMatchObject({ code: 'forbidden' });
    expect(engine.canSee(as, 'workspace.changed', { what: 'pool' })).toBe(false);
  }
  expect(engine.ws.stmt(`SELECT count(*) FROM labels WHERE value = '2'`).pluck().get()).toBe(0);
  // A person signed in with a server token still labels.
  engine.setServerTokenNames(['fred']);
  await expect(engine.invoke('label.set', label('fred'), { annotator: 'fred', local: false })).resolves.toMatchObject({ saved: true });
});

describe('a server token’s name and the stored person compare in NFC, however each is spelled', () => {
  const NFC = 'Zo\u00eb';
  const NFD = 'Zoe\u0308';
  for (const [stored, file] of [
    [NFC, NFD],
    [NFD, NFC],
  ] as const) {
    it(`stored ${stored === NFC ? 'NFC' : 'NFD'}, tokens-file line ${file === NFC ? 'NFC' : 'NFD'}: revoke says where the token is, Team access lists one person`, async () => {
      if (stored === NFD) engine.ws.stmt(`INSERT INTO annotators(name, role, created) VALUES (?, 'annotator', ?)`).run(NFD, new Date().toISOString());
      else await engine.invoke('annotator.invite', { name: stored });
      engine.setServerTokenNames([file]);
      expect(engine.signsInWithServerToken(stored)).toBe(true);
      for (const name of [NFC, NFD]) await expect(engine.invoke('annotator.revoke', { name })).rejects.toThrow(/signs in with a token the server was started with/);
      const zoes = ((await engine.invoke('annotator.team', {})) as TeamMemberView[]).filter((m) => m.name.normalize('NFC') === NFC);
      expect(zoes).toEqual([expect.objectContaining({ name: stored, serverToken: true })]);
    });
  }
});
