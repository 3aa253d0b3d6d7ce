import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { AppInfo } from '../shared/contract';
import { App } from './App';
import { createClient } from './client';
import { JobStore } from './lib/jobs';
import { AppProvider } from './lib/context';
import { session } from './lib/storage';
import { LabelQueue } from './annotate/labelQueue';
import { recordSaved, UndoHistory } from './annotate/history';
import { retryWhenBack } from './annotate/retryWhenBack';
import './styles.css';
import { stallMsOf } from './client/stall';

const client = createClient();
const jobs = new JobStore(client);
const undo = new UndoHistory(session);
/** The workspace the page was opened on (its first app.info): every label given here is meant for it, until a reload. */
let workspaceId: string | null = null;
let infoLoaded = false;
const workspace = (): string | null => workspaceId;
/**
 * Serve mode: a label with no answer after 20 s is taken as lost on the way and sent again (the network may have swallowed
 * it), unless the server says it still has it (busy): then it is waited for.
 */
const stallMs = stallMsOf(client);
// The outbox is mirrored to sessionStorage (per tab, survives reloads): another tab must never
// re-send this tab's old labels over newer ones.
const outbox = new LabelQueue({
  send: (op, signal, requestId) => client.invoke('label.set', op, { signal, requestId }),
  onHand: client.onHand,
  storage: session,
  workspace,
  stallMs,
  onSaved: (op, ack) => recordSaved(undo, op, ack),
});
// A judge's settled disagreements (Review screen) go through the same kind of durable outbox,
// sent with review.settle; their rulings and reasons join the undo history under the judge's name.
const settles = new LabelQueue({
  send: (op, signal, requestId) =>
    client.invoke(
      'review.settle',
      { pool: op.pool, judge: op.annotator, queryId: op.queryId, candidateId: op.candidateId, value: op.value, ...(op.note !== undefined ? { note: op.note } : {}), ...(op.ifNote !== undefined ? { ifNote: op.ifNote } : {}), ...(op.workspace ? { workspace: op.workspace } : {}), ...(op.stamp ? { stamp: op.stamp } : {}), ...(op.ifRuling !== undefined ? { ifRuling: op.ifRuling } : {}) },
      { signal, requestId },
    ),
  onHand: client.onHand,
  storage: session,
  storageKey: 'qpairs.settleOutbox',
  workspace,
  stallMs,
  // A ruling, a reason given alone, or both: each is one step of the judge's undo.
  onSaved: (op, ack) => recordSaved(undo, op, ack, { review: true }),
});
// When the event stream comes back, or the browser is back online, the server is back: send waiting labels now; after
// a reconnect, read app.info again — the server may have been started again on a read-only file (the label keys then
// say so at once instead of each label being refused), or the person's role may have changed.
retryWhenBack(client, [outbox, settles], window, () => {
  if (infoLoaded) loadInfo(0);
});
// Never let the page go while labels are unsaved (a reload keeps them; closing the tab would not).
window.addEventListener('beforeunload', (e) => {
  if (outbox.counts().unsaved > 0 || settles.counts().unsaved > 0) {
    e.preventDefault();
    e.returnValue = '';
  }
});

const root = createRoot(document.getElementById('root')!);
function render(info: AppInfo | null): void {
  root.render(
    <StrictMode>
      <AppProvider value={{ client, jobs, info, outbox, settles, undo }}>
        <App />
      </AppProvider>
    </StrictMode>,
  );
}

render(null);
const loadInfo = (attempt: number): void => {
  client
    .invoke('app.info', {})
    .then((info) => {
      if (!infoLoaded) {
        workspaceId = info.workspaceId;
        // A reload onto another workspace (the server started again on another file at the same address): the
        // history's changes given in the one before are dropped in one go; u or U says so once (annotate/history.ts).
        if (workspaceId) undo.dropOtherWorkspaces(workspaceId);
      }
      infoLoaded = true;
      render(info);
    })
    .catch(() => setTimeout(() => loadInfo(attempt + 1), Math.min(5000, 500 * 2 ** attempt)));
};
loadInfo(0);
