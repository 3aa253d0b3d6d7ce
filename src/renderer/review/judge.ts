/**
 * Who the Review screen settles disagreements as (pure, unit-tested). A judge's token acts only as
 * that judge (the engine refuses anyone else), so the choice is fixed to them. An owner sees
 * everything (README, Running a team): local or signed in with a token, they pick any judge;
 * without a usable choice the screen starts on the owner's own name when they are a judge, else
 * on the first judge — never on a name the engine would refuse as "not a judge".
 */
import type { CallerRole } from '../../shared/roles';

export interface ReviewJudgeInput {
  role: CallerRole;
  /** The token's person (serve mode with tokens), else null. */
  locked: string | null;
  /** The judge chosen earlier in this browser ('' = none). */
  stored: string;
  /** The caller's own annotator name (the token's, or the name typed on Annotate). */
  self: string;
  /** The workspace's judges, or null while the list is loading. */
  judges: readonly string[] | null;
}

export interface ReviewJudge {
  /** The judge to act as; '' when there is none (yet). */
  judge: string;
  /** Whether the caller may choose another judge. */
  choosable: boolean;
}

export function reviewJudge({ role, locked, stored, self, judges }: ReviewJudgeInput): ReviewJudge {
  if (locked !== null && role !== 'owner') return { judge: locked, choosable: false };
  if (judges === null) return { judge: '', choosable: true };
  const pick = [stored, self].find((n) => n !== '' && judges.includes(n)) ?? judges[0] ?? '';
  return { judge: pick, choosable: true };
}
