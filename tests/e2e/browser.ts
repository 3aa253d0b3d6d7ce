/**
 * Which Chromium the end-to-end tests drive. Tried in order:
 *  1. QPAIRS_CHROMIUM: an executable path (set but missing is an error, not a fallback);
 *  2. an installed browser: Google Chrome or Microsoft Edge through Playwright's `channel` on
 *     macOS and Windows; on Linux the usual paths (/usr/bin/chromium, /usr/bin/google-chrome, …);
 *  3. on Linux x64, the headless Chromium shipped in the npm package @sparticuz/chromium (a
 *     devDependency): unpacked once into node_modules/.cache/qpairs-e2e/ by the global setup
 *     (about a second; it needs no system libraries, and brings Open Sans, used only where the
 *     system has no fonts);
 *  4. otherwise one error that lists what was tried and how to fix it.
 * Never `npx playwright install`: Playwright's own browser downloads are not used.
 *
 * findBrowser() is synchronous so that playwright.config.ts can call it (the runner and every
 * worker load the config); the @sparticuz/chromium path it returns is fixed (the cache folder),
 * and prepareBrowser(), called once by the global setup, unpacks it there before any test runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LaunchOptions } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '../..');
const SPARTICUZ = '@sparticuz/chromium';

/** Flags for every browser: headless, no first-run or background traffic, root-safe. */
const ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface FoundBrowser {
  /** For the log: what was found and how. */
  description: string;
  launchOptions: LaunchOptions;
  /** Set for @sparticuz/chromium: the packed binary still to be unpacked into `dir`. */
  unpack?: { pkgDir: string; version: string; dir: string };
}

export interface MissingBrowser {
  description: string;
  /** The one error message: what was tried, how to fix it. */
  error: string;
}

function launchOptions(o: { executablePath?: string; channel?: string; env?: Record<string, string> }): LaunchOptions {
  return { ...o, args: ARGS };
}

/**
 * Google Chrome / Microsoft Edge at the places Playwright's `channel` looks (macOS, Windows);
 * Chromium.app (no channel of its own) by its path.
 */
function channelCandidates(): { channel?: string; file: string }[] {
  if (process.platform === 'darwin') {
    return [
      { channel: 'chrome', file: '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome' },
      { channel: 'msedge', file: '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge' },
      { file: '/Applications/Chromium.app/Contents/MacOS/Chromium' },
    ];
  }
  if (process.platform === 'win32') {
    const e = process.env;
    const prefixes = [e.LOCALAPPDATA, e.PROGRAMFILES, e['PROGRAMFILES(X86)'], e.HOMEDRIVE && `${e.HOMEDRIVE}\\Program Files`, e.HOMEDRIVE && `${e.HOMEDRIVE}\\Program Files (x86)`].filter(
      (p): p is string => Boolean(p),
    );
    const out: { channel: string; file: string }[] = [];
    for (const [channel, suffix] of [
      ['chrome', 'Google\\Chrome\\Application\\chrome.exe'],
      ['msedge', 'Microsoft\\Edge\\Application\\msedge.exe'],
    ] as const) {
      for (const p of prefixes) out.push({ channel, file: path.win32.join(p, suffix) });
    }
    return out;
  }
  return [];
}

const LINUX_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/microsoft-edge',
  '/usr/bin/microsoft-edge-stable',
  '/snap/bin/chromium',
];

