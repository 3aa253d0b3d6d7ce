import { ContractError, wireReason, type WireError } from '../../shared/contract';
import { NotFoundError, QPairsError } from '../errors';

/** Whether an error says the disk (or the SQLite file's quota) is full. */
export function isStorageFull(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (!err || typeof err !== 'object') return false;
  if (err.code === 'SQLITE_FULL' || err.code === 'ENOSPC' || err.code === 'EDQUOT') return true;
  return typeof err.message === 'string' && /database or disk is full|no space left on device/i.test(err.message);
}

/** The plain message of a disk-full refusal (no stack, no path). */
export const STORAGE_FULL_MESSAGE = 'the server’s disk is full: nothing was saved. Labeling resumes once space is freed; retry then.';

/** Whether SQLite found the workspace file damaged (a page it cannot read) while answering. */
function isDamaged(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/**
 * Turns anything thrown by the engine into the WireError every transport sends. Never a stack
 * trace: an internal error sends its first line only (at most 300 characters); the server log
 * keeps the rest.
 */
export function toWireError(e: unknown): WireError {
  if (e instanceof ContractError) return withReason({ message: e.message, code: e.code }, e.reason);
  if (isStorageFull(e)) return { message: STORAGE_FULL_MESSAGE, code: 'storage-full' };
  if (e instanceof NotFoundError) return withReason({ message: e.message, code: 'not-found' }, wireReason(e.details.reason));
  if (e instanceof QPairsError) return withReason({ message: e.message, code: 'user-error' }, wireReason(e.details.reason));
  if (isDamaged(e)) {
    // The open's checks read the header and schema only: damage deeper in the file shows here, on the screens that read it.
    return {
      message:
        `the workspace file is damaged: SQLite met a part of it that it cannot read (${(e as Error).message}). What needs that part cannot work ` +
        `until the workspace is restored from a backup (see "Backups" in the README); whoever runs QPairs can see how much is damaged with: sqlite3 W "PRAGMA integrity_check"`,
      code: 'internal',
    };
  }
  const raw = e instanceof Error ? e.message || e.name : String(e);
  const first = raw.split('\n')[0]!.replace(/\s+at\s+\S+\s*\(.*$/, '').slice(0, 300);
  return { message: `internal error: ${first}`, code: 'internal' };
}

/** The error with its reason code when it has one (no `reason` key otherwise). */
function withReason(w: WireError, reason: WireError['reason']): WireError {
  return reason === undefined ? w : { ...w, reason };
}

/** HTTP status for a WireError code. */
export function statusOf(code: WireError['code']): number {
  switch (code) {
    case 'invalid-argument':
      return 400;
    case 'forbidden':
      return 403;
    case 'not-found':
      return 404;
    case 'user-error':
      return 422;
    case 'busy':
      return 429;
    case 'storage-full':
      return 507;
    case 'internal':
      return 500;
  }
}
