/**
 * What `pool create` says of a new pool beyond its size, in the CLI and on the Pools screen alike.
 */
import { counted } from './plural';

/**
 * The note on queries BM25 finds no candidate for (a title of stop words, an empty text): they are in
 * the pool with nothing to label, and no metric counts them. Null when there are none. The first ten are named.
 */
export function queriesWithoutCandidateNote(ids: readonly string[], queries: number): string | null {
  if (ids.length === 0) return null;
  const shown = ids.slice(0, 10).join(', ') + (ids.length > 10 ? ', …' : '');
  const them = ids.length === 1 ? 'it' : 'them';
  return (
    `${counted(ids.length, `of the ${queries.toLocaleString('en-US')} queries has`, `of the ${queries.toLocaleString('en-US')} queries have`)} no candidate ` +
    `(BM25 finds no other question for ${them}: ${shown}): nothing to label there, and no metric counts ${them}`
  );
}
