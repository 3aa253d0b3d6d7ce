/**
 * Positional arguments a command does not take are a usage error naming them, before anything is
 * opened or written. They were ignored: `qpairs init a b` made a alone, `qpairs label W x …` labeled,
 * `qpairs stats My W.qpairs` (an unquoted path with a space) read "My".
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './test-cli';

let dir: string;
let w: string;
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-positionals-'));
  w = path.join(dir, 'w.qpairs');
  expect((await runCli('init', w)).code).toBe(0);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a command given more positional arguments than it takes', () => {
  it('qpairs init a b is a usage error and creates neither file', async () => {
    const a = path.join(dir, 'a.qpairs');
    const b = path.join(dir, 'b.qpairs');
    const r = await runCli('init', a, b);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`unexpected argument ${JSON.stringify(b)}: qpairs init takes W`);
    expect(existsSync(a)).toBe(false);
    expect(existsSync(b)).toBe(false);
  });

  it('an unquoted path with a space names the stray part and says to quote it', async () => {
    const r = await runCli('stats', path.join(dir, 'My'), 'W.qpairs');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unexpected argument "W\.qpairs": qpairs stats takes W \(a path with spaces goes in quotes/);
    expect(r.out).toBe('');
  });

  const cases: Array<[string, string[]]> = [
    ['stats', ['stats', 'W', 'extra']],
    ['pool list', ['pool', 'list', 'W', 'extra']],
    ['pool set', ['pool', 'set', 'W', 'extra', '--pool', 'p', '--blind', 'false']],
    ['pool create', ['pool', 'create', 'W', 'extra', '--name', 'p', '--sample', '1', '--seed', '1']],
    ['label', ['label', 'W', 'extra', '--pool', 'p', '--annotator', 'a', '--query', 'q', '--candidate', 'c', '--value', '1']],
    ['assign', ['assign', 'W', 'extra', '--pool', 'p', '--annotators', 'a,b']],
    ['agreement', ['agreement', 'W', 'extra', '--pool', 'p']],
    ['aggregate', ['aggregate', 'W', 'extra', '--pool', 'p']],
    ['adjudicate', ['adjudicate', 'W', 'extra', '--pool', 'p']],
    ['annotators list', ['annotators', 'list', 'W', 'extra']],
    ['annotators role', ['annotators', 'role', 'W', 'carol', 'judge', 'extra']],
    ['models list', ['models', 'list', 'W', 'extra']],
    ['models delete', ['models', 'delete', 'W', 'm1', 'extra']],
    ['corpus index', ['corpus', 'index', 'W', 'extra']],
    ['serve', ['serve', 'W', 'extra', '--port', '0']],
    ['eval', ['eval', 'W', 'extra', '--pool', 'p']],
    ['train', ['train', 'W', 'extra', '--model', 'tfidf', '--name', 'm', '--train-pool', 'p']],
    ['score', ['score', 'W', 'extra', '--model', 'm']],
    ['export', ['export', 'W', 'OUT', 'extra', '--pool', 'p', '--format', 'jsonl']],
  ];
  for (const [name, argv] of cases) {
    it(`qpairs ${name} … extra: exit 2, naming it, nothing done`, async () => {
      const r = await runCli(...argv.map((a) => (a === 'W' ? w : a)));
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(`unexpected argument "extra": qpairs ${name} takes W`);
      expect(r.out).toBe('');
      // Refused before the workspace was opened for writing: no lock left, no journal.
      expect(existsSync(`${w}.lock`)).toBe(false);
    });
  }

  it('the positionals a command takes still work (annotators role W NAME ROLE, models delete W NAME)', async () => {
    expect((await runCli('annotators', 'add', w, 'carol')).code).toBe(0);
    const r = await runCli('annotators', 'role', w, 'carol', 'judge');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('annotator carol: judge');
    const d = await runCli('models', 'delete', w, 'nosuch');
    expect(d.code).toBe(1);
    expect(d.err).toContain('no model named "nosuch"');
  });
});

describe('errors of a subcommand name it', () => {
  it('qpairs pool create|set, models delete, corpus export, annotators role: the full subcommand in the error and in the usage hint (they said "qpairs pool:", …)', async () => {
    const cases: Array<[string[], number, string]> = [
      [['pool', 'create', w, '--name', 'p', '--sample', '0', '--seed', '1'], 2, 'qpairs pool create: --sample must be at least 1\nrun "qpairs pool create --help" for usage\n'],
      [['pool', 'set', w, '--pool', 'nope', '--blind', 'true'], 1, 'qpairs pool set: '],
      [['pool', 'list', w, 'extra'], 2, 'qpairs pool list: '],
      [['models', 'delete', w, 'nosuch'], 1, 'qpairs models delete: '],
      [['corpus', 'export', w, '--format', 'tsv'], 2, 'qpairs corpus export: '],
      [['annotators', 'role', w, 'nobody', 'judge'], 1, 'qpairs annotators role: '],
    ];
    for (const [argv, code, err] of cases) {
      const r = await runCli(...argv);
      expect({ argv, code: r.code }).toEqual({ argv, code });
      if (err.endsWith('\n')) expect(r.err).toBe(err);
      else expect(r.err.startsWith(err), `${argv.join(' ')}: ${r.err}`).toBe(true);
    }
    // An unknown subcommand is named as the command's: there is no such subcommand to name.
    const unknown = await runCli('pool', 'creat', w);
    expect(unknown.err).toMatch(/^qpairs pool: unknown pool command "creat" \(did you mean "create"\?/);
  });
});
