import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { PoolInfo } from '../shared/contract';
import type { ConnectionState } from './client/types';
import { useApp, useEvent, useReconnect } from './lib/context';
import { local } from './lib/storage';
import { useStoredString } from './lib/hooks';
import { errorMessage } from './lib/format';
import { WorkspaceScreen } from './screens/WorkspaceScreen';
import { PoolsScreen } from './screens/PoolsScreen';
import { AnnotateScreen } from './annotate/AnnotateScreen';
import { EvaluateScreen } from './screens/EvaluateScreen';
import { ReviewScreen } from './review/ReviewScreen';
import { AgreementScreen } from './screens/AgreementScreen';
import { ExportScreen } from './screens/ExportScreen';
import { ModelsScreen } from './screens/ModelsScreen';

export type Tab = 'workspace' | 'pools' | 'annotate' | 'review' | 'agreement' | 'evaluate' | 'export' | 'models';
const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'workspace', label: 'Workspace' },
  { id: 'pools', label: 'Pools' },
  { id: 'annotate', label: 'Annotate' },
  { id: 'review', label: 'Review' },
  { id: 'agreement', label: 'Agreement' },
  { id: 'evaluate', label: 'Evaluate' },
  { id: 'export', label: 'Export' },
  { id: 'models', label: 'Models' },
];

/** A request to show one disagreement (or the first of a query) on the Review screen. */
export interface ReviewFocus {
  pool: string;
  queryId: string;
  candidateId?: string;
}

function tabFromHash(): Tab {
  const h = window.location.hash.replace(/^#\/?/, '');
  return (TABS.find((t) => t.id === h)?.id ?? (local.getItem('qpairs.tab') as Tab | null) ?? 'workspace') as Tab;
}

export { useStoredString } from './lib/hooks';

export interface SharedState {
  pools: PoolInfo[];
  poolsError: string | null;
  refreshPools: () => void;
  pool: string;
  setPool: (p: string) => void;
  annotator: string;
  setAnnotator: (a: string) => void;
  /** Set in serve mode with tokens: the token's annotator, fixed. */
  lockedAnnotator: string | null;
  goTo: (tab: Tab) => void;
  /** The query last shown on the Annotate screen (Evaluate's drill-down starts there). */
  lastQueryId: string;
  setLastQueryId: (q: string) => void;
  /** Set by the Agreement screen's disagreement list; the Review screen moves there and clears it. */
  reviewFocus: ReviewFocus | null;
  openReview: (focus: ReviewFocus) => void;
  clearReviewFocus: () => void;
  /** The tfjs backend the engine's models run on, once known (app.info or models.list). */
  modelBackend: string | null;
  setModelBackend: (b: string) => void;
}

export function App(): ReactNode {
  const { client, info } = useApp();
  const [tab, setTabState] = useState<Tab>(tabFromHash);
  const [conn, setConn] = useState<ConnectionState>('connecting');
  const [pools, setPools] = useState<PoolInfo[]>([]);
  const [poolsError, setPoolsError] = useState<string | null>(null);
  const [pool, setPool] = useStoredString('qpairs.pool', '');
  const [storedAnnotator, setAnnotator] = useStoredString('qpairs.annotator', '');
  const [lastQueryId, setLastQueryId] = useState('');
  const [reviewFocus, setReviewFocus] = useState<ReviewFocus | null>(null);
  const [knownBackend, setModelBackend] = useState<string | null>(null);
  const modelBackend = knownBackend ?? info?.modelBackend ?? null;
  const lockedAnnotator = info?.annotator ?? null;
  const annotator = lockedAnnotator ?? storedAnnotator;

  const goTo = useCallback((t: Tab) => {
    setTabState(t);
    local.setItem('qpairs.tab', t);
    if (window.location.hash !== `#${t}`) history.replaceState(null, '', `#${t}`);
  }, []);

  const refreshPools = useCallback(() => {
    client
      .invoke('pool.list', {})
      .then((p) => {
        setPools(p);
        setPoolsError(null);
      })
      .catch((e: unknown) => setPoolsError(errorMessage(e)));
  }, [client]);

  useEffect(refreshPools, [refreshPools]);
  useEvent('workspace.changed', refreshPools);
  useReconnect(refreshPools);
  useEffect(() => client.onConnection(setConn), [client]);

  // Keep a valid pool selected.
  useEffect(() => {
    if (pools.length && !pools.some((p) => p.name === pool)) setPool(pools[0]!.name);
  }, [pools, pool, setPool]);

  useEffect(() => {
    const onHash = (): void => setTabState(tabFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const openReview = useCallback(
    (focus: ReviewFocus) => {
      setReviewFocus(focus);
      setPool(focus.pool);
      goTo('review');
    },
    [goTo, setPool],
  );
  const clearReviewFocus = useCallback(() => setReviewFocus(null), []);

  // Alt+1…8 switch screens (plain digits are label keys on the Annotate and Review screens).
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const i = TABS.findIndex((_, j) => e.code === `Digit${j + 1}`);
      if (i >= 0) {
        e.preventDefault();
        goTo(TABS[i]!.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [goTo]);

  useEffect(() => {
    const name = info?.workspacePath ? info.workspacePath.split(/[\\/]/).pop() : null;
    document.title = name ? `QPairs — ${name}` : 'QPairs';
  }, [info]);

  const shared: SharedState = {
    pools,
    poolsError,
    refreshPools,
    pool,
    setPool,
    annotator,
    setAnnotator,
    lockedAnnotator,
    goTo,
    lastQueryId,
    setLastQueryId,
    reviewFocus,
    openReview,
    clearReviewFocus,
    modelBackend,
    setModelBackend,
  };

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">QPairs</span>
        <nav className="tabs" role="tablist" aria-label="Screens">
          {TABS.map((t, i) => (
            <button
              key={t.id}
              role="tab"
              aria-selected={tab === t.id}
              className={tab === t.id ? 'tab active' : 'tab'}
              data-testid={`tab-${t.id}`}
              title={`${t.label} (Alt+${i + 1})`}
              onClick={() => goTo(t.id)}
            >
              {t.label}
            </button>
          ))}
        </nav>
        <span className="spacer" />
        {info && (
          <span className="muted small" title={info.workspacePath} data-testid="workspace-path">
            {info.workspacePath.split(/[\\/]/).pop()}
          </span>
        )}
        {modelBackend && (
          <button
            className="backend-chip"
            data-testid="header-backend"
            title={`Models run on the tfjs ${modelBackend} backend (Models screen, Alt+${TABS.findIndex((t) => t.id === 'models') + 1})`}
            onClick={() => goTo('models')}
          >
            tfjs {modelBackend}
          </button>
        )}
        <span className={`conn conn-${conn}`} data-testid="connection" data-state={conn} title="Live updates from the engine">
          {conn === 'open' ? 'connected' : conn === 'connecting' ? 'connecting…' : 'offline — reconnecting'}
        </span>
      </header>
      <main className="screen">
        {tab === 'workspace' && <WorkspaceScreen shared={shared} />}
        {tab === 'pools' && <PoolsScreen shared={shared} />}
        {tab === 'annotate' && <AnnotateScreen shared={shared} />}
        {tab === 'review' && <ReviewScreen shared={shared} />}
        {tab === 'agreement' && <AgreementScreen shared={shared} />}
        {tab === 'evaluate' && <EvaluateScreen shared={shared} />}
        {tab === 'export' && <ExportScreen shared={shared} />}
        {tab === 'models' && <ModelsScreen shared={shared} />}
      </main>
    </div>
  );
}
