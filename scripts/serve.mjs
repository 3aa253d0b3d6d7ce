// `npm run serve -- [WORKSPACE] [--port 5180] [--host 127.0.0.1] [--require-tokens] [--tokens-file FILE] [--max-trainings N] [--max-upload-mb N] [--token NAME=SECRET]… [--create] [--build]`
//
// Serves the app in a browser (serve mode): builds the renderer when out/renderer is missing
// (or with --build), bundles the server with esbuild, and runs it on Node 22. Without a
// workspace it reopens the last one served (or opened in the desktop app), else
// ~/.qpairs/demo.qpairs (created from resources/demo on first run).
// --create creates WORKSPACE (empty) when it does not exist. --max-upload-mb N: the largest file an
// owner may upload for an import (MiB, default 2048). --max-trainings N: trainings at once (default 1).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { NODE_BUNDLE, NODE_WORKERS } from './node-bundle.mjs';

const root = path.resolve(import.meta.dirname, '..');

// better-sqlite3 needs Node-API 10 (Node 22); re-run on the project's Node when started on an older one.
if (Number(process.versions.node.split('.')[0]) < 22) {
  const node22 = path.join(root, 'node_modules', '.bin', 'node');
  if (!existsSync(node22)) {
    console.error(`serve needs Node 22 or newer (this is ${process.version}); run it through npm: npm run serve`);
    process.exit(1);
  }
  // Asynchronous, forwarding signals: stopping this process must stop the server too.
  const child = spawn(node22, [import.meta.filename, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  await new Promise(() => {}); // wait for the child
}

const USAGE = 'usage: npm run serve -- [WORKSPACE] [--port 5180] [--host 127.0.0.1] [--require-tokens] [--tokens-file FILE] [--max-trainings N] [--token NAME=SECRET]… [--create] [--build] [--max-upload-mb N]';

/** A usage error in one line and the usage, exit 2 (as `qpairs serve` gives one). */
function usageError(text) {
  console.error(`serve: ${text}\n${USAGE}`);
  process.exit(2);
}

/**
 * The command line, or a usage error: a mistyped flag (`--prot 5180`) or one without its value printed
 * Node's parseArgs stack trace, and a second word (`npm run serve -- W.qpairs 5180`, --port left out) was
 * ignored, serving on the default port.
 */
function parseCommandLine() {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        token: { type: 'string', multiple: true },
        'tokens-file': { type: 'string' },
        'require-tokens': { type: 'boolean' },
        'max-trainings': { type: 'string' },
        create: { type: 'boolean' },
        build: { type: 'boolean' },
        'max-upload-mb': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    const unknown = /^Unknown option '([^']+)'/.exec(e.message);
    const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(e.message);
    usageError(unknown ? `unknown option ${unknown[1]}` : missing ? `${missing[1]} needs a value` : e.message);
  }
  if (parsed.positionals.length > 1) usageError(`unexpected argument "${parsed.positionals[1]}": serve takes one WORKSPACE (each option's value follows its --flag, as in --port 5180)`);
  return parsed;
}

const { values, positionals } = parseCommandLine();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
// A workspace given that does not exist: said before anything is built, naming this command's --create
// (it built the app, then said only "create it with `qpairs init W`", as `qpairs serve`, which has no --create).
if (positionals[0] !== undefined && !values.create && !existsSync(path.resolve(positionals[0]))) {
  console.error(`serve: workspace ${path.resolve(positionals[0])} does not exist: add --create to start an empty one there, or create it with \`qpairs init ${positionals[0]}\``);
  process.exit(1);
}

/** Builds the renderer alone (same settings as the renderer section of electron.vite.config.ts). */
async function buildRenderer() {
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  await build({
    configFile: false,
    root: path.join(root, 'src/renderer'),
    base: './',
    plugins: [react()],
    logLevel: 'warn',
    build: {
      outDir: path.join(root, 'out/renderer'),
      emptyOutDir: true,
      target: 'chrome130',
      minify: true,
      sourcemap: false,
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
    },
  });
}

