/**
 * The Annotate screen's sticky head: its height is published as the CSS variable
 * --annotate-head-h, so rows scrolled into view stay clear of it (scroll-margin-top in styles.css).
 */
import { useEffect, useRef, type RefObject } from 'react';

/** The ref for the head's element; measured again whenever a view or readiness comes or goes. */
export function useStickyHeadHeight(hasView: boolean, ready: boolean): RefObject<HTMLDivElement | null> {
  const headRef = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const el = headRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => document.documentElement.style.setProperty('--annotate-head-h', `${el.offsetHeight}px`));
    ro.observe(el);
    return () => ro.disconnect();
  }, [hasView, ready]);
  return headRef;
}
