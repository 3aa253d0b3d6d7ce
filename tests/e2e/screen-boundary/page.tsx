/**
 * The page of screen-boundary.spec: the renderer's real ScreenBoundary around two screens, keyed by
 * the tab as App keys it, one of which throws while it draws. A screen that fails to draw is a bug
 * (each such bug found in QPairs was fixed where it was), so the failing screen is this page's own.
 */
import { useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ScreenBoundary } from '../../../src/renderer/components/ScreenBoundary';

/** How many times the failing screen was drawn (the spec reads it: the retry draws it again). */
declare global {
  interface Window {
    failingDraws: number;
  }
}
window.failingDraws = 0;

function FailingScreen(): ReactNode {
  window.failingDraws += 1;
  throw new TypeError('status.models.map is not a function');
}

function Page(): ReactNode {
  const [tab, setTab] = useState<'failing' | 'working'>('working');
  return (
    <div>
      <nav>
        <button type="button" data-testid="tab-working" onClick={() => setTab('working')}>
          working
        </button>
        <button type="button" data-testid="tab-failing" onClick={() => setTab('failing')}>
          failing
        </button>
      </nav>
      <main>
        <ScreenBoundary key={tab} screen={tab}>
          {tab === 'working' ? <p data-testid="working-screen">drawn</p> : <FailingScreen />}
        </ScreenBoundary>
      </main>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
