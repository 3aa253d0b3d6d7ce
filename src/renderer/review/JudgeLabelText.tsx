/** A judge's ruling as its pill shows it: the label's words, or, for a pair with no ruling, "·" read "no ruling" (NoValue). */
import type { ReactNode } from 'react';
import { NoValue } from '../components/NoValue';

export function JudgeLabelText({ text }: { text: string }): ReactNode {
  return text ? text : <NoValue said="no ruling" />;
}
