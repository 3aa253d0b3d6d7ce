import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastWorkspace, rememberWorkspace, startupWorkspace } from './recent-workspace';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = (): string => {
  const d = mkdtempSync(path.join(tmpdir(), 'qpairs-recent-'));
  dirs.push(d);
  return d;
};

describe('the workspace opened at start-up', () => {
  it('first run: the demo; later runs: the last one opened; a path on the command line wins', () => {
    const config = path.join(tmp(), 'config');
    const demo = path.join(config, 'demo.qpairs');
    expect(startupWorkspace(null, config, demo)).toEqual({ workspace: demo, reason: 'demo' });
    const mine = path.join(tmp(), 'mine.qpairs');
    writeFileSync(mine, '');
    rememberWorkspace(config, mine);
    expect(JSON.parse(readFileSync(path.join(config, 'recent.json'), 'utf8'))).toEqual({ lastWorkspace: mine });
    expect(startupWorkspace(null, config, demo)).toEqual({ workspace: mine, reason: 'last' });
    expect(startupWorkspace('other.qpairs', config, demo)).toEqual({ workspace: path.resolve('other.qpairs'), reason: 'given' });
  });

  it('a remembered workspace that is gone, or a damaged memory, falls back to the demo', () => {
    const config = tmp();
    const gone = path.join(config, 'gone.qpairs');
    rememberWorkspace(config, gone);
    expect(lastWorkspace(config)).toBeNull();
    writeFileSync(path.join(config, 'recent.json'), '{not json');
    expect(lastWorkspace(config)).toBeNull();
    writeFileSync(path.join(config, 'recent.json'), JSON.stringify({ lastWorkspace: 'relative.qpairs' }));
    expect(lastWorkspace(config)).toBeNull();
    expect(startupWorkspace(null, config, '/demo.qpairs').reason).toBe('demo');
  });

  it('says which remembered workspace is gone when it falls back to the demo (the app tells its user)', () => {
    const config = tmp();
    const demo = path.join(config, 'demo.qpairs');
    expect(startupWorkspace(null, config, demo)).toEqual({ workspace: demo, reason: 'demo' });
    const gone = path.join(config, 'gone.qpairs');
    rememberWorkspace(config, gone);
    expect(startupWorkspace(null, config, demo)).toEqual({ workspace: demo, reason: 'demo', lastMissing: gone });
    // A path on the command line does not reopen it: nothing to say.
    expect(startupWorkspace('x.qpairs', config, demo).lastMissing).toBeUndefined();
    // The demo itself remembered, and deleted: it is made again, as on a first run.
    rememberWorkspace(config, demo);
    expect(startupWorkspace(null, config, demo)).toEqual({ workspace: demo, reason: 'demo' });
  });

  it('remembering never throws, even where nothing can be written', () => {
    const file = path.join(tmp(), 'a-file');
    writeFileSync(file, '');
    expect(() => rememberWorkspace(path.join(file, 'sub'), '/x.qpairs')).not.toThrow();
  });
});
