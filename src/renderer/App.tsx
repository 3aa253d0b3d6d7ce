import { useCallback, useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import type { CallerRole, PoolInfo } from '../shared/contract';
import type { ConnectionState } from './client/types';
import type { ReviewFocus, SharedState } from './lib/shared-state';
import { useApp, useReconnect, useWorkspaceChangedExceptDraws } from './lib/context';
import { local } from './lib/storage';
import { useStoredString } from './lib/hooks';
import { errorMessage } from './lib/format';
import { poolToJudge, poolWithWork } from './lib/next-work';
import { isTab, resolveTab, ROLE_HELP, TABS, tabForShortcut, type Tab } from './lib/roles';
import { roleAllows, SHELL_COMMAND_ROLE } from '../shared/roles';
import { WorkspaceScreen } from './screens/WorkspaceScreen';
import { PoolsScreen } from './screens/PoolsScreen';
import { AnnotateScreen } from './annotate/AnnotateScreen';
import { EvaluateScreen } from './screens/EvaluateScreen';
import { ReviewScreen } from './review/ReviewScreen';
import { AgreementScreen } from './screens/AgreementScreen';
import { ExportScreen } from './screens/ExportScreen';
import { ModelsScreen } from './screens/ModelsScreen';
import { BrowseScreen } from './screens/BrowseScreen';
import { ShortcutOverlay } from './components/ShortcutOverlay';
import { OpenNotices } from './components/OpenNotices';
import { WorkspaceMenu } from './components/WorkspaceMenu';
import { SecondLaunchNotice } from './components/SecondLaunchNotice';
import { ScreenBoundary } from './components/ScreenBoundary';
import { ConnectionChip } from './components/ConnectionChip';
import { useTheme } from './lib/theme';
import { isActivationTarget, isTypingTarget } from './lib/typing';
import { useTextBoxesInView } from './lib/text-box-in-view';

/** The screen asked for: the address's #hash (`hash`), else the one last shown (whether the role may see it is decided later). */
function tabFromHash(hash: string = window.location.hash): string | null {
  const h = hash.replace(/^#\/?/, '');
  if (isTab(h)) return h;
  const stored = local.getItem('qpairs.tab');
  return isTab(stored) ? stored : null;
}

export function App(): ReactNode {
  const { client, info } = useApp();
  const [wanted, setWanted] = useState<string | null>(tabFromHash);
  const role: CallerRole | null = info?.role ?? null;
  const [conn, setConn] = useState<ConnectionState>('connecting');
  const [pools, setPools] = useState<PoolInfo[] | null>(null);
  // Until app.info answers, the role is unknown: no screen is shown (none would be sure to be allowed).
  // A first run (no screen in the address or remembered) opens ready to label: Annotate once the
  // workspace has a pool, else the first screen of the role (Workspace for the owner, to import).
  const tab: Tab | null = !role ? null : wanted !== null ? resolveTab(role, wanted) : pools === null ? null : resolveTab(role, pools.length > 0 ? 'annotate' : null);
  const [poolsError, setPoolsError] = useState<string | null>(null);
  const [pool, storePool] = useStoredString('qpairs.pool', '');
  // The pool chosen last, at once: an effect of an earlier render (a pool list just read) can run
  // after a choice and before its render, and must not take the pool it saw for the current one.
  const poolNow = useRef(pool);
  poolNow.current = pool;
  const setPool = useCallback(
    (p: string) => {
      poolNow.current = p;
      storePool(p);
    },
    [storePool],
  );
  const [storedAnnotator, setAnnotator] = useStoredString('qpairs.annotator', '');
  const [lastQueryId, setLastQueryId] = useState('');
  const [reviewFocus, setReviewFocus] = useState<ReviewFocus | null>(null);
  const [knownBackend, setModelBackend] = useState<string | null>(null);
  const modelBackend = knownBackend ?? info?.modelBackend ?? null;
  const lockedAnnotator = info?.annotator ?? null;
  const annotator = lockedAnnotator ?? storedAnnotator;
  // The local owner labels under the machine's account name until they type another one.
  useEffect(() => {
    if (!lockedAnnotator && !storedAnnotator && info?.suggestedAnnotator) setAnnotator(info.suggestedAnnotator);
  }, [lockedAnnotator, storedAnnotator, info, setAnnotator]);

  const goTo = useCallback(
    (t: Tab) => {
      if (role && !roleAllows(role, TABS.find((x) => x.id === t)!.role)) return;
      setWanted(t);
      local.setItem('qpairs.tab', t);
      if (window.location.hash !== `#${t}`) history.replaceState(null, '', `#${t}`);
    },
    [role],
  );

  // A screen this role may not see (stored, or in the address): show the first allowed one instead.
  useEffect(() => {
    if (tab && window.location.hash !== `#${tab}`) history.replaceState(null, '', `#${tab}`);
  }, [tab]);

  const refreshPools = useCallback(() => {
    client
      .invoke('pool.list', {})
      .then((p) => {
        setPools(p);
        setPoolsError(null);
      })
      .catch((e: unknown) => {
        setPoolsError(errorMessage(e));
        setPools((p) => p ?? []);
      });
  }, [client]);

  useEffect(refreshPools, [refreshPools]);
  useWorkspaceChangedExceptDraws(refreshPools);
  useReconnect(refreshPools);
  useEffect(() => client.onConnection(setConn), [client]);
  /** Reads the server refused as busy that wait to be sent again (the connection chip says so). */
  const [waiting, setWaiting] = useState(0);
  useEffect(() => client.onWaiting?.(setWaiting), [client]);

  // Issue 23: a token's annotator starts in their next assigned pool with work left, a judge in the
  // next pool with disagreements to settle (lib/next-work.ts).
  const startedIn = useRef(false);
  useEffect(() => {
    if (startedIn.current || (role !== 'annotator' && role !== 'judge') || !lockedAnnotator || !pools?.length) return;
    // Not before the pool selected is one of these (the effect below puts the first there when none
    // is remembered): that would read as a pool chosen meanwhile, and the start pool never be set.
    if (!pools.some((p) => p.name === pool)) return;
    startedIn.current = true;
    const from = pool;
    const pick = role === 'judge' ? poolToJudge : poolWithWork;
    void pick(client, lockedAnnotator, pools, pool).then((p) => {
      // Not when the annotator chose a pool meanwhile.
      if (p && p !== from && poolNow.current === from) setPool(p);
    });
  }, [client, role, lockedAnnotator, pools, pool, setPool]);

  // Keep a valid pool selected: none once no pool is left (an annotator's last pool unassigned
  // while her page was open kept showing it, and each key gave a label the engine refused). Not on
  // a failed first read of the pools (the pool remembered stays for when they load).
  useEffect(() => {
    if (!pools || poolsError !== null || pools.some((p) => p.name === poolNow.current)) return;
    setPool(pools[0]?.name ?? '');
  }, [pools, poolsError, pool, setPool]);

  useEffect(() => {
    // The hash the change went to, not the address's now: the screen shown meanwhile may already have
    // written its own over it (the effect above), and the screen asked for was then lost.
    const onHash = (e: HashChangeEvent): void => setWanted(tabFromHash(new URL(e.newURL).hash));
    window.addEventListener('hashchange', onHash);
    // A hash changed between the first render and now (a link followed as the page loads) was heard by no one.
    setWanted(tabFromHash());
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

  // Alt+1…9 switch screens (plain digits are label keys on the Annotate and Review screens); each
  // number keeps its screen, and only the screens this role sees can be reached. Not while typing:
  // on a Mac, Option+digit types characters ([ ] | { } on a German layout, # on a British one).
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (!e.altKey || e.ctrlKey || e.metaKey || !role || isTypingTarget(e.target)) return;
      const m = /^Digit([1-9])$/.exec(e.code);
      if (!m) return;
      const t = tabForShortcut(role, Number(m[1]));
      e.preventDefault();
      if (t) goTo(t);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [goTo, role]);

  // Issue 24: light/dark (following the system unless toggled) and the F1 / Ctrl+/ list of keys.
  const theme = useTheme();
  const [keysOpen, setKeysOpen] = useState(false);
  const keysOpenRef = useRef(false);
  keysOpenRef.current = keysOpen;
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const open = e.key === 'F1' || ((e.ctrlKey || e.metaKey) && (e.key === '/' || e.code === 'Slash'));
      if (open) {
        e.preventDefault();
        e.stopImmediatePropagation();
        setKeysOpen((o) => !o);
      } else if (e.key === 'Escape') setKeysOpen(false);
      // While the list is open the screen behind it takes no keys (a digit must not label a pair,
      // Enter must not open the next query): Tab moves, Enter and Space work its Close button.
      else if (keysOpenRef.current && e.key !== 'Tab' && !((e.key === 'Enter' || e.key === ' ') && isActivationTarget(e.target))) e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  useEffect(() => {
    document.title = info?.workspaceName ? `QPairs — ${info.workspaceName}` : 'QPairs';
  }, [info]);

  useTextBoxesInView();

  // The sticky top bar's height (it wraps on narrow windows): sticky panels below it use --topbar-h.
  useEffect(() => {
    const el = document.querySelector<HTMLElement>('header.topbar');
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => document.documentElement.style.setProperty('--topbar-h', `${el.offsetHeight}px`));
    ro.observe(el);
    return () => ro.disconnect();
  }, [role]);

  if (!info || !role || !tab) {
    return (
      <div className="app">
        <header className="topbar">
          <h1 className="brand">QPairs</h1>
          <span className="spacer" />
          <ConnectionChip state={conn} waiting={waiting} />
        </header>
        <main className="screen">
          <p className="muted" data-testid="app-loading">
            Connecting to the QPairs engine…
          </p>
        </main>
      </div>
    );
  }

  const visibleTabs = TABS.map((t, i) => ({ ...t, n: i + 1 })).filter((t) => roleAllows(role, t.role));
  const onTabsKey = (e: ReactKeyboardEvent<HTMLElement>): void => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    // Not Home/End (optional in the pattern): a tab clicked keeps the focus, and on Annotate and
    // Review they are the first and last row.
    const at = visibleTabs.findIndex((t) => t.id === tab);
    const to = e.key === 'ArrowRight' ? (at + 1) % visibleTabs.length : e.key === 'ArrowLeft' ? (at - 1 + visibleTabs.length) % visibleTabs.length : null;
    if (to === null) return;
    e.preventDefault();
    e.stopPropagation();
    const next = visibleTabs[to]!.id;
    goTo(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  const modelsTab = visibleTabs.find((t) => t.id === 'models');

  const shared: SharedState = {
    pools: pools ?? [],
    poolsLoaded: pools !== null,
    poolsError,
    refreshPools,
    pool,
    setPool,
    annotator,
    setAnnotator,
    lockedAnnotator,
    role,
    info,
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
        <h1 className="brand">QPairs</h1>
        {/* The ARIA tabs pattern: one Tab stop (the screen shown); ←/→ move to another screen. */}
        <nav className="tabs" role="tablist" aria-label="Screens" onKeyDown={onTabsKey}>
          {visibleTabs.map((t) => (
            <button
              key={t.id}
              id={`tab-${t.id}`}
              role="tab"
              aria-selected={tab === t.id}
              aria-controls="screen-panel"
              tabIndex={tab === t.id ? 0 : -1}
              className={tab === t.id ? 'tab active' : 'tab'}
              data-testid={`tab-${t.id}`}
              title={`${t.label} (Alt+${t.n})`}
              onClick={() => goTo(t.id)}
            >
              {t.label}
            </button>
          ))}
        </nav>
        <span className="spacer" />
        <span className="muted small workspace-name" title={`workspace ${info.workspaceName}`} data-testid="workspace-name">
          {info.workspaceName}
        </span>
        {/* Desktop only: serve mode never offers it (a remote client never names a path on the server's machine). */}
        {client.transport === 'electron' && roleAllows(role, SHELL_COMMAND_ROLE) && <WorkspaceMenu workspaceName={info.workspaceName} />}
        {info.readonly && (
          <span className="readonly-chip" data-testid="header-readonly" title="The workspace was opened read-only: labels, imports and other changes are refused.">
            read-only
          </span>
        )}
        <span className="role-chip" data-testid="header-role" data-role={role} title={info.annotator ? `${info.annotator} · ${ROLE_HELP[role]}` : ROLE_HELP[role]}>
          {info.annotator ? (
            <>
              <strong data-testid="header-annotator">{info.annotator}</strong> · {role}
            </>
          ) : (
            role
          )}
        </span>
        {info.annotator && client.transport === 'http' && (
          <a
            className="icon-button signout-link"
            href="/?signout"
            data-testid="header-signout"
            aria-label={`Sign out ${info.annotator}`}
            title={`Sign out ${info.annotator}: forget the link in this browser (on a shared computer, the next person here cannot label as you). Open your link again to come back.`}
          >
            ⎋
          </a>
        )}
        {modelBackend && modelsTab && (
          <button
            className="backend-chip"
            data-testid="header-backend"
            title={`Models run on the tfjs ${modelBackend} backend (Models screen, Alt+${modelsTab.n})`}
            onClick={() => goTo('models')}
          >
            tfjs {modelBackend}
          </button>
        )}
        <ConnectionChip state={conn} waiting={waiting} />
        <button
          type="button"
          className="icon-button"
          data-testid="theme-toggle"
          data-theme={theme.theme}
          data-choice={theme.choice}
          aria-label={`${theme.theme} mode${theme.choice === 'system' ? ' (the system setting)' : ''}: switch`}
          title={`${theme.theme === 'dark' ? 'Dark' : 'Light'} mode${theme.choice === 'system' ? ', following the system' : ''} — click to switch`}
          onClick={theme.toggle}
        >
          {theme.theme === 'dark' ? '☾' : '☀'}
        </button>
        <button type="button" className="icon-button" data-testid="keys-button" aria-label="Keyboard shortcuts (F1)" title="Keyboard shortcuts (F1 or Ctrl+/)" onClick={() => setKeysOpen(true)}>
          ⌨
        </button>
      </header>
      {keysOpen && <ShortcutOverlay tab={tab} pool={pools?.find((p) => p.name === pool) ?? null} role={role} onClose={() => setKeysOpen(false)} />}
      {client.transport === 'electron' && <SecondLaunchNotice />}
      <OpenNotices notices={info.notices} />
      <main className="screen">
        <div className="tab-panel" role="tabpanel" id="screen-panel" aria-labelledby={`tab-${tab}`}>
        <ScreenBoundary key={tab} screen={tab}>
        {tab === 'workspace' && <WorkspaceScreen shared={shared} />}
        {tab === 'pools' && <PoolsScreen shared={shared} />}
        {tab === 'annotate' && <AnnotateScreen shared={shared} />}
        {tab === 'review' && <ReviewScreen shared={shared} />}
        {tab === 'agreement' && <AgreementScreen shared={shared} />}
        {tab === 'evaluate' && <EvaluateScreen shared={shared} />}
        {tab === 'export' && <ExportScreen shared={shared} />}
        {tab === 'models' && <ModelsScreen shared={shared} />}
        {tab === 'browse' && <BrowseScreen shared={shared} />}
        </ScreenBoundary>
        </div>
      </main>
    </div>
  );
}
