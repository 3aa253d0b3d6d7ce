import { describe, expect, it } from 'vitest';
import { poolsEmptyText } from './NoPools';

describe('poolsEmptyText: the Pools screen with no pool says what to do next', () => {
  it('after an import, to create a pool from its questions — not to import again', () => {
    const text = poolsEmptyText(589);
    expect(text).toBe('No pools yet: create one below from the workspace’s 589 questions.');
    expect(text).not.toMatch(/import/i);
  });

  it('on an empty workspace, to import a corpus first', () => {
    expect(poolsEmptyText(0)).toMatch(/no questions to draw one from: import a corpus on the Workspace screen first/);
  });

  it('one question, and not known yet', () => {
    expect(poolsEmptyText(1)).toBe('No pools yet: create one below from the workspace’s 1 question.');
    expect(poolsEmptyText(null)).toMatch(/^No pools yet: create one below/);
  });
});
