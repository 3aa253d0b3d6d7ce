/** Test helper (not used by the app): what a piece of code asks of the workspace. */
import { vi } from 'vitest';
import type { Workspace } from './workspace';

/** The SQL of every statement `ws` is asked for (Workspace.stmt) while `fn` runs, in order. */
export function statementsDuring(ws: Workspace, fn: () => void): string[] {
  const read: string[] = [];
  const original = ws.stmt.bind(ws);
  const spy = vi.spyOn(ws, 'stmt').mockImplementation((sql: string) => {
    read.push(sql);
    return original(sql);
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return read;
}
