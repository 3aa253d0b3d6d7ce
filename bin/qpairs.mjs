#!/usr/bin/env node
// The `qpairs` command. QPairs needs Node >= 22 (better-sqlite3 13 targets Node-API 10); the
// project pins Node 22 as a devDependency, so when an older `node` runs this file we re-run it
// with that one instead of crashing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  const pinned = path.join(here, '..', 'node_modules', 'node', 'bin', 'node');
  if (existsSync(pinned)) {
    const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
    // Pass signals on, so stopping this process stops the real one (no orphaned servers).
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
    child.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
    await new Promise(() => {});
  }
  console.error(`qpairs needs Node.js 22 or newer (this is ${process.versions.node}). Run it through npx, or install Node 22.`);
  process.exit(1);
}
const cli = path.join(here, '..', 'out', 'node', 'qpairs.mjs');
if (!existsSync(cli)) {
  console.error('qpairs is not built yet: run `npm install` (or `npm run build:node`) in the QPairs checkout.');
  process.exit(1);
}
const { main } = await import(pathToFileURL(cli).href);
process.exitCode = await main(process.argv.slice(2));
