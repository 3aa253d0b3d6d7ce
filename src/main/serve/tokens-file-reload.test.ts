/**
 * `qpairs serve W --tokens-file F` in a real process: the file is read again when it changes, so
 * removing a person's line revokes them at once — their next request is 401 and their open event
 * socket is closed — and a new line lets someone in, without a restart. Before, the file was read
 * once at start and a removed line kept working until the server was restarted. Also: revoking such
 * a person in the app says where their token is, and a closed terminal (SIGHUP) stops the server cleanly.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { runCli } from '../cli/test-cli';
import { until } from './test-serve';
import { useServeProcess } from './test-serve-process';

const served = useServeProcess('qpairs-tokens-file-');
const ALICE = 'alice-secret-0001';
const BOB = 'bob-secret-00002';
const CAROL = 'carol-secret-003';

/** Starts `qpairs serve W --tokens-file F` on a free loopback port; resolves with its URL, a reader of its log and the process. */
const serve = (tokensFile: string) => served.start(['--tokens-file', tokensFile]);

async function statusAs(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/api/health`, { headers: { Authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

it('a removed line revokes its person at once (401, socket closed); an added line lets a person in; no restart', async () => {
  const file = path.join(served.dir(), 'tokens.txt');
  writeFileSync(file, `# the team\nalice=${ALICE}\nbob=${BOB}\n`);
  const { url, log } = await serve(file);
  expect(await statusAs(url, ALICE)).toBe(200);
  expect(await statusAs(url, BOB)).toBe(200);
  expect(await statusAs(url, CAROL)).toBe(401);

  const ws = new WebSocket(`${url.replace('http', 'ws')}/api/events?token=${BOB}`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));

  // An editor's save: a new file renamed over the old one; bob's line is gone, carol's is new.
  writeFileSync(`${file}.tmp`, `alice=${ALICE}\ncarol=${CAROL}\n`);
  renameSync(`${file}.tmp`, file);
  await until('bob to be refused', async () => (await statusAs(url, BOB)) === 401);
  expect(await closed).toBe(4401);
  expect(await statusAs(url, ALICE)).toBe(200);
  expect(await statusAs(url, CAROL)).toBe(200);
  await until('the log line', () => /revoked bob/.test(log()));
  expect(log()).toMatch(/added carol/);
  for (const secret of [ALICE, BOB, CAROL]) expect(log()).not.toContain(secret);

  // A file that no longer parses changes nothing (and says so); removing the file revokes everyone in it.
  writeFileSync(file, `alice=${ALICE}\ncarol=short\n`);
  await until('the refusal in the log', () => /was not applied/.test(log()));
  expect(await statusAs(url, CAROL)).toBe(200);
  rmSync(file);
  await until('alice to be refused', async () => (await statusAs(url, ALICE)) === 401);
  expect(await statusAs(url, CAROL)).toBe(401);
});

it("revoking a tokens-file person in the app says to delete their line (before: 'no annotator named …', or only their workspace link went)", async () => {
  const inv = await runCli('annotators', 'invite', served.workspace(), 'lead', '--role', 'owner', '--json');
  expect(inv.code, inv.err).toBe(0);
  const lead = JSON.parse(inv.out).token as string;
  const file = path.join(served.dir(), 'tokens.txt');
  writeFileSync(file, `alice=${ALICE}\n`);
  const { url, log } = await serve(file);
  const revoke = async (name: string): Promise<{ status: number; body: { message?: string } }> => {
    const r = await fetch(`${url}/api/invoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${lead}` },
      body: JSON.stringify({ command: 'annotator.revoke', args: { name } }),
    });
    return { status: r.status, body: await r.json() };
  };
  const r = await revoke('alice');
  expect(r.status).toBe(422);
  expect(r.body.message).toMatch(/^"alice" signs in with a token the server was started with \(--tokens-file, or --token\), held in memory, not in the workspace: delete their line from the tokens file/);
  expect(await statusAs(url, ALICE)).toBe(200);
  // A person with a workspace link too: revoking that alone would leave the file's token (and the file's next change restores it).
  const link = await fetch(`${url}/api/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${lead}` },
    body: JSON.stringify({ command: 'annotator.invite', args: { name: 'alice' } }),
  });
  const aliceLink = ((await link.json()) as { token: string }).token;
  const both = await revoke('alice');
  expect(both.status).toBe(422);
  expect(both.body.message).toMatch(/delete their line from the tokens file .*; then revoke their link here too$/);
  expect(await statusAs(url, ALICE)).toBe(200);
  expect(await statusAs(url, aliceLink)).toBe(200);
  // Once the line is gone, alice's link is revoked as anyone's. Until then she still signs in with it, and the
  // log says so (before: "revoked alice", while her link still let her in).
  writeFileSync(file, '# no one\n');
  await until('alice to be refused', async () => (await statusAs(url, ALICE)) === 401);
  expect(await statusAs(url, aliceLink)).toBe(200);
  await until('the log line', () => /tokens-file .*: alice's tokens-file token removed; alice still has a workspace link/.test(log()));
  expect(log()).not.toMatch(/revoked alice/);
  expect(await revoke('alice')).toEqual({ status: 200, body: { name: 'alice', revoked: 1 } });
  expect(await statusAs(url, aliceLink)).toBe(401);
});

