/**
 * In place of a form that would change the workspace, while it is open read-only (app.info
 * `readonly`): one line saying why the form is not offered, instead of a form whose action is then
 * refused. What can still be read stays on the screen.
 */
import type { ReactNode } from 'react';

export function ReadOnlyNote({ refused, testId }: { refused: string; testId: string }): ReactNode {
  return (
    <p className="note-box" data-testid={testId}>
      This workspace opened read-only, so {refused} cannot be done here. Once it can be written, open it again.
    </p>
  );
}
