import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Builds the Node bundles (CLI, serve mode) so tests that spawn `qpairs` run the current code. */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, [path.join(root, 'scripts/build-node.mjs')], { cwd: root, stdio: 'inherit' });
}
