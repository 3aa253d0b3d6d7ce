/**
 * The README's first steps cannot rot: this runs the shell block marked `<!-- readme-cli … -->`
 * line by line with the real `qpairs` command (bin/qpairs.mjs, as `npx qpairs` runs it) in an
 * empty folder holding only a link to the shipped datasets/, and checks that every command exits
 * 0 and that each figure named in a comment (`# RUN MAP 71.35`) is the one printed in RUN's row.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const node = process.execPath;
const qpairs = path.join(root, 'bin', 'qpairs.mjs');

interface Step {
  /** The line as written in the README. */
  line: string;
  args: string[];
  /** Figures the comment promises: [run, metric, value]. */
  figures: Array<[string, string, string]>;
}

/** The shell block after the marker, as steps; throws when the README lost it. */
export function readmeSteps(readme: string): Step[] {
  const at = readme.indexOf('<!-- readme-cli');
  if (at < 0) throw new Error('README.md has no <!-- readme-cli --> block');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block) throw new Error('no ```sh block after the readme-cli marker');
  return block[1]!
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const [cmd, comment = ''] = line.split(/\s#\s/, 2) as [string, string?];
      const words = cmd.trim().split(/\s+/);
      if (words[0] !== 'npx' || words[1] !== 'qpairs') throw new Error(`README block line is not "npx qpairs …": ${line}`);
      if (/["'`$|;&<>]/.test(cmd)) throw new Error(`README block line needs a shell (quotes, pipes, variables): ${line}`);
      const figures = [...comment.matchAll(/(\S+) (MAP|MRR|P@1|P@5|R-Prec) (\d+\.\d\d)/g)].map((m) => [m[1]!, m[2]!, m[3]!] as [string, string, string]);
      return { line, args: words.slice(2), figures };
    });
}

/** The value of `metric` in `run`'s row of a printed metrics table. */
function printedFigure(stdout: string, run: string, metric: string): string | undefined {
  const lines = stdout.split('\n');
  const header = lines.find((l) => /^run\s/.test(l) && l.includes(metric));
  const row = lines.find((l) => l.split(/\s+/)[0] === run);
  if (!header || !row) return undefined;
  const col = header.trim().split(/\s+/).indexOf(metric);
  return row.trim().split(/\s+/)[col];
}

function runQpairs(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(node, [qpairs, ...args], { cwd, maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/**
 * Whether `.gitignore` text `rules` ignores `name` at the checkout's top: the forms it uses — a
 * name, `/name` (the top only), `name/` (a folder), `*` within a name. Negations are not read.
 */
function ignoredAtCheckoutTop(name: string, rules: string): boolean {
  return rules
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('!'))
    .some((rule) => {
      const pattern = rule.replace(/^\//, '').replace(/\/$/, '');
      const regex = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
      return regex.test(name);
    });
}

const gitignore = readFileSync(path.join(root, '.gitignore'), 'utf8');

// Made in beforeAll, not when the file loads: a run that skips every test here runs no afterAll either.
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-readme-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the README first steps run as written', () => {
  const steps = readmeSteps(readFileSync(path.join(root, 'README.md'), 'utf8'));

  it('has the tour: init, three imports, a pool, labels, evals with figures, an export', () => {
    const verbs = steps.map((s) => s.args[0]);
    for (const v of ['init', 'import', 'pool', 'label', 'eval', 'export', 'stats']) expect(verbs).toContain(v);
    expect(steps.flatMap((s) => s.figures).length).toBeGreaterThanOrEqual(3);
  });

  it('every command exits 0 in an empty folder beside datasets/, printing the figures its comment names', async () => {
    symlinkSync(path.join(root, 'datasets'), path.join(dir, 'datasets'), 'dir');
    for (const step of steps) {
      const r = await runQpairs(step.args, dir);
      expect(r.code, `${step.line}\n${r.stderr}`).toBe(0);
      for (const [run, metric, value] of step.figures) expect(printedFigure(r.stdout, run, metric), `${step.line}\n${r.stdout}`).toBe(value);
    }
    expect(existsSync(path.join(dir, 'p1.jsonl'))).toBe(true);
    expect(existsSync(path.join(dir, 'p1.jsonl.datasheet.md'))).toBe(true);
    // Run in a checkout, as written, they leave nothing untracked: .gitignore names all they write.
    const written = readdirSync(dir).filter((name) => name !== 'datasets');
    expect(written.filter((name) => !ignoredAtCheckoutTop(name, gitignore))).toEqual([]);
  }, 180_000);

  it('reads which files .gitignore ignores at the checkout\'s top (the check can fail)', () => {
    const rules = 'node_modules\nout/\n*.qpairs\n# a comment\n/p1.jsonl\n';
    for (const name of ['W.qpairs', 'p1.jsonl', 'node_modules']) expect(ignoredAtCheckoutTop(name, rules), name).toBe(true);
    for (const name of ['p1.jsonl.datasheet.md', 'p2.jsonl', 'W.qpairs.bak', 'a comment']) expect(ignoredAtCheckoutTop(name, rules), name).toBe(false);
  });

  it('reads a figure from its run\'s row, not from another (the check can fail)', () => {
    const table = 'run   queries    MAP\n----  -------  -----\nbm25        1  100.00\nother       1   12.50';
    expect(printedFigure(table, 'bm25', 'MAP')).toBe('100.00');
    expect(printedFigure(table, 'other', 'MAP')).toBe('12.50');
    expect(printedFigure(table, 'missing', 'MAP')).toBeUndefined();
  });
});
