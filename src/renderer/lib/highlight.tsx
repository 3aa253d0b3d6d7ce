/**
 * Highlights the terms a candidate shares with its query (CandidateView.sharedTerms, lowercase
 * tokens as the BM25 tokenizer makes them). Tokens of the text are matched case-insensitively;
 * a trailing possessive 's is ignored as the tokenizer does.
 */
import type { ReactNode } from 'react';

const TOKEN = /[\p{L}\p{M}\p{N}_]+(?:[.'’][\p{L}\p{M}\p{N}_]+)*(?:\+\+|#(?![\p{L}\p{N}_]))?/gu;

export function normaliseToken(t: string): string {
  const l = t.toLowerCase().replace(/’/g, "'");
  return l.endsWith("'s") ? l.slice(0, -2) : l;
}

/** Splits text into plain strings and `<mark>`ed shared terms. */
export function highlight(text: string, terms: ReadonlySet<string>): ReactNode[] {
  if (!text || terms.size === 0) return [text];
  const out: ReactNode[] = [];
  let last = 0;
  let k = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (!terms.has(normaliseToken(m[0]))) continue;
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    out.push(
      <mark key={k++} className="shared">
        {m[0]}
      </mark>,
    );
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function termSet(terms: readonly string[]): ReadonlySet<string> {
  return new Set(terms.map((t) => t.toLowerCase()));
}
