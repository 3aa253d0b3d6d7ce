/** Question ids are the forum's own ids, kept as strings (AskUbuntu "123", SemEval "Q268_R4"). */
export type QuestionId = string;

/** One key for a (query, candidate) pair, for maps and sets of pairs: the two ids joined by NUL. */
export const pairKey = (queryId: QuestionId, candidateId: QuestionId): string => `${queryId}\u0000${candidateId}`;

/** The query and candidate ids a pairKey joined (split at its first NUL). */
export function pairOfKey(key: string): [queryId: QuestionId, candidateId: QuestionId] {
  const cut = key.indexOf('\u0000');
  return [key.slice(0, cut), key.slice(cut + 1)];
}