it('a save that empties the file and then writes it again revokes no one in between (their event socket stays open)', async () => {
  const file = path.join(served.dir(), 'tokens.txt');
  writeFileSync(file, `alice=${ALICE}\n`);
  const { url, log } = await serve(file);
  const ws = new WebSocket(`${url.replace('http', 'ws')}/api/events?token=${ALICE}`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let closedWith: number | null = null;
  ws.once('close', (code) => (closedWith = code));
  // Empty for just under one poll (500 ms), as a slow in-place write leaves it, then the same people and one more
  // (the poll that sees the rewrite comes about 600 ms before the settle timer: two polls plus 100 ms).
  writeFileSync(file, '');
  await new Promise((r) => setTimeout(r, 490));
  writeFileSync(file, `alice=${ALICE}\nbob=${BOB}\n`);
  await until('bob to be let in', async () => (await statusAs(url, BOB)) === 200);
  expect(closedWith).toBeNull();
  expect(await statusAs(url, ALICE)).toBe(200);
  expect(log()).not.toMatch(/revoked alice/);
  ws.close();
});

it('a closed terminal (SIGHUP) stops the server cleanly: exit 0, its lock released (before: killed, W.lock left behind)', async () => {
  const file = path.join(served.dir(), 'tokens.txt');
  writeFileSync(file, `alice=${ALICE}\n`);
  const { log, child: c } = await serve(file);
  expect(existsSync(`${served.workspace()}.lock`)).toBe(true);
  const exited = new Promise<[number | null, string | null]>((r) => c.once('exit', (code, signal) => r([code, signal])));
  c.kill('SIGHUP');
  expect(await exited).toEqual([0, null]);
  expect(log()).toMatch(/stopping \(SIGHUP\)/);
  expect(existsSync(`${served.workspace()}.lock`)).toBe(false);
});

it('a tokens-file line for "gold" is refused, at start and when added later (before: it signed in, and its labels became the gold labels)', async () => {
  const file = path.join(served.dir(), 'tokens.txt');
  writeFileSync(file, `alice=${ALICE}\ngold=${BOB}\n`);
  const refused = await serve(file).then(
    () => 'started',
    (e: Error) => e.message,
  );
  expect(refused).toMatch(/"gold" is the name imported gold labels go under, not a person/);
  expect(refused).not.toContain(BOB);

  writeFileSync(file, `alice=${ALICE}\n`);
  const { url, log } = await serve(file);
  expect(await statusAs(url, ALICE)).toBe(200);
  writeFileSync(`${file}.tmp`, `alice=${ALICE}\ngold=${BOB}\n`);
  renameSync(`${file}.tmp`, file);
  await until('the refusal in the log', () => /was not applied/.test(log()));
  expect(log()).toMatch(/"gold" is the name imported gold labels go under/);
  expect(await statusAs(url, BOB)).toBe(401);
  expect(await statusAs(url, ALICE)).toBe(200);
});
