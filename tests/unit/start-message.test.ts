/**
 * `npm start` without the Electron binary points to `npm run serve`; what it says that command opens
 * must be what it opens: the last workspace remembered (recent.json), else the demo — under
 * QPAIRS_CONFIG_DIR when set. It said "without one it opens the demo workspace ~/.qpairs/demo.qpairs".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain .mjs script without type declarations
import { noDesktopMessage } from '../../scripts/start.mjs';
import { rememberWorkspace, startupWorkspace } from '../../src/main/engine/recent-workspace';

const message = noDesktopMessage as (downloadError?: string, env?: Record<string, string | undefined>) => string;

describe('npm start without Electron', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says npm run serve reopens the last workspace, as it does, and names the demo where QPAIRS_CONFIG_DIR puts it', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'qpairs-start-'));
    const demo = path.join(dir, 'demo.qpairs');
    const w = path.join(dir, 'mine.qpairs');
    writeFileSync(w, '');
    rememberWorkspace(dir, w);
    // What serve.mjs does without a path: the remembered workspace, not the demo.
    expect(startupWorkspace(null, dir, demo)).toMatchObject({ workspace: w, reason: 'last' });

    const text = message('fetch failed', { QPAIRS_CONFIG_DIR: dir });
    expect(text).toContain('npm run serve');
    expect(text).toContain('without one it reopens the last workspace you opened, or on a first run the demo workspace ' + demo);
    expect(text).toContain('the download just tried failed: fetch failed');
    expect(message('', {})).toContain('the demo workspace ~/.qpairs/demo.qpairs');
  });
});
