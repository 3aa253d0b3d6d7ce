/**
 * A workspace file made read-only as a user meets it, for the read-only specs (desktop and serve
 * mode): not writable. As root, whom chmod does not stop, that takes `chattr +i` (e2fsprogs) on a
 * file system that supports it; without it the spec is skipped, saying why. The file is made
 * writable again after the spec (or sooner: `writableAgain`), so its scratch folder can be removed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { test } from '@playwright/test';

const asRoot = process.getuid?.() === 0;

export interface ReadOnlyFile {
  /** Makes `file` read-only (one file per spec). */
  make: (file: string) => void;
  /** Makes it writable again; nothing when it is not read-only. */
  writableAgain: () => void;
}

/**
 * Skips the spec when no read-only file can be made here, and registers the hook that makes the
 * file writable again after the spec: call it before the hooks that remove the scratch folder.
 */
export function useReadOnlyFile(): ReadOnlyFile {
  const haveChattr = !asRoot || spawnSync('sh', ['-c', 'command -v chattr'], { encoding: 'utf8' }).status === 0;
  test.skip(!haveChattr, 'running as root without chattr (e2fsprogs): no way to make the workspace file read-only for root');
  let readOnly: string | null = null;
  const writableAgain = (): void => {
    if (readOnly === null) return;
    if (asRoot) execFileSync('chattr', ['-i', readOnly]);
    else chmodSync(readOnly, 0o644);
    readOnly = null;
  };
  test.afterAll(writableAgain);
  return {
    make(file) {
      if (asRoot) execFileSync('chattr', ['+i', file]);
      else chmodSync(file, 0o444);
      readOnly = file;
    },
    writableAgain,
  };
}
