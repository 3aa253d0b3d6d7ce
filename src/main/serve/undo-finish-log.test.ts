/**
 * Serve mode started on a workspace whose undo of its last import a kill stopped partway: it listens before the
 * undo is finished (a background job), and its log says it is finishing it, then that it finished it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importTuning } from '../engine/work';
import { SEED_QUESTIONS, workspaceWithKilledUndo } from '../engine/test-undo';
import { Workspace } from '../workspace/workspace';
import { serveWorkspace } from './cli-serve';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-serve-undo-finish-'));
});
afterEach(() => {
  importTuning.chunkMs = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('serve mode on a workspace whose undo a kill stopped partway', () => {
  it('listens at once, finishes the undo in the background and says so in its log, then that it finished', async () => {
    const { file } = await workspaceWithKilledUndo(dir);
    importTuning.chunkMs = undefined;
    const lines: string[] = [];
    let stop!: () => void;
    let listening = false;
    let linesAtListening = 0;
    const done = serveWorkspace({
      workspace: file,
      port: 0,
      host: '127.0.0.1',
      staticDir: dir,
      log: (l) => lines.push(l),
      until: new Promise<void>((r) => (stop = r)),
      onListening: () => {
        listening = true;
        linesAtListening = lines.length;
      },
    });
    while (!listening) await new Promise((r) => setTimeout(r, 5));
    // Listening before the undo was finished (before, the open finished it first and the log said so before anything else).
    expect(lines.slice(0, linesAtListening).join('\n')).not.toMatch(/finished undoing/);
    expect(lines[0]).toMatch(
      /^note: finishing the undo of the questions-jsonl import of wrong\.jsonl started \S+, whose undo was interrupted \(its process is gone\), in the background \([\d,]+ of [\d,]+ rows and journal entries done when it began; .*\): labels and reads are answered meanwhile; imports are refused until it is done$/,
    );
    while (!lines.some((l) => l.startsWith('note: finished undoing'))) await new Promise((r) => setTimeout(r, 5));
    expect(lines.find((l) => l.startsWith('note: finished undoing'))).toMatch(
      /^note: finished undoing the questions-jsonl import of wrong\.jsonl started \S+, whose undo was interrupted \(its process is gone\): undid the .*took out 20,000 questions/,
    );
    stop();
    expect(await done).toBe(0);
    const ws = Workspace.open(file, { readonly: true });
    expect(ws.questionCount()).toBe(SEED_QUESTIONS);
    ws.close();
  });
});
