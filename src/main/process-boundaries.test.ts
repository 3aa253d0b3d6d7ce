/**
 * The process boundaries, kept by a test rather than by habit. Every import of every source file
 * under src/ (static, `export … from`, `import type`, dynamic `import()` and `require()`, as
 * TypeScript's own pre-processor reads them) is checked against the rules:
 *
 *  - renderer and shared code (src/renderer, src/shared) import no Node built-in, no `electron`,
 *    nothing from src/main or src/preload — they run in a sandboxed page;
 *  - shared code imports nothing from src/renderer either (main and the preload use it too);
 *  - main never imports the renderer or the preload;
 *  - inside main only the desktop shell's files (index.ts, window.ts, ipc.ts, and the desktop app's
 *    shell-commands.ts, single-instance.ts, desktop-workspace.ts) import `electron` (the engine runs
 *    headless in the CLI and serve mode);
 *  - the preload imports only `electron` and src/shared/ipc-channels.ts, which imports nothing
 *    (so its sandboxed bundle requires only `electron`; src/preload/preload.test.ts checks the
 *    built bundle);
 *  - main's layers point one way: the shell (those files) → cli/ and serve/ →
 *    engine/ → the domains (every other folder of main: workspace/, bm25/, gold/, models/, …) →
 *    main's base (errors.ts, worker-bundle.ts) → shared/; a file never imports a higher layer;
 *  - no import cycles, type-only imports included (one file reaching itself through its imports).
 *
 * Test files (`*.test.ts(x)`) are Node-side harnesses and are left out.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../tests/source-files';

const src = path.resolve(import.meta.dirname, '..');

/** Where a source file lives: its top folder under src/. */
type Area = 'main' | 'preload' | 'renderer' | 'shared' | 'other';

interface ImportRef {
  /** The importing file, relative to src/ with forward slashes. */
  from: string;
  /** The specifier as written. */
  spec: string;
  /** For relative specifiers: the area of the imported path. */
  target: Area | null;
}

function areaOf(rel: string): Area {
  const top = rel.split('/')[0];
  return top === 'main' || top === 'preload' || top === 'renderer' || top === 'shared' ? top : 'other';
}

/** Every .ts/.tsx source file under a folder, tests excluded, relative to src/. */
function sources(dir: string): string[] {
  return sourceFiles(dir).map((p) => path.relative(src, p).split(path.sep).join('/'));
}

/** The imports of one file (TypeScript's pre-processor: static, type-only, dynamic and require). */
function importsOf(rel: string): ImportRef[] {
  const info = ts.preProcessFile(readFileSync(path.join(src, rel), 'utf8'), true, true);
  return info.importedFiles.map(({ fileName: spec }) => {
    if (!spec.startsWith('.')) return { from: rel, spec, target: null };
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
    return { from: rel, spec, target: resolved.startsWith('../') ? 'other' : areaOf(resolved) };
  });
}

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isBuiltin = (spec: string): boolean => BUILTINS.has(spec) || spec.startsWith('node:');
const isElectron = (spec: string): boolean => spec === 'electron' || spec.startsWith('electron/');

/** The shell files of main, the only ones that may import electron. */
const SHELL = new Set(['main/index.ts', 'main/window.ts', 'main/ipc.ts', 'main/shell-commands.ts', 'main/single-instance.ts', 'main/desktop-workspace.ts']);

/** The rule an import breaks, or null. */
function broken(r: ImportRef): string | null {
  const a = areaOf(r.from);
  if (a === 'renderer' || a === 'shared') {
    if (isBuiltin(r.spec)) return 'a Node built-in in sandboxed code';
    if (isElectron(r.spec)) return 'electron in sandboxed code';
    if (r.target === 'main' || r.target === 'preload' || r.target === 'other') return `${r.target} code from sandboxed code`;
    if (a === 'shared' && r.target === 'renderer') return 'renderer code from shared code';
  }
  if (a === 'main') {
    if (r.target === 'renderer' || r.target === 'preload') return `${r.target} code from main`;
    if (isElectron(r.spec) && !SHELL.has(r.from)) return 'electron outside the desktop shell (main/index.ts, window.ts, ipc.ts, shell-commands.ts, single-instance.ts, desktop-workspace.ts)';
  }
  if (a === 'preload' && r.spec !== 'electron' && !(r.target === 'shared' && r.spec.endsWith('/shared/ipc-channels'))) return 'the preload imports only electron and shared/ipc-channels';
  if (r.from === 'shared/ipc-channels.ts') return 'shared/ipc-channels.ts imports nothing (it is inlined into the sandboxed preload)';
  return null;
}

