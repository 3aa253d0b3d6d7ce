/**
 * A judge's ruling as its pill shows it: the label's words, or, for a pair with no ruling, a "·" —
 * which a screen reader read as "dot" — hidden from it, with "no ruling" said in its place.
 */
import type { ReactNode } from 'react';

export function JudgeLabelText({ text }: { text: string }): ReactNode {
  if (text) return <>{text}</>;
  return (
    <>
      <span aria-hidden="true">·</span>
      <span className="visually-hidden">no ruling</span>
    </>
  );
}
