import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from './test-cli';
import { dataset } from '../../../tests/datasets';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

describe('qpairs CLI', () => {
  it('prints usage and rejects unknown commands and flags', async () => {
    expect((await run('--help')).out).toMatch(/qpairs init W/);
    expect((await run()).code).toBe(2);
    const bad = await run('frobnicate');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown command "frobnicate"/);
    const w = path.join(dir, 'w.qpairs');
    await run('init', w);
    const flag = await run('stats', w, '--bogus');
    expect(flag.code).toBe(2);
    expect(flag.err).toMatch(/bogus/);
  });

  it('a mistyped command, subcommand, flag or value is a usage error that names what was meant', async () => {
    const w = path.join(dir, 'w.qpairs');
    await run('init', w);
    const expectUsage = async (args: string[], message: RegExp): Promise<void> => {
      const r = await run(...args);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(message);
    };
    // The suggestion is what one sees: not buried under the whole usage text.
    const cmd = await run('improt', w);
    expect(cmd.err).toMatch(/^qpairs: unknown command "improt" \(did you mean "import"\? commands: init, import,/);
    expect(cmd.err.split('\n').length).toBeLessThan(5);
    await expectUsage(['help', 'evl'], /unknown command "evl" \(did you mean "eval"\?/);
    await expectUsage(['pool', 'craete', w, '--name', 'p'], /unknown pool command "craete" \(did you mean "create"\? pool commands: create, list, set\)/);
    await expectUsage(['models', 'lst', w], /did you mean "list"\?/);
    await expectUsage(['corpus', 'indx', w], /did you mean "index"\?/);
    await expectUsage(['annotators', 'ad', w, 'x'], /did you mean "add"\?/);
    await expectUsage(['eval', w, '--pol', 'dev'], /unknown option --pol \(did you mean --pool\? options: --pool, /);
    await expectUsage(['stats', w, '--jsn'], /unknown option --jsn \(did you mean --json\? options: --json\)/);
    await expectUsage(['init', path.join(dir, 'x.qpairs'), '--force'], /unknown option --force \(this command takes no options\)/);
    await expectUsage(['import', w, '--format', 'stackexchnage', 'x'], /unknown format "stackexchnage" \(did you mean "stackexchange"\? formats: /);
    await expectUsage(['export', w, '--pool', 'p', '--format', 'jsnol', 'o.jsonl'], /did you mean "jsonl"\?/);
    await expectUsage(['train', w, '--model', 'fusde', '--name', 'x'], /unknown model "fusde" \(did you mean "fused"\?/);
    await expectUsage(['pool', 'create', w, '--name', 'p', '--sample', '2', '--seed', '1', '--order', 'randon'], /did you mean "random"\?/);
    await expectUsage(['aggregate', w, '--pool', 'p', '--rule', 'majorty'], /did you mean "majority"\?/);
    await expectUsage(['annotators', 'role', w, 'x', 'jduge'], /did you mean "judge"\?/);
  });

  it('export to "-" is a usage error that writes nothing (it wrote files named "-" and "-.datasheet.md", as if to standard output)', async () => {
    const w = path.join(dir, 'w.qpairs');
    await run('init', w);
    const labels = path.join(dir, 'l.csv');
    writeFileSync(labels, 'query_id,candidate_id,label\n1,2,1\n');
    expect((await run('import', w, '--format', 'labels-csv', labels, '--pool', 'p')).code).toBe(0);
    const prev = process.cwd();
    process.chdir(dir);
    try {
      const r = await run('export', w, '--pool', 'p', '--format', 'qrels', '-');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/OUT is a file name, not "-"/);
      expect(existsSync(path.join(dir, '-'))).toBe(false);
      expect(existsSync(path.join(dir, '-.datasheet.md'))).toBe(false);
    } finally {
      process.chdir(prev);
    }
  });

  it('serve: a port out of range or --max-trainings 0 is a usage error before anything starts (it was an internal error with a stack trace)', async () => {
    const w = path.join(dir, 'w.qpairs');
    await run('init', w);
    for (const [args, message] of [
      [['--port', '99999'], '--port is a port number from 0 to 65535, not 99999'],
      [['--port=-1'], '--port is a port number from 0 to 65535, not -1'],
      [['--max-trainings', '0'], '--max-trainings must be at least 1 (trainings that run at once), not 0'],
      // It reached the server as NaN, which let no upload through.
      [['--max-upload-mb', 'lots'], '--max-upload-mb is a size in MiB greater than 0 (e.g. 2048), not "lots"'],
      [['--max-upload-mb', '0'], '--max-upload-mb is a size in MiB greater than 0 (e.g. 2048), not "0"'],
    ] as const) {
      const r = await run('serve', w, ...args);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toBe(`qpairs serve: ${message}\nrun "qpairs serve --help" for usage\n`);
    }
    expect(existsSync(`${w}.lock`)).toBe(false);
  });

  it('init creates a workspace once and stats reports it as JSON', async () => {
    const w = path.join(dir, 'w.qpairs');
    expect((await run('init', w)).code).toBe(0);
    const again = await run('init', w);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already exists/);
    const s = await run('stats', w, '--json');
    expect(s.code).toBe(0);
    expect(JSON.parse(s.out)).toMatchObject({ questions: 0, duplicatePairs: 0, pools: 0, labels: 0 });
  });

  it('fails clearly on a missing workspace', async () => {
    const r = await run('stats', path.join(dir, 'nope.qpairs'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/does not exist/);
  });

  it('imports the AskUbuntu dev pool and reproduces the published BM25 row', async () => {
    const w = path.join(dir, 'au.qpairs');
    await run('init', w);
    const imp = await run('import', w, '--format', 'askubuntu-pool', dataset('askubuntu/dev.txt'));
    expect(imp.code, imp.err).toBe(0);
    const ev = await run('eval', w, '--pool', 'dev', '--convention', 'skip', '--json');
    expect(ev.code, ev.err).toBe(0);
    const j = JSON.parse(ev.out);
    const m = j.runs['bm25-lucene'];
    expect(m.queries).toBe(189);
    expect((100 * m.MAP).toFixed(2)).toBe('52.03');
    expect((100 * m.MRR).toFixed(2)).toBe('65.99');
    expect((100 * m['P@1']).toFixed(2)).toBe('51.85');
    expect((100 * m['P@5']).toFixed(2)).toBe('42.12');
    const table = await run('eval', w, '--pool', 'dev');
    expect(table.out).toMatch(/bm25-lucene\s+189\s+52\.03\s+65\.99\s+51\.85\s+42\.12/);
    const zero = JSON.parse((await run('eval', w, '--pool', 'dev', '--convention', 'zero', '--json')).out);
    expect(zero.runs['bm25-lucene'].queries).toBe(200);
    // Re-importing changes nothing.
    const before = (await run('stats', w, '--json')).out;
    expect((await run('import', w, '--format', 'askubuntu-pool', dataset('askubuntu/dev.txt'))).code).toBe(0);
    expect((await run('stats', w, '--json')).out).toBe(before);
  });

  it('imports SemEval dev and reproduces the search-engine MAP 71.35 under zero', async () => {
    const w = path.join(dir, 'se.qpairs');
    await run('init', w);
    const f = dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
    const imp = await run('import', w, '--format', 'semeval', '--pool', 'dev', f);
    expect(imp.code, imp.err).toBe(0);
    const j = JSON.parse((await run('eval', w, '--pool', 'dev', '--convention', 'zero', '--json')).out);
    expect(j.runs['search-engine'].queries).toBe(50);
    expect((100 * j.runs['search-engine'].MAP).toFixed(2)).toBe('71.35');
  });

  it('creates BM25 pools from query ids and from a seeded sample', async () => {
    const w = path.join(dir, 'p.qpairs');
    await run('init', w);
    expect((await run('import', w, '--format', 'stackexchange', dataset('stackexchange-cstheory-meta'))).code).toBe(0);
    const s = JSON.parse((await run('stats', w, '--json')).out);
    expect(s).toMatchObject({ questions: 589, duplicatePairs: 13 });
    const a = await run('pool', 'create', w, '--name', 'a', '--sample', '10', '--seed', '7', '--json');
    expect(a.code, a.err).toBe(0);
    expect(JSON.parse(a.out)).toMatchObject({ queries: 10, pairs: 200 });
    const b = await run('pool', 'create', w, '--name', 'b', '--sample', '10', '--seed', '7', '--json');
    expect(JSON.parse(b.out).pairs).toBe(200);
    const list = JSON.parse((await run('pool', 'list', w, '--json')).out);
    expect(list.map((p: { name: string }) => p.name)).toEqual(['a', 'b']);
    const qf = path.join(dir, 'queries.txt');
    writeFileSync(qf, 'no-such-id\n');
    const bad = await run('pool', 'create', w, '--name', 'c', '--queries', qf);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/no-such-id/);
    // A queries file that is not there is said in words, naming the flag (it was Node's "ENOENT: no such file or directory, open …").
    const missing = await run('pool', 'create', w, '--name', 'c', '--queries', path.join(dir, 'missing.txt'));
    expect({ code: missing.code, err: missing.err.split('\n')[0] }).toEqual({
      code: 1,
      err: `qpairs pool create: --queries ${path.join(dir, 'missing.txt')}: cannot read the file: no such file (ENOENT)`,
    });
    expect(JSON.parse((await run('stats', w, '--json')).out).pools).toBe(2);
    const usage = await run('pool', 'create', w, '--name', 'd', '--sample', '3');
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/--seed/);
    // An empty sample is a usage error, as --depth 0 is (it created an empty pool and exited 0).
    for (const sample of [['--sample', '0'], ['--sample=-3']]) {
      const none = await run('pool', 'create', w, '--name', 'e', ...sample, '--seed', '1');
      expect({ code: none.code, err: none.err.split('\n')[0] }).toEqual({ code: 2, err: 'qpairs pool create: --sample must be at least 1' });
    }
    expect(JSON.parse((await run('stats', w, '--json')).out).pools).toBe(2);
  });

  it('a whole number a double cannot hold exactly is a usage error, not a rounded seed or an internal error', async () => {
    const w = path.join(dir, 'w.qpairs');
    await run('init', w);
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, Array.from({ length: 5 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `title ${i} words`, body: `body ${i} words` })).join('\n') + '\n');
    expect((await run('import', w, '--format', 'questions-jsonl', file)).code).toBe(0);
    // 2^53 + 1 was taken as 2^53: the pool's datasheet named another seed than the one given.
    const seed = await run('pool', 'create', w, '--name', 'p', '--sample', '2', '--seed', '9007199254740993', '--json');
    expect(seed.code, seed.out).toBe(2);
    expect(seed.err).toContain('--seed needs a whole number from -9007199254740991 to 9007199254740991 (2^53 − 1), got "9007199254740993"');
    // It ended in "internal error: RangeError: Invalid typed array length" and a stack trace.
    const depth = await run('pool', 'create', w, '--name', 'p', '--sample', '2', '--seed', '1', '--depth', '99999999999999999999');
    expect(depth.code).toBe(2);
    expect(depth.err).not.toMatch(/internal error/);
    expect(depth.err).toContain('--depth needs a whole number from');
    // Above what the app's form and pool.create take: refused as they refuse it (it was accepted).
    const deep = await run('pool', 'create', w, '--name', 'p', '--sample', '2', '--seed', '1', '--depth', '1001');
    expect(deep.code).toBe(2);
    expect(deep.err).toContain('--depth is at most 1,000 candidates per query');
    const many = await run('pool', 'create', w, '--name', 'p', '--sample', '100001', '--seed', '1');
    expect(many.code).toBe(2);
    expect(many.err).toContain('--sample is at most 100,000 queries');
    const negative = await run('pool', 'create', w, '--name', 'p', '--sample', '2', '--seed=-9007199254740993');
    expect(negative.code).toBe(2);
    expect(JSON.parse((await run('stats', w, '--json')).out).pools).toBe(0);
    const boot = await run('agreement', w, '--pool', 'p', '--bootstrap', '99999999999999999999');
    expect(boot.code).toBe(2);
    expect(boot.err).toContain('--bootstrap needs a whole number from');
    // The largest exact seed still works.
    const max = await run('pool', 'create', w, '--name', 'p', '--sample', '2', '--seed', '9007199254740991', '--json');
    expect(max.code, max.err).toBe(0);
    expect(JSON.parse(max.out).sampling).toBe('random sample of 2 (seed 9007199254740991)');
  });
});

