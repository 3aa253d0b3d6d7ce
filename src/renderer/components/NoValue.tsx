/**
 * The "·" a pill or mark shows where there is no value (no label, no ruling), hidden from screen
 * readers — which read it as "dot" — with what it means said in its place (visually hidden).
 */
import type { ReactNode } from 'react';

export function NoValue({ said }: { said: string }): ReactNode {
  return (
    <>
      <span aria-hidden="true">·</span>
      <span className="visually-hidden">{said}</span>
    </>
  );
}
