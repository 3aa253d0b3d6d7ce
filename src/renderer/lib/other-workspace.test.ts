import { describe, expect, it } from 'vitest';
import type { AppInfo } from '../../shared/contract';
import { otherWorkspace } from './context';

const info = (workspaceId: string | null, workspaceName = 'b.qpairs'): AppInfo =>
  ({ version: '0', workspaceName, workspaceId, transport: 'http', modelBackend: null, annotator: null, role: 'annotator', local: false, readonly: false, suggestedAnnotator: null, notices: [] }) as AppInfo;

describe('otherWorkspace: the server serves another workspace than the one the page gives its labels in', () => {
  it('names the workspace served now when its id differs', () => {
    expect(otherWorkspace(info('B'), 'A')).toBe('b.qpairs');
  });
  it('nothing while the ids agree, or either is unknown (not read yet, a read-only workspace without one)', () => {
    expect(otherWorkspace(info('A'), 'A')).toBeNull();
    expect(otherWorkspace(info(null), 'A')).toBeNull();
    expect(otherWorkspace(info('B'), null)).toBeNull();
    expect(otherWorkspace(null, 'A')).toBeNull();
  });
});
