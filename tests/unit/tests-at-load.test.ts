/**
 * No test file makes a temporary folder or starts a process or server when it loads (at its top
 * level or in a describe body, which vitest and Playwright run while collecting): a run that skips
 * the file's tests (a name filter, `.skip`) runs no afterAll either, so what was made then stays in
 * /tmp, or keeps running. They belong in beforeAll/beforeEach or in the test. Read from the code
 * with TypeScript's parser, as src/main/process-boundaries.test.ts reads imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Calls that leave something behind unless a hook or the test undoes them. */
const LEAVES_SOMETHING = new Set(['mkdtempSync', 'mkdtemp', 'startServe', 'spawn', 'fork', 'createServer']);

/** Calls whose function arguments run while the file loads. */
const RUNS_AT_LOAD = new Set(['describe']);

/** Every test file under `dir`: vitest's *.test.ts(x), Playwright's *.spec.ts and the stress *.stress.ts. */
function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules') out.push(...testFiles(p));
    else if (/\.(test\.tsx?|spec\.ts|stress\.ts)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The name a call is made by: `f(…)` and `x.f(…)` give f; `describe.skip(…)`, `describe.each(…)(…)` give describe. */
function calleeName(e: ts.Expression): string {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return RUNS_AT_LOAD.has(rootName(e)) ? rootName(e) : e.name.text;
  if (ts.isCallExpression(e)) return calleeName(e.expression);
  return '';
}

function rootName(e: ts.Expression): string {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e) || ts.isCallExpression(e)) return rootName(e.expression);
  return '';
}

/** `file:line: call` for each call of LEAVES_SOMETHING that runs when `text` (the file `file`) loads. */
function callsAtLoad(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      if (LEAVES_SOMETHING.has(name)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(`${file}:${line}: ${name}`);
      }
      if (RUNS_AT_LOAD.has(name)) {
        visit(node.expression);
        for (const a of node.arguments) {
          if (ts.isArrowFunction(a) || ts.isFunctionExpression(a)) visit(a.body);
          else visit(a);
        }
        return;
      }
    }
    // A function's body runs when it is called (a hook, a test, a helper), not when the file loads.
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('test files make nothing that lasts when they load', () => {
  it('finds such a call at the top level and in a describe body, not in hooks, tests or functions', () => {
    const text = [
      "const dir = mkdtempSync('x');",
      "describe('d', () => { const s = startServe(1); it('t', () => { spawn('a'); }); });",
      "describe.skip('e', function () { fs.mkdtemp('y'); });",
      "beforeAll(() => { mkdtempSync('z'); });",
      'function helper() { return createServer(); }',
      "const later = () => fork('w');",
    ].join('\n');
    expect(callsAtLoad('f.test.ts', text)).toEqual(['f.test.ts:1: mkdtempSync', 'f.test.ts:2: startServe', 'f.test.ts:3: mkdtemp']);
  });

  it('no test file of the project makes a temporary folder, a process or a server at load', () => {
    const files = [...testFiles(path.join(root, 'src')), ...testFiles(path.join(root, 'tests'))];
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => callsAtLoad(path.relative(root, f), readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