/**
 * The layer of a file of main or shared, higher = nearer the user: 5 the desktop shell, 4 cli/ and
 * serve/, 3 engine/, 2 a domain folder, 1 main's base files, 0 shared/. Null elsewhere.
 */
export function layerOf(rel: string): number | null {
  if (rel.startsWith('shared/')) return 0;
  if (!rel.startsWith('main/')) return null;
  if (SHELL.has(rel)) return 5;
  const parts = rel.split('/');
  if (parts.length === 2) return 1;
  const dir = parts[1];
  return dir === 'cli' || dir === 'serve' ? 4 : dir === 'engine' ? 3 : 2;
}

const LAYER_NAMES = ['shared', "main's base", 'a domain', 'the engine', 'cli/serve', 'the shell'];

/** The path (relative to src/, no extension) a relative import names, or null for a package. */
function targetPath(r: ImportRef): string | null {
  return r.spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(r.from), r.spec)) : null;
}

/** Every import from a lower layer of main/shared into a higher one, as "FILE imports 'SPEC': …". */
function layerViolations(refs: readonly ImportRef[], files: readonly string[]): string[] {
  const byStem = fileByStem(files);
  return refs.flatMap((r) => {
    const to = byStem.get(targetPath(r) ?? '');
    const from = layerOf(r.from);
    const target = to === undefined ? null : layerOf(to);
    return from !== null && target !== null && target > from ? [`${r.from} imports '${r.spec}': ${LAYER_NAMES[from]} imports ${LAYER_NAMES[target]}`] : [];
  });
}

/** Source files by the paths imports name them with (no extension; a folder for its index). */
function fileByStem(files: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const f of files) {
    const stem = f.replace(/\.tsx?$/, '');
    m.set(stem, f);
    if (stem.endsWith('/index')) m.set(stem.slice(0, -'/index'.length), f);
  }
  return m;
}

/** The import cycles among `files` (strongly connected components of two or more files, or a file importing itself), each sorted. */
export function importCycles(refs: readonly ImportRef[], files: readonly string[]): string[][] {
  const byStem = fileByStem(files);
  const edges = new Map<string, Set<string>>(files.map((f) => [f, new Set<string>()]));
  for (const r of refs) {
    const to = byStem.get(targetPath(r) ?? '');
    if (to !== undefined) edges.get(r.from)?.add(to);
  }
  // Tarjan's strongly connected components, iterative (deep import chains).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const root of files) {
    if (index.has(root)) continue;
    const work: Array<{ v: string; it: Iterator<string> }> = [];
    const enter = (v: string): void => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      work.push({ v, it: edges.get(v)![Symbol.iterator]() });
    };
    enter(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const n = top.it.next();
      if (!n.done) {
        const w = n.value;
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) === index.get(top.v)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== top.v);
        if (comp.length > 1 || edges.get(top.v)!.has(top.v)) cycles.push(comp.sort());
      }
    }
  }
  return cycles;
}

/** Every import that breaks a rule, as "FILE imports 'SPEC': RULE". */
function violations(refs: readonly ImportRef[]): string[] {
  return refs.flatMap((r) => {
    const why = broken(r);
    return why ? [`${r.from} imports '${r.spec}': ${why}`] : [];
  });
}

const files = sources(src);
const all = files.flatMap(importsOf);

