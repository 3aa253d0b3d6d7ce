/**
 * The packaging configuration (electron-builder.yml), checked without packaging anything:
 * packaging downloads Electron and its tools, impossible on the offline build machines. The file
 * is read by electron-builder's own loader and validated by its own schema check (app-builder-lib's
 * validateConfiguration over the scheme.json it ships), exactly as `electron-builder` does before
 * it builds; then what QPairs needs of it is checked: the three platforms' targets, the built app
 * folders, and an entry point that electron-vite actually writes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/** app-builder-lib as electron-builder itself resolves it. */
const requireFromBuilder = createRequire(createRequire(path.join(root, 'package.json')).resolve('electron-builder'));

interface BuilderConfig {
  appId?: string;
  productName?: string;
  /** As loaded: electron-builder normalizes the list into file sets ({filter: [...]}). */
  files?: Array<string | { filter?: string[] }>;
  asarUnpack?: string[];
  linux?: { target?: string[] };
  mac?: { target?: string[] };
  win?: { target?: string[] };
  directories?: { output?: string };
  [key: string]: unknown;
}

interface ConfigModule {
  getConfig(projectDir: string, configPath?: string | null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, debugLogger: { isEnabled: boolean; add(key: string, value: unknown): void }): Promise<void>;
}

const { getConfig, validateConfiguration } = requireFromBuilder('app-builder-lib/out/util/config/config.js') as ConfigModule;
const quiet = { isEnabled: false, add: () => {} };

describe('electron-builder.yml', () => {
  it('is the configuration electron-builder loads, and passes its schema', async () => {
    const config = await getConfig(root);
    expect(config.appId).toBe('org.qpairs.desktop');
    expect(config.productName).toBe('QPairs');
    await expect(validateConfiguration(config, quiet)).resolves.toBeUndefined();
  });

  it('the schema check would refuse a wrong configuration', async () => {
    const config = await getConfig(root);
    await expect(validateConfiguration({ ...config, linux: { target: ['AppImage'], nope: true } as never }, quiet)).rejects.toThrow(/configuration\.linux/);
    await expect(validateConfiguration({ ...config, nsis: { oneClick: 'sometimes' } as never }, quiet)).rejects.toThrow(/configuration\.nsis/);
  });

  it('targets AppImage and deb, dmg, and an NSIS installer', async () => {
    const config = await getConfig(root);
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('packs what electron-vite builds (main, preload, renderer) and the demo corpus, starting at package.json main', async () => {
    const config = await getConfig(root);
    const files = (config.files ?? []).flatMap((f) => (typeof f === 'string' ? [f] : (f.filter ?? [])));
    for (const f of ['package.json', 'out/main/**', 'out/preload/**', 'out/renderer/**', 'resources/demo/**']) expect(files).toContain(f);
    expect(config.asarUnpack).toContain('**/*.node');
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string; devDependencies: Record<string, string> };
    // electron-vite writes the main entry to out/main/index.js; window.ts loads ../preload/index.cjs.
    expect(path.normalize(pkg.main)).toBe(path.normalize('out/main/index.js'));
    expect(readFileSync(path.join(root, 'electron.vite.config.ts'), 'utf8')).toMatch(/entryFileNames: '\[name\]\.cjs'/);
    expect(readFileSync(path.join(root, 'src/main/window.ts'), 'utf8')).toContain("'../preload/index.cjs'");
    // The packaged Electron is the one the project pins.
    expect(pkg.devDependencies.electron).toMatch(/^\d+\.\d+\.\d+$/);
    expect(config.directories?.output).toBe('dist');
  });
});
