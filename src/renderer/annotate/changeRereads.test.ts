import { describe, expect, it } from 'vitest';
import { rereadsOpenQuery } from './changeRereads';

describe('the query on Annotate is read again', () => {
  it('after an import or undo that changed its pool (scores or text in place too), not after one that changed only others', () => {
    expect(rereadsOpenQuery({ what: 'import', pools: ['open'] }, 'open')).toBe(true);
    expect(rereadsOpenQuery({ what: 'import', pools: ['a', 'open'] }, 'open')).toBe(true);
    expect(rereadsOpenQuery({ what: 'import', pools: ['sealed'] }, 'open')).toBe(false);
    expect(rereadsOpenQuery({ what: 'import', pools: [] }, 'open')).toBe(false);
    // An import event that names no pools at all (which pools it changed is not known).
    expect(rereadsOpenQuery({ what: 'import' }, 'open')).toBe(true);
  });

  it('after its guidelines, runs, pool settings or a draw change, as before; not a team change', () => {
    for (const what of ['guidelines', 'run', 'pool', 'draws'] as const) expect(rereadsOpenQuery({ what, pool: 'open' }, 'open')).toBe(true);
    expect(rereadsOpenQuery({ what: 'team', annotator: 'bob' }, 'open')).toBe(false);
  });
});