describe('process boundaries (the import graph of src/)', () => {
  it('sees the whole tree', () => {
    for (const a of ['main', 'preload', 'renderer', 'shared'] as const) expect(files.some((f) => areaOf(f) === a), a).toBe(true);
    expect(all.length).toBeGreaterThan(100);
    expect(all.some((r) => r.from === 'preload/index.ts' && r.spec === 'electron')).toBe(true);
  });

  it('every import of src/ keeps the rules', () => {
    expect(violations(all)).toEqual([]);
  });

  it("main's layers point one way: shell → cli/serve → engine → domains → base → shared", () => {
    expect(layerViolations(all, files)).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(importCycles(all, files)).toEqual([]);
  });

  it('catches an upward import and a cycle', () => {
    const fake = ['main/gold/compare.ts', 'main/engine/evaluate.ts', 'main/engine/seeded.ts', 'main/cli/index.ts', 'main/index.ts', 'main/errors.ts', 'shared/gold.ts', 'main/bm25/a.ts', 'main/bm25/b.ts', 'main/bm25/c.ts', 'main/metrics/index.ts', 'main/metrics/x.tsx'];
    const ref = (from: string, spec: string): ImportRef => ({ from, spec, target: null });
    const upward = [
      ref('main/gold/compare.ts', '../engine/evaluate'),
      ref('main/engine/evaluate.ts', '../cli/index'),
      ref('main/cli/index.ts', '../index'),
      ref('main/errors.ts', './gold/compare'),
      ref('shared/gold.ts', '../main/errors'),
    ];
    expect(layerViolations(upward, fake)).toHaveLength(upward.length);
    const downward = [ref('main/index.ts', './cli/index'), ref('main/cli/index.ts', '../engine/evaluate'), ref('main/engine/evaluate.ts', '../gold/compare'), ref('main/gold/compare.ts', '../errors'), ref('main/errors.ts', '../shared/gold'), ref('main/gold/compare.ts', '../bm25/a')];
    expect(layerViolations(downward, fake)).toEqual([]);
    expect(importCycles(downward, fake)).toEqual([]);
    // a → b → c → a (c names its target through a folder's index: bm25/a is a file, metrics a folder), and a file importing itself.
    const loop = [ref('main/bm25/a.ts', './b'), ref('main/bm25/b.ts', './c'), ref('main/bm25/c.ts', '../metrics'), ref('main/metrics/index.ts', '../bm25/a'), ref('main/metrics/x.tsx', './x')];
    expect(importCycles(loop, fake)).toEqual([['main/bm25/a.ts', 'main/bm25/b.ts', 'main/bm25/c.ts', 'main/metrics/index.ts'], ['main/metrics/x.tsx']]);
  });

  it('catches each kind of violation', () => {
    const ref = (from: string, spec: string): ImportRef => {
      const resolved = spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)) : null;
      return { from, spec, target: resolved === null ? null : resolved.startsWith('../') ? 'other' : areaOf(resolved) };
    };
    const bad = [
      ref('renderer/lib/x.ts', 'node:fs'),
      ref('renderer/lib/x.ts', 'path'),
      ref('shared/x.ts', 'electron'),
      ref('renderer/screens/x.tsx', '../../main/engine/engine'),
      ref('shared/x.ts', '../renderer/lib/jobs'),
      ref('shared/x.ts', '../preload/index'),
      ref('main/engine/x.ts', '../../renderer/client'),
      ref('main/engine/x.ts', 'electron'),
      ref('preload/index.ts', '../shared/contract'),
      ref('preload/index.ts', 'node:path'),
      ref('shared/ipc-channels.ts', './roles'),
    ];
    expect(violations(bad)).toHaveLength(bad.length);
    const good = [ref('main/ipc.ts', 'electron'), ref('main/engine/x.ts', '../../shared/contract'), ref('renderer/x.ts', 'react'), ref('preload/index.ts', '../shared/ipc-channels')];
    expect(violations(good)).toEqual([]);
    // TypeScript's pre-processor sees every form of import.
    const info = ts.preProcessFile("import fs from 'node:fs';\nimport type { Engine } from '../main/engine/engine';\nexport * from 'electron';\nconst x = await import('os');\nrequire('child_process');\n", true, true);
    expect(info.importedFiles.map((f) => f.fileName)).toEqual(['node:fs', '../main/engine/engine', 'electron', 'os', 'child_process']);
  });
});
