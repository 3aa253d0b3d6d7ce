import { describe, expect, it } from 'vitest';
import { stepTrackedNotice, type TrackedNotice } from './queuedNotice';

const tracked = (): TrackedNotice => ({ id: 7, done: 'Undone: the note', refused: 'Not undone: the note', failed: false });

describe('stepTrackedNotice', () => {
  it('keeps the notice while the op is queued', () => {
    const t = tracked();
    const s = stepTrackedNotice(t, [{ id: 7, state: 'saving' }]);
    expect(s.keep).toBe(true);
    expect(s.notice('Undone: the note')).toBe('Undone: the note');
  });

  it('says the change did not happen once the engine refuses the op', () => {
    const t = tracked();
    const s = stepTrackedNotice(t, [{ id: 7, state: 'failed' }]);
    expect(s.keep).toBe(true);
    expect(s.notice('Undone: the note')).toBe('Not undone: the note');
    // A newer notice is left alone.
    expect(s.notice('Nothing to undo')).toBe('Nothing to undo');
  });

  it('keeps the notice of a saved op, and clears a refusal’s once the op is retried and saved or discarded', () => {
    const saved = stepTrackedNotice(tracked(), []);
    expect(saved.keep).toBe(false);
    expect(saved.notice('Undone: the note')).toBe('Undone: the note');

    const t = tracked();
    stepTrackedNotice(t, [{ id: 7, state: 'failed' }]);
    expect(stepTrackedNotice(t, [{ id: 7, state: 'pending' }]).notice('Not undone: the note')).toBe('Not undone: the note');
    const gone = stepTrackedNotice(t, []);
    expect(gone.keep).toBe(false);
    expect(gone.notice('Not undone: the note')).toBeNull();
  });
});
