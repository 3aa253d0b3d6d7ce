/**
 * A text box that takes the focus stands wholly in the window: the browser scrolls a focused
 * element only until some of it shows, so a tall box (the guidelines' Markdown at 680×450, 1360×900
 * at 200% zoom) reached with Tab ran below the window's bottom. Its height is capped to the window
 * under the sticky top bar (styles.css), so scrolling it to the nearest edge shows it whole, below
 * the bar (its scroll-margin-top).
 */
import { useEffect } from 'react';

/** Whether `box` lies wholly between `top` (the sticky top bar's bottom) and the window's bottom. */
function whollyShown(box: { top: number; bottom: number }, top: number, windowHeight: number): boolean {
  return box.top >= top - 0.5 && box.bottom <= windowHeight + 0.5;
}

/** While mounted: each textarea that takes the focus is scrolled to be wholly in view if it is not. */
export function useTextBoxesInView(): void {
  useEffect(() => {
    const onFocus = (e: FocusEvent): void => {
      const box = e.target;
      if (!(box instanceof HTMLTextAreaElement)) return;
      const bar = document.querySelector('header.topbar');
      const barBottom = bar && getComputedStyle(bar).position === 'sticky' && !box.closest('[role=dialog]') ? bar.getBoundingClientRect().bottom : 0;
      if (!whollyShown(box.getBoundingClientRect(), barBottom, window.innerHeight)) box.scrollIntoView({ block: 'nearest' });
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, []);
}
