import os from 'node:os';
import { describeHolder, pidAlive, readLock, shellQuote } from '../workspace/lock';
import { undoneSoFar } from '../workspace/undo-last';
import type { UndoMarker } from '../workspace/undo-progress';

/**
 * What a reading command says of an undo of the last import whose process is gone (a kill or crash mid-undo), which it
 * leaves as it is: a command that only reads never writes, and another process may hold the workspace's lock. It names
 * how far the undo got, that what is read includes what is left of the import, and what finishes it — `qpairs import
 * undo W`, or the process writing to the workspace now (serve mode and the app finish it in the background).
 */
export function undoLeftNote(m: UndoMarker, workspace: string): string {
  const holder = readLock(workspace);
  const held = holder !== null && (holder.hostname !== os.hostname() || pidAlive(holder.pid));
  const finish = held
    ? `${describeHolder(holder)} writes to the workspace now (serve mode and the app finish such an undo in the background); ` +
      `otherwise \`qpairs import undo ${shellQuote(workspace)}\` finishes it once that process has ended`
    : `\`qpairs import undo ${shellQuote(workspace)}\` finishes it (so does any command that changes the workspace, and serve mode or the app when they open it)`;
  return (
    `note: the ${m.what} started ${m.started} is partly undone: its undo was interrupted (its process is gone) with ${undoneSoFar(m)}, ` +
    `and this command only reads, so it left it so: what is read here includes what is left of that import. ${finish}`
  );
}

/**
 * What a reading command says of an import a crash or kill interrupted (its process gone) that it could not roll back:
 * it rolls one back only while it holds the workspace's lock for that moment, and `why` it could not (another process
 * holds it: that process rolls it back; or the lock's own refusal).
 */
export function importLeftNote(w: { what: string; pid: number; started: string }, workspace: string, why: string): string {
  const holder = readLock(workspace);
  const held = holder !== null && (holder.hostname !== os.hostname() || pidAlive(holder.pid));
  const who = held
    ? `${describeHolder(holder)} writes to the workspace now, and it undoes them (serve mode and the app as they start, a command before it changes anything)`
    : `the workspace's lock could not be taken (${why}): the next command that can take it undoes them`;
  return (
    `note: the ${w.what} started ${w.started} was interrupted (its process ${w.pid} is gone) and its rows so far are still in the workspace: ` +
    `what is read here includes them. This command only reads, and rolls such an import back only while it can hold the workspace's lock, so it left them: ${who}`
  );
}
