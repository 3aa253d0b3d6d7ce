// `npm test`: type check, unit tests (vitest), renderer build, end-to-end tests (Playwright in
// the Chromium tests/e2e/browser.ts finds). Runs every stage, prints a summary and one closing line
// "N passed, N failed, N skipped", and exits non-zero when any stage failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
const bin = (n) => path.join(root, 'node_modules', '.bin', n);
const only = process.argv[2]; // optional: typecheck | unit | build | e2e
// Tools run on the project's Node 22 (node_modules/.bin/node) even when this script was started
// by another node: their `#!/usr/bin/env node` finds it first on PATH.
const PATH = `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`;

const stages = [
  { name: 'typecheck', cmd: [bin('tsc'), '--noEmit', '-p', 'tsconfig.json'] },
  { name: 'unit', cmd: [bin('vitest'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(tmp, 'vitest.json')}`] },
  { name: 'build', cmd: [bin('electron-vite'), 'build'] },
  { name: 'e2e', cmd: [bin('playwright'), 'test', '--reporter=list,json'], env: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(tmp, 'playwright.json') }, needs: 'playwright.config.ts' },
];

const totals = { passed: 0, failed: 0, skipped: 0 };
const results = [];
for (const s of stages) {
  if (only && s.name !== only) continue;
  if (s.needs && !existsSync(path.join(root, s.needs))) {
    results.push({ name: s.name, status: `not run (${s.needs} missing)` });
    continue;
  }
  console.log(`\n=== ${s.name}: ${s.cmd.map((c) => path.relative(root, c) || c).join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(s.cmd[0], s.cmd.slice(1), { cwd: root, stdio: 'inherit', env: { ...process.env, PATH, ...(s.env ?? {}) } });
  const ok = r.status === 0;
  results.push({ name: s.name, status: ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`, secs: ((Date.now() - t0) / 1000).toFixed(0) });
  if (!ok && s.name !== 'unit' && s.name !== 'e2e') totals.failed++;
}

function readJson(p) {
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch {
    return null;
  }
}
const vit = readJson(path.join(tmp, 'vitest.json'));
if (vit) {
  totals.passed += vit.numPassedTests ?? 0;
  totals.failed += Math.max(vit.numFailedTests ?? 0, vit.numFailedTestSuites ?? 0);
  totals.skipped += (vit.numPendingTests ?? 0) + (vit.numTodoTests ?? 0);
}
const pw = readJson(path.join(tmp, 'playwright.json'));
if (pw?.stats) {
  totals.passed += (pw.stats.expected ?? 0) + (pw.stats.flaky ?? 0);
  totals.failed += pw.stats.unexpected ?? 0;
  totals.skipped += pw.stats.skipped ?? 0;
}
const failedStage = results.some((r) => r.status.startsWith('FAILED'));
if (failedStage && totals.failed === 0) totals.failed = 1;

console.log('\n=== summary');
for (const r of results) console.log(`${r.name.padEnd(10)} ${r.status}${r.secs ? ` (${r.secs}s)` : ''}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStage ? 1 : 0);
