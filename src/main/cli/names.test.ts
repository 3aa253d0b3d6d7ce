/**
 * Names the CLI makes are names the app can address: the contract trims a name and takes at most
 * NAME_MAX_LENGTH characters, so a pool created as " p1 " (the app asked for "p1": no such pool) or
 * an annotator or pool with a longer name was stored by the CLI and then refused by every command
 * of the app and serve mode that named it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NAME_MAX_LENGTH, parseArgs } from '../../shared/contract';
import { runCli } from './test-cli';

let dir: string;
let w: string;
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-names-'));
  w = path.join(dir, 'w.qpairs');
  expect((await runCli('init', w)).code).toBe(0);
  const file = path.join(dir, 'q.jsonl');
  writeFileSync(file, Array.from({ length: 4 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `title ${i} words`, body: `body ${i} words` })).join('\n') + '\n');
  expect((await runCli('import', w, '--format', 'questions-jsonl', file)).code).toBe(0);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const pools = async (): Promise<string[]> => (JSON.parse((await runCli('pool', 'list', w, '--json')).out) as Array<{ name: string }>).map((p) => p.name);

describe('names made on the command line', () => {
  it('pool create --name " p1 " makes pool "p1", the name the app looks up', async () => {
    const r = await runCli('pool', 'create', w, '--name', ' p1 ', '--sample', '2', '--seed', '1', '--depth', '2');
    expect(r.code, r.err).toBe(0);
    expect(await pools()).toEqual(['p1']);
    expect(parseArgs('eval.pool', { pool: ' p1 ' }).pool).toBe('p1');
  });

  it(`a pool name longer than ${NAME_MAX_LENGTH} characters is a usage error, and no pool is made`, async () => {
    const long = 'p'.repeat(NAME_MAX_LENGTH + 1);
    expect(() => parseArgs('eval.pool', { pool: long })).toThrow(/invalid arguments/);
    const r = await runCli('pool', 'create', w, '--name', long, '--sample', '2', '--seed', '1');
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--name is at most ${NAME_MAX_LENGTH} characters`);
    expect(await pools()).toEqual([]);
    const longest = 'p'.repeat(NAME_MAX_LENGTH);
    expect((await runCli('pool', 'create', w, '--name', longest, '--sample', '2', '--seed', '1', '--depth', '2')).code).toBe(0);
    expect(await pools()).toEqual([longest]);
  });

  it(`an annotator name longer than ${NAME_MAX_LENGTH} characters is refused by annotators add, invite, assign and label`, async () => {
    const long = 'a'.repeat(NAME_MAX_LENGTH + 1);
    expect((await runCli('pool', 'create', w, '--name', 'p', '--sample', '2', '--seed', '1', '--depth', '2')).code).toBe(0);
    for (const argv of [
      ['annotators', 'add', w, long],
      ['annotators', 'invite', w, long],
      ['assign', w, '--pool', 'p', '--annotators', `${long},bob`],
    ]) {
      const r = await runCli(...argv);
      expect(r.code, argv[0]).toBe(1);
      expect(r.err).toContain(`annotator name is too long: ${NAME_MAX_LENGTH + 1} characters, at most ${NAME_MAX_LENGTH}`);
    }
    const label = await runCli('label', w, '--pool', 'p', '--annotator', long, '--query', 'q0', '--candidate', 'q1', '--value', '1');
    expect(label.code).toBe(1);
    expect(label.err).toContain('annotator name is too long');
    const list = JSON.parse((await runCli('annotators', 'list', w, '--json')).out) as Array<{ name: string }>;
    expect(list.map((a) => a.name)).not.toContain(long);
  });
});

describe('a person typed in NFC or NFD on the command line', () => {
  it('annotators add, label --annotator and import --annotator make one person, stored in NFC', async () => {
    const nfc = 'Zo\u00eb';
    const nfd = 'Zoe\u0308';
    expect((await runCli('annotators', 'add', w, nfd)).code).toBe(0);
    expect((await runCli('pool', 'create', w, '--name', 'p1', '--sample', '2', '--seed', '1', '--depth', '2')).code).toBe(0);
    const qrels = path.join(dir, 'p1.qrels');
    writeFileSync(qrels, 'q0 0 q1 1\n');
    const imp = await runCli('import', w, '--format', 'qrels', '--pool', 'p1', '--annotator', nfd, qrels);
    expect(imp.code, imp.err).toBe(0);
    const people = (JSON.parse((await runCli('annotators', 'list', w, '--json')).out) as Array<{ name: string }>).map((a) => a.name);
    expect(people.filter((n) => n.normalize('NFC') === nfc)).toEqual([nfc]);
  });
});
