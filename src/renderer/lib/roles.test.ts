import { describe, expect, it } from 'vitest';
import { CALLER_ROLES, commandArgs, commandRoles, roleAllows } from '../../shared/contract';
import { allowedTabs, mayCall, resolveTab, tabForShortcut, TABS } from './roles';

describe('roles', () => {
  it('mayCall follows the contract’s table for every command and role', () => {
    for (const c of Object.keys(commandArgs) as Array<keyof typeof commandArgs>) {
      for (const r of CALLER_ROLES) expect(mayCall(r, c)).toBe(roleAllows(r, commandRoles[c]));
    }
  });

  it('offers each role its screens', () => {
    expect(allowedTabs('annotator')).toEqual(['annotate', 'evaluate', 'browse']);
    expect(allowedTabs('judge')).toEqual(['annotate', 'review', 'agreement', 'evaluate', 'export', 'models', 'browse']);
    expect(allowedTabs('owner')).toEqual(TABS.map((t) => t.id));
  });

  it('every screen of a role can make the calls that screen is about', () => {
    expect(mayCall('annotator', 'annotate.query')).toBe(true);
    expect(mayCall('annotator', 'models.list')).toBe(false);
    expect(mayCall('annotator', 'pool.aggregation')).toBe(false);
    expect(mayCall('judge', 'models.list')).toBe(true);
    expect(mayCall('judge', 'models.delete')).toBe(false);
    expect(mayCall('judge', 'pool.set')).toBe(false);
    expect(mayCall('owner', 'pool.set')).toBe(true);
  });

  it('falls back to the first allowed screen', () => {
    expect(resolveTab('annotator', 'models')).toBe('annotate');
    expect(resolveTab('annotator', 'evaluate')).toBe('evaluate');
    expect(resolveTab('annotator', null)).toBe('annotate');
    expect(resolveTab('judge', 'pools')).toBe('annotate');
    expect(resolveTab('owner', null)).toBe('workspace');
    expect(resolveTab('owner', 'nonsense')).toBe('workspace');
    expect(resolveTab('owner', 'models')).toBe('models');
  });

  it('Alt+N keeps its screen and only switches to allowed ones', () => {
    expect(tabForShortcut('owner', 1)).toBe('workspace');
    expect(tabForShortcut('owner', 8)).toBe('models');
    expect(tabForShortcut('annotator', 1)).toBeNull();
    expect(tabForShortcut('annotator', 3)).toBe('annotate');
    expect(tabForShortcut('annotator', 6)).toBe('evaluate');
    expect(tabForShortcut('annotator', 8)).toBeNull();
    expect(tabForShortcut('judge', 8)).toBe('models');
    expect(tabForShortcut('judge', 2)).toBeNull();
    expect(tabForShortcut('owner', 9)).toBe('browse');
    expect(tabForShortcut('annotator', 9)).toBe('browse');
    expect(tabForShortcut('owner', 10)).toBeNull();
  });
});
