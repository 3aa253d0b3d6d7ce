/**
 * App keeps each screen's failure to that screen: every tab's screen is drawn inside a
 * ScreenBoundary. screen-boundary.spec.ts pins the boundary itself, around a page of its own;
 * this pins App's wiring around the real screens, which no workspace can make fail (every failure
 * met was a bug, fixed where it was). The served app's script is replaced, for this spec's page
 * only, by the real renderer bundled by esbuild with each screen module App imports swapped for a
 * stand-in that throws while it draws — the swap lives in this spec alone, never in the app. Were a
 * screen drawn outside the boundary, its throw would take the whole page down: no tabs left.
 */
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { expect, test } from '@playwright/test';
import { TABS } from '../../src/renderer/lib/roles';
import { useServedSmallPool } from './small-pool';

const root = path.resolve(import.meta.dirname, '../..');
const app = path.join(root, 'src', 'renderer', 'App.tsx');

test.describe.configure({ mode: 'serial' });

const served = useServedSmallPool('app-screen-boundaries', 115, (ps) => ps.map(([q, c], i) => `${q},${c},ann,${i % 2}`));

/** The screens App imports (`./screens/XScreen`, `./annotate/AnnotateScreen`, …), each a component that throws when drawn. */
const throwingScreens = (swapped: Set<string>): Plugin => ({
  name: 'throwing-screens',
  setup(b) {
    b.onResolve({ filter: /\/[A-Z][A-Za-z]*Screen$/ }, (args) => {
      if (args.importer !== app) return undefined;
      const name = args.path.split('/').pop()!;
      swapped.add(name);
      return { path: name, namespace: 'throwing-screen' };
    });
    b.onLoad({ filter: /.*/, namespace: 'throwing-screen' }, (args) => ({
      contents: `export function ${args.path}() { throw new Error('${args.path} stand-in throws'); }`,
      loader: 'js',
    }));
  },
});

let bundle = '';
const swapped = new Set<string>();

test.beforeAll(async () => {
  const out = await build({
    entryPoints: [path.join(root, 'src', 'renderer', 'main.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    jsx: 'automatic',
    loader: { '.css': 'empty' },
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [throwingScreens(swapped)],
    absWorkingDir: root,
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0]!.text;
});

test('each tab’s screen failing to draw says so in its place, and the tabs stay', async () => {
  // Every screen of the tab bar was swapped (App imports one module per screen).
  expect(swapped.size).toBe(TABS.length);
  const { page } = served;
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.route(/\/assets\/index-[^/]*\.js$/, (route) => route.fulfill({ contentType: 'text/javascript', body: bundle }));
  await page.goto('/#workspace');
  for (const { id } of TABS) {
    await page.getByTestId(`tab-${id}`).click();
    await expect(page.getByTestId(`tab-${id}`)).toHaveAttribute('aria-selected', 'true');
    const failed = page.getByTestId('screen-error');
    await expect(failed).toBeVisible();
    await expect(failed).toContainText(/This screen stopped: [A-Za-z]+Screen stand-in throws\./);
    // The tab bar is still there: the failure stayed in the screen's place.
    await expect(page.getByRole('tablist', { name: 'Screens' }).getByRole('tab')).toHaveCount(TABS.length);
  }
  // Caught by the boundaries, not left to take the page down.
  expect(pageErrors).toEqual([]);
});
