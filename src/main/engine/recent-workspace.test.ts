import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastWorkspace, RECENT_MAX, recentWorkspaces, rememberWorkspace, startupWorkspace } from './recent-workspace';

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
    expect(JSON.parse(readFileSync(path.join(config, 'recent.json'), 'utf8'))).toEqual({ lastWorkspace: mine, recent: [mine] });
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

describe('the recent workspaces', () => {
  it('newest first, each once, at most RECENT_MAX; moved ones are still listed (the app says they are gone)', () => {
    const config = path.join(tmp(), 'config');
    expect(recentWorkspaces(config)).toEqual([]);
    const d = tmp();
    const names = Array.from({ length: RECENT_MAX + 2 }, (_, i) => path.join(d, `w${i}.qpairs`));
    for (const n of names) rememberWorkspace(config, n);
    rememberWorkspace(config, names[3]!);
    const list = recentWorkspaces(config);
    expect(list).toHaveLength(RECENT_MAX);
    expect(list[0]).toBe(names[3]);
    expect(list.slice(1)).toEqual(names.filter((n) => n !== names[3]).reverse().slice(0, RECENT_MAX - 1));
    expect(lastWorkspace(config)).toBeNull(); // none of them exists: listed, never reopened
  });

  it('a memory written before the list was kept gives its last workspace alone; junk entries are dropped', () => {
    const config = tmp();
    writeFileSync(path.join(config, 'recent.json'), JSON.stringify({ lastWorkspace: '/a/old.qpairs' }));
    expect(recentWorkspaces(config)).toEqual(['/a/old.qpairs']);
    writeFileSync(path.join(config, 'recent.json'), JSON.stringify({ lastWorkspace: '/a/x.qpairs', recent: ['relative.qpairs', 7, '/a/x.qpairs', '/b/y.qpairs'] }));
    expect(recentWorkspaces(config)).toEqual(['/a/x.qpairs', '/b/y.qpairs']);
  });
});
