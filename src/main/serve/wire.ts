import { ContractError, type WireError } from '../../shared/contract';
import { NotFoundError, QPairsError } from '../errors';

/** Turns anything thrown by the engine into the WireError every transport sends. */
export function toWireError(e: unknown): WireError {
  if (e instanceof ContractError) return { message: e.message, code: e.code };
  if (e instanceof NotFoundError) return { message: e.message, code: 'not-found' };
  if (e instanceof QPairsError) return { message: e.message, code: 'user-error' };
  if (e instanceof Error) return { message: e.message || e.name, code: 'internal' };
  return { message: String(e), code: 'internal' };
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
    case 'internal':
      return 500;
  }
}
