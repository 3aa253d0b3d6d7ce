import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { AppInfo, EventName, EventPayloads } from '../../shared/contract';
import { ACCESS_ENDED, type AppClient, type ConnectionState } from '../client/types';
import type { JobStore } from './jobs';
import type { LabelQueue } from '../annotate/labelQueue';
import type { UndoHistory } from '../annotate/history';

export interface AppContextValue {
  client: AppClient;
  jobs: JobStore;
  info: AppInfo | null;
  /** The label outbox (lives as long as the page, whatever screen is shown). */
  outbox: LabelQueue;
  /** The judge's outbox (Review screen): the same queue, sending review.settle. */
  settles: LabelQueue;
  undo: UndoHistory;
}

const Ctx = createContext<AppContextValue | null>(null);

export function AppProvider({ value, children }: { value: AppContextValue; children: ReactNode }): ReactNode {
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useApp(): AppContextValue {
  const v = useContext(Ctx);
  if (!v) throw new Error('useApp outside AppProvider');
  return v;
}

/** Subscribes to an engine event for the component's lifetime (latest handler always used). */
export function useEvent<E extends EventName>(event: E, handler: (payload: EventPayloads[E]) => void): void {
  const { client } = useApp();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => client.on(event, (p) => ref.current(p)), [client, event]);
}

/**
 * Calls `handler` on every workspace change but a draw (workspace.changed {what: 'draws'}: an
 * annotator given new queries by a pool's labeling order), for views that show nothing a draw
 * changes — no label, pool, run or count — so that each annotator's next query does not make
 * every open screen of every client read again.
 */
export function useWorkspaceChangedExceptDraws(handler: () => void): void {
  useEvent('workspace.changed', (w) => {
    if (w.what !== 'draws') handler();
  });
}

/** Said instead of giving a label, ruling, note, undo or redo once the server refuses this page's token. */
export const NOT_GIVEN_ACCESS_ENDED = `Nothing given: ${ACCESS_ENDED}. What was not saved stays listed.`;

/**
 * Said instead of giving a label or ruling once the server serves another workspace (`name`) than the one the page was
 * opened on (app.info read again on a reconnect): the engine would refuse it (label.set `workspace`).
 */
export const notGivenOtherWorkspace = (name: string): string =>
  `Nothing given: the server now serves another workspace (${name}) than the one this page was opened on. Reload the page to label there; what was not saved stays listed.`;

/** Whether the server now serves another workspace than the one the page's labels are given in (its name then), else null. */
export function otherWorkspace(info: AppInfo | null, givenIn: string | null): string | null {
  return info?.workspaceId && givenIn && info.workspaceId !== givenIn ? info.workspaceName : null;
}

/** Said instead of giving a label or ruling while the workspace is open read-only (app.info `readonly`): the engine would refuse it. */
export const NOT_GIVEN_READ_ONLY = 'Nothing given: this workspace opened read-only. Once it can be written, open it again.';

/**
 * Whether the server has refused this page's token (connection state "ended": revoked, or a newer
 * link made). Final: nothing given from then on can be saved.
 */
export function useAccessEnded(): boolean {
  const { client } = useApp();
  const [ended, setEnded] = useState(false);
  useEffect(() => client.onConnection((s) => setEnded(s === 'ended')), [client]);
  return ended;
}

/** Calls `handler` whenever the event stream reconnects (events may have been missed). */
export function useReconnect(handler: () => void): void {
  const { client } = useApp();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    let last: ConnectionState | null = null;
    return client.onConnection((s) => {
      if (s === 'open' && last === 'closed') ref.current();
      last = s;
    });
  }, [client]);
}

export function useJobs(): JobStore {
  const { jobs } = useApp();
  useSyncExternalStore(jobs.subscribe, jobs.snapshot);
  return jobs;
}
