/**
 * The workspace's own id (a random one kept in its `meta` table, made the first time an engine
 * opens it writable), which app.info gives pages. A page's queued labels carry the id of the
 * workspace they were given in: a server started again on another workspace at the same address
 * refuses them instead of saving them there (label.set / review.settle `workspace`), and an undo or a redo of a label
 * given in another (label.undo `workspace`; a redo is a label.set or review.settle naming the undone label's).
 */
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { CommandName } from '../../shared/contract';
import { QPairsError } from '../errors';
import type { Workspace } from '../workspace/workspace';

const KEY = 'workspace_id';

/**
 * The workspace's id, made and kept now when it has none and can be written; null for a read-only one without (or one
 * another process is writing to as it opens: its pages' labels then carry no id, and are taken as before ids were kept).
 */
export function ensureWorkspaceId(ws: Workspace): string | null {
  const kept = ws.getMeta(KEY);
  if (kept || ws.readonly) return kept;
  // Letters only (24 of them, ~112 random bits): no digit in it can read as a label value or a number in a response.
  const id = Array.from(randomBytes(24), (b) => String.fromCharCode(97 + (b % 26))).join('');
  try {
    ws.setMeta(KEY, id);
  } catch {
    return null;
  }
  return id;
}

/**
 * Refuses a label given in another workspace (its `workspace` is not `id`), or an undo of one (label.undo: the page's
 * undo history keeps where each label was given, also across a reload); nothing is saved or undone then.
 */
export function checkSameWorkspace(ws: Workspace, id: string | null, command: CommandName, args: unknown): void {
  if (command !== 'label.set' && command !== 'review.settle' && command !== 'label.undo') return;
  const given = (args as { workspace?: string }).workspace;
  if (given === undefined || given === id) return;
  if (command === 'label.undo') {
    throw new QPairsError(
      `not undone: the label was given in another workspace than the one open here (${basename(ws.path)}), as when a server is started ` +
        `again on another workspace at the same address; it can be undone only there.`,
    );
  }
  throw new QPairsError(
    `not saved: it was given in another workspace than the one open here (${basename(ws.path)}), as when a server is started again on ` +
      `another workspace at the same address. Discard it; reload the page to label in ${basename(ws.path)}.`,
  );
}
