// `npm start`: builds and launches the desktop app when the Electron binary is installed;
// otherwise explains why it cannot, points at `npm run serve`, and exits non-zero.
// The check never requires the `electron` package (that would try to download the binary).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** The Electron executable, or null when it is not installed (no download is attempted). */
export function electronBinary() {
  const dir = path.join(root, 'node_modules', 'electron');
  let rel = 'electron';
  try {
    rel = readFileSync(path.join(dir, 'path.txt'), 'utf8').trim();
  } catch {
    if (!process.env.ELECTRON_OVERRIDE_DIST_PATH) return null;
  }
  const bin = process.env.ELECTRON_OVERRIDE_DIST_PATH
    ? path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH, rel)
    : path.join(dir, 'dist', rel);
  return existsSync(bin) ? bin : null;
}

/**
 * What `npm start` says where the Electron binary is missing: why, and the browser app instead —
 * which, like the desktop app, reopens the last workspace, else the demo (scripts/serve.mjs).
 */
export function noDesktopMessage(downloadError = '', env = process.env) {
  const port = 5180;
  const demo = env.QPAIRS_CONFIG_DIR ? path.join(env.QPAIRS_CONFIG_DIR, 'demo.qpairs') : '~/.qpairs/demo.qpairs';
  return (
    'QPairs cannot start the desktop app here: the Electron binary is not installed on this machine. ' +
    'The electron npm package (45.x) does not ship the binary; it downloads it the first time Electron is ' +
    'required, and that download is not possible here (no access to the Electron release servers, so ' +
    'node_modules/electron/dist is missing and the download just tried failed' +
    (downloadError ? `: ${downloadError.trim()}` : '') +
    '). The same app runs in a browser instead: `npm run serve` ' +
    `builds it and serves it at http://127.0.0.1:${port}/ (add a workspace path, e.g. \`npm run serve -- my.qpairs\`; ` +
    `without one it reopens the last workspace you opened, or on a first run the demo workspace ${demo}). On a machine with network access, ` +
    '`npm start` downloads the binary once and opens the desktop app.'
  );
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  let bin = electronBinary();
  let downloadError = '';
  if (!bin && existsSync(path.join(root, 'node_modules', 'electron', 'install.js'))) {
    // Electron ≥ 42 fetches its binary on first use; do it now, visibly (a connected machine
    // needs this once; on an offline one it fails within a second).
    console.error('The Electron binary is not installed yet: downloading it once (Electron release servers)…');
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'pipe'],
      encoding: 'utf8',
      timeout: 15 * 60_000,
    });
    bin = electronBinary();
    if (!bin) downloadError = (r.stderr || r.error?.message || '').split('\n').find((l) => l.trim()) ?? 'unknown error';
  }
  if (!bin) {
    console.error(noDesktopMessage(downloadError));
    process.exit(1);
  }
  const evite = path.join(root, 'node_modules', '.bin', 'electron-vite');
  const build = spawnSync(evite, ['build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const child = spawn(bin, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  const forward = (sig) => () => child.kill(sig);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
