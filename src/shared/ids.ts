/** Question ids are the forum's own ids, kept as strings (AskUbuntu "123", SemEval "Q268_R4"). */
export type QuestionId = string;

/**
 * One key for a (query, candidate) pair, for maps and sets of pairs: the two ids joined by NUL. Joined
 * as an array, the key is one flat string: `${q}\u0000${c}` made a string of its parts and, once hashed,
 * a flat copy besides (24 bytes more per key, in a 400,000-pair pool's maps of labels and pairs).
 */
export const pairKey = (queryId: QuestionId, candidateId: QuestionId): string => [queryId, candidateId].join('\u0000');

/** The query and candidate ids a pairKey joined (split at its first NUL). */
export function pairOfKey(key: string): [queryId: QuestionId, candidateId: QuestionId] {
  const cut = key.indexOf('\u0000');
  return [key.slice(0, cut), key.slice(cut + 1)];
}
