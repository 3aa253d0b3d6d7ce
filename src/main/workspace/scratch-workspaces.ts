/** A scratch folder per test with the workspaces made in it, for tests (not part of the app). */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { Workspace } from './workspace';

export interface ScratchWorkspaces {
  /** This test's folder (a new one per test, under the OS temp folder). */
  readonly dir: string;
  /** A new workspace `<name>.qpairs` in the folder, closed after the test. */
  fresh(name: string): Workspace;
}

/** Registers the hooks: before each test a new folder named `<prefix>…`; after it, its workspaces closed and the folder removed. */
export function scratchWorkspaces(prefix: string): ScratchWorkspaces {
  let dir = '';
  const open: Workspace[] = [];
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => {
    while (open.length) open.pop()!.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    fresh(name) {
      const ws = Workspace.create(path.join(dir, `${name}.qpairs`));
      open.push(ws);
      return ws;
    },
  };
}
