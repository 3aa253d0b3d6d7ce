import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { QPairsError } from '../errors';

/**
 * Writes files atomically: each goes to a temporary file in its target folder (written and
 * fsynced), and only when all are written are they renamed over their targets. A failure
 * removes the temporary files and leaves the targets untouched (a crash between two renames can
 * leave some files renamed; each file is always either old or new, never partial).
 */
export function writeFilesAtomic(files: ReadonlyArray<{ path: string; content: string }>): void {
  const temps: Array<{ tmp: string; path: string }> = [];
  try {
    for (const f of files) {
      const dir = path.dirname(f.path);
      const tmp = path.join(dir, `.${path.basename(f.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
      let fd: number;
      try {
        fd = openSync(tmp, 'wx');
      } catch (e) {
        throw new QPairsError(`cannot write ${f.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file: f.path });
      }
      temps.push({ tmp, path: f.path });
      try {
        writeSync(fd, f.content);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    for (const t of temps) renameSync(t.tmp, t.path);
  } catch (e) {
    for (const t of temps) {
      try {
        unlinkSync(t.tmp);
      } catch {
        /* already renamed or gone */
      }
    }
    if (e instanceof QPairsError) throw e;
    throw new QPairsError(`export failed: ${(e as Error).message}`);
  }
}
