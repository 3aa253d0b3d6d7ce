/**
 * Whether the screen being shown took the place of a screen whose control had the focus (Pools'
 * Annotate, Agreement's Review, Browse's open in Annotate, Alt+N from a button): that control goes
 * with the old screen and leaves the focus on the page, so the new screen takes it at its first
 * place. A tab of the top bar, or a page just loaded, keeps the focus where it is.
 */
import { useState } from 'react';

/** The tab panel holding the screens (App.tsx). */
const SCREEN_PANEL_ID = 'screen-panel';

/**
 * Read once, at the screen's first render: the old screen is still in the page then, and with it
 * the control that has the focus.
 */
export function useArrivedFromScreenControl(): boolean {
  const [fromControl] = useState(() => {
    const active = document.activeElement;
    return !!active && active !== document.body && !!document.getElementById(SCREEN_PANEL_ID)?.contains(active);
  });
  return fromControl;
}
