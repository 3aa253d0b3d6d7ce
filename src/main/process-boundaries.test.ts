/**
 * The process boundaries, kept by a test rather than by habit. Every import of every source file
 * under src/ (static, `export … from`, `import type`, dynamic `import()` and `require()`, as
 * TypeScript's own pre-processor reads them) is checked against the rules:
 *
 *  - renderer and shared code (src/renderer, src/shared) import no Node built-in, no `electron`,
 *    nothing from src/main or src/preload — they run in a sandboxed page;
 *  - shared code imports nothing from src/renderer either (main and the preload use it too);
 *  - main never imports the renderer or the preload;
 *  - inside main only index.ts, window.ts and ipc.ts import `electron` (the engine runs headless
 *    in the CLI and serve mode);
 *  - the preload imports only `electron` and src/shared/ipc-channels.ts, which imports nothing
 *    (so its sandboxed bundle requires only `electron`; src/preload/preload.test.ts checks the
 *    built bundle).
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
const SHELL = new Set(['main/index.ts', 'main/window.ts', 'main/ipc.ts']);

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
    if (isElectron(r.spec) && !SHELL.has(r.from)) return 'electron outside main/index.ts, window.ts, ipc.ts';
  }
  if (a === 'preload' && r.spec !== 'electron' && !(r.target === 'shared' && r.spec.endsWith('/shared/ipc-channels'))) return 'the preload imports only electron and shared/ipc-channels';
  if (r.from === 'shared/ipc-channels.ts') return 'shared/ipc-channels.ts imports nothing (it is inlined into the sandboxed preload)';
  return null;
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
