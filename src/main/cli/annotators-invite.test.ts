/**
 * Issue 23: `qpairs annotators invite|revoke|list` — the token is printed once and stored only as
 * a hash; revoke ends it; while a server holds the workspace the CLI says how to do it there.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { acquireWorkspaceLock } from '../workspace/lock';
import { TokenVerifier } from '../team/tokens';
import { runCli } from './test-cli';

let dir: string;
let w: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-team-'));
  w = path.join(dir, 'w.qpairs');
  Workspace.create(w).close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('qpairs annotators invite / revoke', () => {
  it('--url without http:// gets it; one whose link would not open the app is refused before anyone is invited', async () => {
    const bare = await runCli('annotators', 'invite', w, 'alice', '--url', '10.0.0.5:5180', '--json');
    expect(bare.code, bare.err).toBe(0);
    const inv = JSON.parse(bare.out) as { token: string; link: string };
    expect(inv.link).toBe(`http://10.0.0.5:5180/?token=${encodeURIComponent(inv.token)}#annotate`);
    // Behind a TLS proxy with a prefix: kept.
    const proxied = JSON.parse((await runCli('annotators', 'invite', w, 'bob', '--url', 'https://labs.example.org/qpairs/', '--json')).out) as { token: string; link: string };
    expect(proxied.link).toBe(`https://labs.example.org/qpairs/?token=${encodeURIComponent(proxied.token)}#annotate`);
    // A judge's link opens Review, an owner's Annotate.
    const judge = JSON.parse((await runCli('annotators', 'invite', w, 'judy', '--role', 'judge', '--url', '10.0.0.5:5180', '--json')).out) as { token: string; link: string };
    expect(judge.link).toBe(`http://10.0.0.5:5180/?token=${encodeURIComponent(judge.token)}#review`);
    const owner = JSON.parse((await runCli('annotators', 'invite', w, 'olga', '--role', 'owner', '--url', '10.0.0.5:5180', '--json')).out) as { token: string; link: string };
    expect(owner.link).toBe(`http://10.0.0.5:5180/?token=${encodeURIComponent(owner.token)}#annotate`);
    for (const [url, why] of [
      ['ftp://10.0.0.5', /the server's address is http:\/\/ or https:\/\//],
      ['http://10.0.0.5:5180/?token=old', /no \?query, #fragment or user/],
      ['http://exa mple:5180', /not an address/],
    ] as const) {
      const r = await runCli('annotators', 'invite', w, 'carol', '--url', url);
      expect(r.code, url).toBe(2);
      expect(r.err).toMatch(why);
    }
    const ws = Workspace.open(w);
    expect(ws.listAnnotators().map((a) => a.name)).not.toContain('carol');
    ws.close();
  });

  it('invite prints the token and link once; the workspace keeps only a hash; revoke ends it; list shows the state', async () => {
    const r = await runCli('annotators', 'invite', w, 'alice', '--url', 'http://10.0.0.5:5180/', '--json');
    expect(r.code).toBe(0);
    const inv = JSON.parse(r.out) as { name: string; role: string; token: string; link: string };
    expect(inv).toMatchObject({ name: 'alice', role: 'annotator' });
    expect(inv.link).toBe(`http://10.0.0.5:5180/?token=${encodeURIComponent(inv.token)}#annotate`);
    expect(readFileSync(w).includes(Buffer.from(inv.token.split('.')[1]!))).toBe(false);
    const ws = Workspace.open(w);
    expect(new TokenVerifier(ws).verify(inv.token)).toBe('alice');
    ws.close();

    const list = await runCli('annotators', 'list', w);
    expect(list.out).toMatch(/alice\s+annotator\s+0\s+live/);
    expect(list.out).not.toContain(inv.token.split('.')[1]!);

    const rv = await runCli('annotators', 'revoke', w, 'alice');
    expect(rv).toMatchObject({ code: 0, out: "revoked alice's token: it no longer works (labels and role stay).\n" });
    const ws2 = Workspace.open(w);
    expect(new TokenVerifier(ws2).verify(inv.token)).toBeNull();
    ws2.close();
    expect((await runCli('annotators', 'list', w)).out).toMatch(/alice\s+annotator\s+0\s+revoked/);
    // The text answer names the command that revokes this very token, ready to paste.
    const text = await runCli('annotators', 'invite', w, 'Ann Lee');
    expect(text.out).toContain(`revoke with \`qpairs annotators revoke ${w} 'Ann Lee'\``);
    expect((await runCli('annotators', 'invite', w, 'gold')).code).toBe(1);
    expect((await runCli('annotators', 'invite', w, 'bob', '--role', 'system')).err).toMatch(/role must be annotator, judge, owner/);
  });

  it('while a server holds the workspace, invite and revoke say how to do it there', async () => {
    const lock = acquireWorkspaceLock(w, { command: `qpairs serve ${w} --host 0.0.0.0` });
    try {
      const r = await runCli('annotators', 'invite', w, 'carol');
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/A server holds this workspace: invite carol there instead — in the app, Pools → Team access \(as an owner\), or POST \{"command":"annotator\.invite","args":\{"name":"carol"\}\}/);
      expect((await runCli('annotators', 'revoke', w, 'carol')).err).toMatch(/revoke carol there instead/);
    } finally {
      lock.release();
    }
  });
});
