/**
 * Builds the desktop app's real bundles with the project's own electron-vite configuration
 * (electron.vite.config.ts, read by electron-vite's resolveConfig and built by vite exactly as
 * `electron-vite build` does), into a folder of the caller's choosing instead of out/, so tests
 * never race other builds of the shared out/ folder.
 *
 *  - buildPreload(dir) → dir/preload/index.cjs, the sandboxed preload as it ships;
 *  - buildShell(dir)   → dir/main (index.js, train-worker.js, compute-worker.js), dir/preload and
 *    dir/renderer: the layout of out/, so window.ts finds ../preload/index.cjs and
 *    ../renderer/index.html beside its bundle as in the packaged app.
 */
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

/** The three build configurations electron-vite derives from electron.vite.config.ts, with every outDir under `dir`. */
async function configs(dir: string): Promise<Record<'main' | 'preload' | 'renderer', Record<string, unknown>>> {
  const { resolveConfig } = await import('electron-vite');
  const r = await resolveConfig({ configFile: path.join(root, 'electron.vite.config.ts'), root, build: { outDir: dir }, logLevel: 'warn' }, 'build', 'production');
  const c = r.config as Record<'main' | 'preload' | 'renderer', Record<string, unknown> | undefined> | undefined;
  if (!c?.main || !c.preload || !c.renderer) throw new Error('electron.vite.config.ts must configure main, preload and renderer');
  return { main: c.main, preload: c.preload, renderer: c.renderer };
}

/** Runs one vite build quietly (errors still throw). */
async function viteBuild(config: Record<string, unknown>): Promise<void> {
  const { build } = await import('vite');
  const previous = process.env.NODE_ENV_ELECTRON_VITE;
  process.env.NODE_ENV_ELECTRON_VITE = 'production'; // what `electron-vite build` sets for its plugins
  try {
    // The folder is the caller's own (never out/): emptying it is safe, and silences vite's warning.
    await build({ ...config, build: { ...(config.build as object), emptyOutDir: true }, logLevel: 'warn' });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV_ELECTRON_VITE;
    else process.env.NODE_ENV_ELECTRON_VITE = previous;
  }
}

/** Builds the preload alone; returns the path of the bundle (dir/preload/index.cjs). */
export async function buildPreload(dir: string): Promise<string> {
  await viteBuild((await configs(dir)).preload);
  return path.join(dir, 'preload', 'index.cjs');
}

/** Builds main, preload and renderer into dir/main, dir/preload and dir/renderer. */
export async function buildShell(dir: string): Promise<{ main: string; preload: string; renderer: string }> {
  const c = await configs(dir);
  for (const target of ['main', 'preload', 'renderer'] as const) await viteBuild(c[target]);
  return { main: path.join(dir, 'main', 'index.js'), preload: path.join(dir, 'preload', 'index.cjs'), renderer: path.join(dir, 'renderer', 'index.html') };
}

/**
 * The `require` calls of a CommonJS bundle, read from its text (string-literal arguments only;
 * any other `require(` use is reported as `<dynamic>`).
 */
export function requiredModules(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/\brequire\s*\(\s*([^)]*)\)/g)) {
    const lit = /^(["'])([^"']+)\1$/.exec(m[1]!.trim());
    out.push(lit ? lit[2]! : '<dynamic>');
  }
  return out;
}