/** The installed @sparticuz/chromium package, or why it cannot be used here. */
function sparticuz(): { pkgDir: string; version: string } | string {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `not usable on ${process.platform}-${process.arch} (Linux x64 only)`;
  let entry: string;
  try {
    entry = createRequire(path.join(root, 'package.json')).resolve(SPARTICUZ);
  } catch {
    return 'not installed (run npm install)';
  }
  const pkgDir = path.resolve(path.dirname(entry), '..');
  const version = (JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  if (!existsSync(path.join(pkgDir, 'bin', 'chromium.br'))) return `incomplete (${path.join(pkgDir, 'bin', 'chromium.br')} is missing)`;
  return { pkgDir, version };
}

/** True when fontconfig has a configuration and some font folder to read (else text would not render). */
function systemFonts(): boolean {
  if (!existsSync('/etc/fonts/fonts.conf')) return false;
  return ['/usr/share/fonts', '/usr/local/share/fonts', path.join(homedir(), '.local/share/fonts'), path.join(homedir(), '.fonts')].some((d) => {
    try {
      return readdirSync(d).length > 0;
    } catch {
      return false;
    }
  });
}

/** Finds a browser without side effects (no unpacking): safe to call from playwright.config.ts. */
export function findBrowser(): FoundBrowser | MissingBrowser {
  const tried: string[] = [];
  const own = process.env.QPAIRS_CHROMIUM;
  if (own) {
    if (existsSync(own)) return { description: `${own} (QPAIRS_CHROMIUM)`, launchOptions: launchOptions({ executablePath: own }) };
    return {
      description: 'none',
      error: `QPAIRS_CHROMIUM is set to ${own}, which does not exist. Point it at a Chrome/Chromium/Edge executable, or unset it to let the tests look for one.`,
    };
  }
  tried.push('QPAIRS_CHROMIUM: not set');

  for (const c of channelCandidates()) {
    if (existsSync(c.file)) {
      return c.channel
        ? { description: `${c.file} (Playwright channel '${c.channel}')`, launchOptions: launchOptions({ channel: c.channel }) }
        : { description: c.file, launchOptions: launchOptions({ executablePath: c.file }) };
    }
    tried.push(`${c.file}: missing`);
  }
  if (process.platform === 'linux') {
    for (const p of LINUX_PATHS) {
      if (existsSync(p)) return { description: p, launchOptions: launchOptions({ executablePath: p }) };
    }
    tried.push(`${LINUX_PATHS.join(', ')}: missing`);
  }

  const s = sparticuz();
  if (typeof s !== 'string') {
    const dir = path.join(root, 'node_modules', '.cache', 'qpairs-e2e', `sparticuz-chromium-${s.version}`);
    // Its own fonts (Open Sans) only where the system has none; otherwise the system's fontconfig.
    const env = systemFonts() ? undefined : { ...(process.env as Record<string, string>), FONTCONFIG_FILE: path.join(dir, 'fonts.conf') };
    return {
      description: `${SPARTICUZ} ${s.version} headless shell, ${path.join(dir, 'chromium')}${env ? ' (with its own fonts)' : ''}`,
      launchOptions: launchOptions({ executablePath: path.join(dir, 'chromium'), ...(env ? { env } : {}) }),
      unpack: { ...s, dir },
    };
  }
  tried.push(`${SPARTICUZ}: ${s}`);

  return {
    description: 'none',
    error: [
      'No Chromium-based browser for the end-to-end tests. Tried:',
      ...tried.map((t) => `  - ${t}`),
      'Fix one of:',
      '  - set QPAIRS_CHROMIUM=/path/to/chrome-or-chromium (any Chrome, Chromium or Edge executable);',
      '  - install Google Chrome, Microsoft Edge or Chromium at its standard location;',
      `  - on Linux x64: npm install (the devDependency ${SPARTICUZ} ships a headless Chromium).`,
      'Do not run "npx playwright install": the tests do not use Playwright\'s browser downloads.',
    ].join('\n'),
  };
}

/** Unpacks @sparticuz/chromium into `dir` (atomically: a half-unpacked folder is never used). */
async function unpack(u: NonNullable<FoundBrowser['unpack']>): Promise<number> {
  const t0 = Date.now();
  const partial = `${u.dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  // The package unpacks into os.tmpdir() (chromium, fonts/, the SwiftShader libraries); a child
  // process with TMPDIR pointed at our folder keeps /tmp clean and this process's env untouched.
  const script = `const m = await import(${JSON.stringify(pathToFileURL(path.join(u.pkgDir, 'build', 'index.js')).href)}); process.stdout.write(await m.default.executablePath());`;
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: partial, TMP: partial, TEMP: partial }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(stdout.trim()) : reject(new Error(`unpacking ${SPARTICUZ} ${u.version} failed (exit ${code}):\n${stderr}`))));
  });
  if (out !== path.join(partial, 'chromium') || !existsSync(out)) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`unpacking ${SPARTICUZ} ${u.version}: expected ${path.join(partial, 'chromium')}, got ${out}`);
  }
  // Used only where the system has no fonts (see findBrowser): system config if any, plus Open Sans.
  writeFileSync(
    path.join(partial, 'fonts.conf'),
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      '<fontconfig>',
      '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
      `  <dir>${path.join(u.dir, 'fonts', 'fonts')}</dir>`,
      `  <cachedir>${path.join(u.dir, 'fontconfig-cache')}</cachedir>`,
      '</fontconfig>',
      '',
    ].join('\n'),
  );
  try {
    renameSync(partial, u.dir);
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(path.join(u.dir, 'chromium'))) throw e; // else another run finished first
  }
  // Other versions' unpacked browsers (~200 MB each) are no longer used.
  const parent = path.dirname(u.dir);
  for (const name of readdirSync(parent)) {
    if (name.startsWith('sparticuz-chromium-') && !name.startsWith(path.basename(u.dir))) rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  return Date.now() - t0;
}

/**
 * For the global setup: the browser, ready to launch (unpacked if it is @sparticuz/chromium), or
 * the one error message. Logs which browser it is.
 */
export async function prepareBrowser(): Promise<FoundBrowser> {
  const b = findBrowser();
  if ('error' in b) {
    const e = new Error(b.error);
    e.stack = `Error: ${b.error}`; // the message says it all; no code frame of this file
    throw e;
  }
  if (b.unpack && !existsSync(path.join(b.unpack.dir, 'chromium'))) {
    const ms = await unpack(b.unpack);
    console.log(`[e2e] unpacked ${SPARTICUZ} ${b.unpack.version} into ${b.unpack.dir} in ${(ms / 1000).toFixed(1)} s`);
  }
  console.log(`[e2e] browser: ${b.description}`);
  return b;
}
