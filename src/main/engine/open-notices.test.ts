/**
 * What opening a workspace did reaches its owner in the app (app.info's notices), not only the
 * CLI's stderr and the serve log: an upgrade from an older schema, an interrupted import undone,
 * and a read-only open that found one still in place. Owners only; never the server-side path.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../workspace/migrations';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';

// Made in beforeAll, not when the file loads: a run that skips every test here runs no afterAll either.
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-open-notices-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OWNER = { annotator: null, local: true };
const ANNOTATOR = { annotator: 'alice', local: false };

async function noticesOf(engine: Engine, caller: { annotator: string | null; local: boolean }): Promise<Array<{ kind: string; message: string }>> {
  return ((await engine.invoke('app.info', {}, caller)) as { notices: Array<{ kind: string; message: string }> }).notices;
}

const READ_ONLY_AS_ASKED = {
  kind: 'read-only',
  message: 'This workspace opened read-only (opened read-only as asked): labels, imports and other changes are refused. Once it can be written, open it again.',
};

describe('app.info notices', () => {
  it('an upgraded workspace: the owner is told from which schema, without the path; an annotator is told nothing', async () => {
    const file = path.join(dir, 'old.qpairs');
    writeFileSync(file, gunzipSync(readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/workspaces/v10.qpairs.gz'))));
    const engine = Engine.open(file, { transport: 'http' });
    try {
      engine.ws.ensureAnnotator('alice');
      const notices = await noticesOf(engine, OWNER);
      expect(notices).toEqual([
        {
          kind: 'upgraded',
          message:
            `This workspace was upgraded when it was opened, from workspace schema 10 to ${SCHEMA_VERSION}: ` +
            'the QPairs that wrote it (and any other older QPairs) can no longer open it — upgrade QPairs wherever it is used.',
        },
      ]);
      expect(JSON.stringify(notices)).not.toContain(dir);
      expect(await noticesOf(engine, ANNOTATOR)).toEqual([]);
    } finally {
      engine.close();
    }
    // Opened again, it is today's schema: nothing to say.
    const again = Engine.open(file, { transport: 'http' });
    expect(await noticesOf(again, OWNER)).toEqual([]);
    again.close();
  });

  it('an interrupted import: a read-only open says its rows are still there; an open without the lock leaves it; the writable open holding the lock says it undid it', async () => {
    const file = path.join(dir, 'crashed.qpairs');
    const ws = Workspace.create(file);
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;
    ws.db
      .prepare(`INSERT INTO import_journal(id, token, pid, host, started, what, state, seqs) VALUES (1, 't', ?, ?, '2026-01-01T00:00:00.000Z', 'questions-jsonl import of half.jsonl', 'running', '{}')`)
      .run(deadPid, os.hostname());
    ws.close();

    const ro = new Engine(Workspace.open(file, { readonly: true }), { transport: 'http' });
    expect(await noticesOf(ro, OWNER)).toEqual([
      {
        kind: 'import-left',
        message:
          `The questions-jsonl import of half.jsonl started 2026-01-01T00:00:00.000Z was interrupted (its process ${deadPid} is gone) and its rows so far are still ` +
          'in this read-only workspace: what is read here includes them. They are undone the next time it is opened with write access.',
      },
      READ_ONLY_AS_ASKED,
    ]);
    ro.close();

    // Engine.open (tests, scripts) holds no lock: it leaves the interrupted import, which another process may be
    // recovering (before, it rolled it back before any lock: expected the import-undone notice, and no journal).
    const unlocked = Engine.open(file, { transport: 'http' });
    expect(await noticesOf(unlocked, OWNER)).toEqual([]);
    expect(unlocked.ws.leftWrite).toMatchObject({ what: 'questions-jsonl import of half.jsonl', pid: deadPid });
    expect(unlocked.ws.db.prepare(`SELECT state FROM import_journal`).pluck().all()).toEqual(['running']);
    unlocked.close();

    // The app and serve mode open it holding the lock: it is rolled back then.
    const rw = Engine.openLocked(file, { transport: 'http' }, () => true);
    expect(await noticesOf(rw, OWNER)).toEqual([
      {
        kind: 'import-undone',
        message: 'Undid the questions-jsonl import of half.jsonl started 2026-01-01T00:00:00.000Z, which was interrupted (its process is gone): the workspace is as it was before it.',
      },
    ]);
    rw.close();
  });

  it('a read-only open: its owners are told why (one with a link without server paths); an annotator is not', async () => {
    const file = path.join(dir, 'ro.qpairs');
    const ws = Workspace.create(file);
    ws.ensureAnnotator('alice');
    ws.setAnnotatorRole('dave', 'owner');
    ws.close();
    const ro = new Engine(Workspace.open(file, { readonly: true }), { transport: 'electron' });
    try {
      expect(await noticesOf(ro, OWNER)).toEqual([READ_ONLY_AS_ASKED]);
      const remoteOwner = { annotator: 'dave', local: false };
      expect(((await ro.invoke('app.info', {}, remoteOwner)) as { role: string }).role).toBe('owner');
      expect(await noticesOf(ro, remoteOwner)).toEqual([READ_ONLY_AS_ASKED]);
      expect(await noticesOf(ro, ANNOTATOR)).toEqual([]);
    } finally {
      ro.close();
    }
    // A notice naming the workspace's path reaches an owner with a link by the file's name alone.
    const named = new Engine(Workspace.open(file, { readonly: true }), { transport: 'http', startNotices: [{ kind: 'last-missing', message: `opened ${file} instead` }] });
    try {
      expect((await noticesOf(named, OWNER))[0]).toEqual({ kind: 'last-missing', message: `opened ${file} instead` });
      expect((await noticesOf(named, { annotator: 'dave', local: false }))[0]).toEqual({ kind: 'last-missing', message: 'opened ro.qpairs instead' });
    } finally {
      named.close();
    }
    const rw = Engine.open(file, { transport: 'electron' });
    expect(await noticesOf(rw, OWNER)).toEqual([]);
    rw.close();
  });
});