async function bundleServer() {
  const { build } = await import('esbuild');
  // The workers (trainings, agreement reports and comparisons, an import's parsing and tokenizing off the server's thread) are found next to the server bundle.
  const entryPoints = { 'cli-serve': path.join(root, 'src/main/serve/cli-serve.ts') };
  for (const [name, file] of Object.entries(NODE_WORKERS)) entryPoints[name] = path.join(root, file);
  const demo = path.join(root, 'src/main/engine/demo.ts');
  if (existsSync(demo)) entryPoints.demo = demo;
  entryPoints['recent-workspace'] = path.join(root, 'src/main/engine/recent-workspace.ts');
  entryPoints['upload-limit'] = path.join(root, 'src/main/serve/upload-limit.ts');
  entryPoints['serve-flags'] = path.join(root, 'src/main/serve/serve-flags.ts');
  await build({ ...NODE_BUNDLE, entryPoints, outdir: path.join(root, 'out/serve'), splitting: true });
}

/** The values of --port, --max-trainings and --max-upload-mb, checked as `qpairs serve` checks them (a bad one: a usage error, exit 2). */
async function serverFlags() {
  const { uploadLimitBytes } = await import(pathToFileURL(path.join(root, 'out/serve/upload-limit.mjs')).href);
  const { maxTrainingsFlag, portFlag } = await import(pathToFileURL(path.join(root, 'out/serve/serve-flags.mjs')).href);
  try {
    return { port: portFlag(values.port), maxTrainings: maxTrainingsFlag(values['max-trainings']), maxUploadBytes: uploadLimitBytes(values['max-upload-mb']) };
  } catch (e) {
    if (e instanceof RangeError) usageError(e.message);
    throw e;
  }
}

try {
  // The server first: a bad flag value is refused before the app's longer build.
  await bundleServer();
  const { port, maxTrainings, maxUploadBytes } = await serverFlags();
  if (values.build || !existsSync(path.join(root, 'out/renderer/index.html'))) {
    console.log('building the app (renderer)…');
    await buildRenderer();
  }
  const serve = await import(pathToFileURL(path.join(root, 'out/serve/cli-serve.mjs')).href);

  // The workspace given, else the last one served or opened in the app, else the demo.
  const { startupWorkspace, rememberWorkspace } = await import(pathToFileURL(path.join(root, 'out/serve/recent-workspace.mjs')).href);
  // QPAIRS_CONFIG_DIR moves the demo and this memory elsewhere (the tests use a temporary folder).
  const configDir = process.env.QPAIRS_CONFIG_DIR || path.join(os.homedir(), '.qpairs');
  const choice = startupWorkspace(positionals[0] ?? null, configDir, path.join(configDir, 'demo.qpairs'));
  let workspace = choice.workspace;
  if (choice.reason === 'last') console.log(`reopening the last workspace, ${workspace} (give a path to open another)`);
  if (choice.lastMissing) console.log(`the last workspace, ${choice.lastMissing}, is no longer there (moved, renamed or deleted): opening the demo workspace instead (give a path to open another)`);
  if (choice.reason === 'demo') {
    if (!existsSync(workspace)) {
      const demoModule = path.join(root, 'out/serve/demo.mjs');
      if (!existsSync(demoModule)) throw new Error('no workspace given and the demo corpus is not available: give a workspace path');
      mkdirSync(path.dirname(workspace), { recursive: true });
      console.log(`creating the demo workspace ${workspace}…`);
      const { ensureDemoWorkspace } = await import(pathToFileURL(demoModule).href);
      await ensureDemoWorkspace(workspace);
    }
  }
  const code = await serve.serveWorkspace({
    workspace,
    port,
    host: values.host,
    tokens: values.token ?? [],
    tokensFile: values['tokens-file'],
    requireTokens: values['require-tokens'] ?? false,
    maxTrainings,
    create: values.create ?? false,
    maxUploadBytes,
    // Remembered once it is served: a workspace refused at start (written by a newer QPairs, not a workspace,
    // damaged) must not replace the last one that opened, or every later `npm run serve` would reopen the refusal.
    onListening: () => {
      if (choice.reason !== 'demo') rememberWorkspace(configDir, workspace);
    },
  });
  process.exit(code);
} catch (e) {
  console.error(`serve: ${e?.message ?? e}`);
  process.exit(1);
}
