/**
 * The "·" a pill or mark shows where there is no value (no label, no ruling), hidden from screen
 * readers — which read it as "dot" — with what it means said in its place (visually hidden).
 */
import type { ReactNode } from 'react';

export function NoValue({ said }: { said: string }): ReactNode {
  // The wrapper is the hidden text's containing block (.no-value): positioned absolutely against the page, the
  // texts of a long scrolled list (Review's judge column) stood far below it and made the page that much taller.
  return (
    <span className="no-value">
      <span aria-hidden="true">·</span>
      <span className="visually-hidden">{said}</span>
    </span>
  );
}
