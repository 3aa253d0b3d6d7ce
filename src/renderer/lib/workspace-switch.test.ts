import { describe, expect, it } from 'vitest';
import { pendingRefusal, switchWorkspace, type SwitchDeps } from './workspace-switch';
import type { WorkspaceSwitch } from '../../shared/shell-contract';

function deps(pending: number, answer: WorkspaceSwitch | Error): SwitchDeps & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    pending: () => pending,
    open: async () => {
      calls.push('open');
      if (answer instanceof Error) throw answer;
      return answer;
    },
    forget: () => calls.push('forget'),
    reload: () => calls.push('reload'),
  };
}

describe('opening another workspace from the page', () => {
  it('labels not saved yet: refused before the shell is asked, the page kept as it is', async () => {
    const d = deps(2, { opened: true, workspaceName: 'b.qpairs' });
    await expect(switchWorkspace(d)).rejects.toThrow('2 labels of this workspace are not saved yet (see Annotate or Review): let them save, or discard them, then open the other workspace.');
    expect(d.calls).toEqual([]);
    expect(pendingRefusal(1)).toContain('1 label of this workspace is not saved yet');
    expect(pendingRefusal(0)).toBeNull();
  });

  it('opened: the tab forgets the old workspace (undo history, outboxes) and then reloads; cancelled or refused: nothing is forgotten', async () => {
    const opened = deps(0, { opened: true, workspaceName: 'b.qpairs' });
    await expect(switchWorkspace(opened)).resolves.toBe(true);
    expect(opened.calls).toEqual(['open', 'forget', 'reload']);
    const cancelled = deps(0, { opened: false });
    await expect(switchWorkspace(cancelled)).resolves.toBe(false);
    expect(cancelled.calls).toEqual(['open']);
    const refused = deps(0, new Error('A job is running in this workspace'));
    await expect(switchWorkspace(refused)).rejects.toThrow('A job is running');
    expect(refused.calls).toEqual(['open']);
  });
});
