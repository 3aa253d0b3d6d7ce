import { describe, expect, it } from 'vitest';
import { COMMANDS } from './index';
import { runCli } from './test-cli';
import { COMMAND_USAGE, SUBCOMMANDS } from './usage';

describe('every command answers --help with its own usage', () => {
  it('has a usage entry for each command and no entry without a command', () => {
    expect(Object.keys(COMMAND_USAGE).sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  for (const cmd of Object.keys(COMMANDS)) {
    it(`qpairs ${cmd} --help (and -h, and qpairs help ${cmd}) exits 0 with ${cmd}'s usage only`, async () => {
      for (const argv of [[cmd, '--help'], [cmd, '-h'], ['help', cmd], [cmd, 'W.qpairs', '--help']]) {
        const r = await runCli(...argv);
        expect(r.code, argv.join(' ')).toBe(0);
        expect(r.err).toBe('');
        expect(r.out).toContain(`qpairs ${cmd} `);
        // Only this command's lines: no other command's usage line.
        for (const other of Object.keys(COMMANDS)) if (other !== cmd) expect(r.out).not.toMatch(new RegExp(`^ {2}qpairs ${other}\\b`, 'm'));
      }
    });
  }

  for (const [cmd, subs] of Object.entries(SUBCOMMANDS)) {
    it(`qpairs ${cmd} SUB --help prints SUB's own usage (it printed every ${cmd} command's) and where the others are; qpairs ${cmd} --help all of them`, async () => {
      for (const sub of subs) {
        for (const argv of [[cmd, sub, '--help'], [cmd, sub, 'W.qpairs', '-h'], ['help', cmd, sub]]) {
          const r = await runCli(...argv);
          expect(r.code, argv.join(' ')).toBe(0);
          expect(r.err).toBe('');
          expect(r.out, argv.join(' ')).toMatch(new RegExp(`^ {2}qpairs ${cmd} ${sub} W`, 'm'));
          for (const other of subs) if (other !== sub) expect(r.out, argv.join(' ')).not.toMatch(new RegExp(`^ {2}qpairs ${cmd} ${other}\\b`, 'm'));
          expect(r.out).toContain(`(every ${cmd} command: "qpairs ${cmd} --help")`);
        }
      }
      const all = await runCli(cmd, '--help');
      for (const sub of subs) expect(all.out).toMatch(new RegExp(`^ {2}qpairs ${cmd} ${sub} W`, 'm'));
    });
  }

  it('a help request does nothing else: qpairs init W --help creates no file', async () => {
    const r = await runCli('init', 'never-created.qpairs', '--help');
    expect(r.code).toBe(0);
    const { existsSync } = await import('node:fs');
    expect(existsSync('never-created.qpairs')).toBe(false);
  });

  it('qpairs --help lists every command; a usage error points to the command\'s own help', async () => {
    const all = await runCli('--help');
    expect(all.code).toBe(0);
    for (const cmd of Object.keys(COMMANDS)) expect(all.out).toMatch(new RegExp(`^ {2}qpairs ${cmd}\\b`, 'm'));
    const bad = await runCli('pool', 'create', 'W.qpairs');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('run "qpairs pool create --help" for usage');
    const help = await runCli('pool', 'create', '--help'); // the hint works: pool create's own usage
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^ {2}qpairs pool create W/m);
    expect(help.out).not.toMatch(/^ {2}qpairs pool (set|list)\b/m);
    expect((await runCli('help', 'nosuch')).code).toBe(2);
  });

  it('qpairs with no command is a usage error: the usage goes to stderr, exit 2, nothing on stdout (a script captured it as output)', async () => {
    const r = await runCli();
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^ {2}qpairs init W/m);
    const asked = await runCli('--help');
    expect(asked.code).toBe(0);
    expect(asked.err).toBe('');
    expect(asked.out).toBe(r.err);
  });
});

describe('qpairs --version', () => {
  it("prints package.json's version, the workspace schema it reads and writes, and Node's version", async () => {
    const { readFileSync } = await import('node:fs');
    const { SCHEMA_VERSION } = await import('../workspace/migrations');
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V', 'version']) {
      const r = await runCli(flag);
      expect(r.code, flag).toBe(0);
      expect(r.err).toBe('');
      expect(r.out.trim()).toBe(`qpairs ${pkg.version} (workspace schema ${SCHEMA_VERSION}, Node.js ${process.versions.node})`);
    }
  });

  it("export's usage and the README say where trec-run writes a pool's several runs (one file each, not OUT)", async () => {
    const { readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const help = (await runCli('export', '--help')).out;
    expect(help).toMatch(/trec-run without --run: one file per run of the pool, OUT-stem\.RUN\.ext \(dev\.run → dev\.bm25\.run\), OUT itself when it has one run/);
    const readme = readFileSync(path.join(import.meta.dirname, '../../../README.md'), 'utf8');
    expect(readme).toMatch(/`trec-run` without `--run` writes one file per run of the pool, `STEM\.RUN\.EXT` for OUT = `STEM\.EXT`/);
  });

  it("eval's usage and the README give its default labels as eval takes them: gold on a pool no one has labeled (they said @aggregate, and eval printed \"labels of gold\")", async () => {
    const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const help = (await runCli('eval', '--help')).out;
    expect(help).toContain('default labels: gold if the pool has any, else @aggregate (gold while no one has labeled the pool);');
    const readme = readFileSync(path.join(import.meta.dirname, '../../../README.md'), 'utf8');
    expect(readme).toContain("`gold` when the pool has gold labels, else `@aggregate` — `gold`, with no figures, while no one has labeled the pool)");
    const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-eval-default-'));
    try {
      const w = path.join(dir, 'w.qpairs');
      const questions = ['how to sort a list', 'sort a list in place', 'how to sort a list of words'].map((title, i) => JSON.stringify({ id: `q${i}`, title, body: title }));
      writeFileSync(path.join(dir, 'q.jsonl'), questions.join('\n') + '\n');
      writeFileSync(path.join(dir, 'ids.txt'), 'q0\n');
      for (const argv of [['init', w], ['import', w, '--format', 'questions-jsonl', path.join(dir, 'q.jsonl')], ['pool', 'create', w, '--name', 'p', '--queries', path.join(dir, 'ids.txt')]]) {
        const r = await runCli(...argv);
        expect(r.code, r.err).toBe(0);
      }
      const unlabeled = await runCli('eval', w, '--pool', 'p');
      expect(unlabeled.out.split('\n')[0]).toMatch(/^pool p, labels of gold \(default source\), /);
      expect((await runCli('assign', w, '--pool', 'p', '--annotators', 'alice')).code).toBe(0);
      expect((await runCli('label', w, '--pool', 'p', '--annotator', 'alice', '--query', 'q0', '--candidate', 'q1', '--value', '1')).code).toBe(0);
      const labeled = await runCli('eval', w, '--pool', 'p');
      expect(labeled.out.split('\n')[0]).toMatch(/^pool p, labels of @aggregate \(default source\), /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('import undo and exit 1 of nothing, as the usage says', () => {
  it('import undo: the last import stays undoable after a failed import (its usage and README said "until the next import starts")', async () => {
    const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const help = (await runCli('import', 'undo', '--help')).out;
    expect(help).toMatch(/until another import changes something:\n.*one that fails, is cancelled or changes nothing leaves it undoable/);
    expect(help).toMatch(/the next command that writes to W finishes it \(a command that only reads leaves it, saying so\)/);
    const readme = readFileSync(path.join(import.meta.dirname, '../../../README.md'), 'utf8');
    expect(readme).toContain('(until another import changes something — one that fails, is cancelled or changes nothing leaves it undoable;');
    expect(readme).not.toContain('until the next import starts');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-undo-help-'));
    try {
      const w = path.join(dir, 'w.qpairs');
      const file = (name: string, text: string): string => (writeFileSync(path.join(dir, name), text), path.join(dir, name));
      expect((await runCli('init', w)).code).toBe(0);
      expect((await runCli('import', w, '--format', 'questions-jsonl', file('a.jsonl', '{"id":"a","title":"t","body":"b"}\n'))).code).toBe(0);
      expect((await runCli('import', w, '--format', 'questions-jsonl', file('bad.jsonl', '{"id":"b","title":"t"}\nnot json\n'))).code).toBe(1);
      const undo = await runCli('import', 'undo', w);
      expect(undo.code, undo.err).toBe(0);
      expect(undo.out).toMatch(/^undid the questions-jsonl import of a\.jsonl started \S+: took out 1 question/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('qpairs --help and agreement --help say that a result of nothing exits 1', async () => {
    expect((await runCli('--help')).out).toContain('1 error (bad input, missing pool…; nothing to evaluate, export or measure: eval, export, agreement;');
    expect((await runCli('agreement', '--help')).out).toContain('no pair labeled by two of the annotators: the report is printed and agreement fails (exit 1)');
  });
});

describe('each command\'s usage names every option it accepts', () => {
  /**
   * The options a (sub)command accepts, as its unknown-option error lists them, against the lines of
   * its usage: `annotators add` and `role` took --json that their usage left out.
   */
  const commands: Array<[string, string | null]> = [
    ['init', null], ['import', null], ['pool', 'create'], ['pool', 'list'], ['pool', 'set'], ['stats', null], ['eval', null],
    ['annotators', 'list'], ['annotators', 'add'], ['annotators', 'role'], ['annotators', 'invite'], ['annotators', 'revoke'],
    ['assign', null], ['label', null], ['agreement', null], ['aggregate', null], ['adjudicate', null], ['export', null],
    ['train', null], ['score', null], ['models', 'list'], ['models', 'delete'], ['serve', null], ['corpus', 'export'], ['corpus', 'index'],
  ];
  for (const [cmd, sub] of commands) {
    const name = sub ? `${cmd} ${sub}` : cmd;
    it(`qpairs ${name}`, async () => {
      const r = await runCli(...(sub ? [cmd, sub] : [cmd]), 'W.qpairs', '--no-such-option');
      expect(r.code).toBe(2);
      const listed = /options: ([^)]*)\)/.exec(r.err)?.[1];
      const accepted = listed === undefined ? [] : listed.split(', ');
      if (listed === undefined) expect(r.err).toContain('this command takes no options');
      // The usage lines of this subcommand: from its `qpairs CMD SUB…` line to the next `qpairs` line.
      const lines = COMMAND_USAGE[cmd]!.split('\n');
      const own: string[] = [];
      let inside = false;
      for (const l of lines) {
        const head = /^\s*qpairs \S+ ?(\S*)/.exec(l);
        if (head) inside = sub === null || head[1]!.split('|').includes(sub);
        if (inside) own.push(l);
      }
      expect(own.length, `a usage line for ${name}`).toBeGreaterThan(0);
      // --token is the deprecated form of --tokens-file; serve's usage names it in its note.
      for (const flag of accepted) expect(own.join('\n'), `${name} accepts ${flag}`).toMatch(new RegExp(`${flag.replace(/[-]/g, '\\-')}\\b`));
    });
  }
});

describe('exit codes as documented', () => {
  it('an internal error (a fault of QPairs, not of the input) exits 1 with "internal error:" and its stack, as the usage and README say', async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { main } = await import('./index');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-exit-'));
    try {
      const w = path.join(dir, 'w.qpairs');
      expect((await runCli('init', w)).code).toBe(0);
      let err = '';
      // A fault inside the command: printing its result throws a plain TypeError.
      const code = await main(['stats', w], { log: () => { throw new TypeError('boom'); }, err: (s) => (err += s + '\n') });
      expect(code).toBe(1);
      expect(err).toMatch(/^qpairs stats: internal error: TypeError: boom\n {4}at /);
      const help = (await runCli('stats', '--help')).out;
      expect(help).toMatch(/exit codes: 0 ok, 1 error \(bad input, missing pool…; nothing to evaluate, export or measure: eval, export, agreement; also a QPairs bug, printed as "internal error:" with its stack trace\), 2 usage error, 130 cancelled/);
      const readme = readFileSync(path.join(import.meta.dirname, '../../../README.md'), 'utf8');
      expect(readme).toMatch(/Exit codes: 0 ok, 1 error \(bad input, missing pool…, in one line on stderr; a fault of QPairs itself is also 1, printed as `qpairs CMD: internal error:` with its stack trace/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

