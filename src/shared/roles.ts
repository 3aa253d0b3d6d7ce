/**
 * Caller roles and the role table of the contract's commands. No imports: the renderer uses it
 * without bundling zod (src/shared/contract.ts re-exports it and checks it names every command).
 */
/**
 * Who calls the engine. `owner`: the desktop user (IPC), serve mode on loopback without tokens,
 * or a token whose annotator has role owner. `judge` and `annotator`: serve-mode tokens, with the
 * role their annotator has in the workspace (a token for a name the workspace does not know, or
 * whose role is not owner/judge, is an annotator). Each role may do what the roles below it may.
 */
export const CALLER_ROLES = ['annotator', 'judge', 'owner'] as const;
export type CallerRole = (typeof CALLER_ROLES)[number];

/** Who may call a desktop shell command (shell-contract.ts): the desktop app's one user, its owner. */
export const SHELL_COMMAND_ROLE: CallerRole = 'owner';

/** True when `role` ranks at least as high as `needed` (owner > judge > annotator). */
export function roleAllows(role: CallerRole, needed: CallerRole): boolean {
  return CALLER_ROLES.indexOf(role) >= CALLER_ROLES.indexOf(needed);
}

/**
 * The lowest role allowed to call each command; the engine checks it before any handler runs
 * (src/main/engine/access.ts), together with these rules that depend on the arguments:
 * - below owner, a caller acts only as themself (annotate, label, undo, review as judge);
 * - an annotator works only in pools assigned to them, or unassigned pools holding no imported
 *   labels (src/main/engine/pool-access.ts): others are neither listed nor open to them;
 * - in a blind pool an annotator sees only their own labels and progress: never another
 *   annotator's, the judge's, gold, `@aggregate`, per-pair agreement, or rankers' scores/ranks
 *   (so `eval.*` on a blind pool is refused to annotators, and progress lists only themself);
 * - server-side paths (`import.start` with `path`, `export.write` with `path`) only from a local
 *   owner (the desktop app, or serve mode on loopback without tokens);
 * - `job.cancel` only by the caller who started the job, or an owner; so is `job.status` of a running job
 *   (of one that is not running anyone may ask: the answer is the same for every id);
 * - notes on labels (issue 24): an annotator reads only their own (annotate.query/navigate, on any
 *   pool, blind or not); everyone's notes and judges' reasons are in review.pair, review.queue (reasons) and exports (judge and up).
 */
export const commandRoles = {
  'app.info': 'annotator',
  'workspace.stats': 'annotator',
  'import.start': 'owner',
  'import.undoable': 'owner',
  'import.undo': 'owner',
  'job.cancel': 'annotator',
  'job.status': 'annotator',
  'pool.list': 'annotator',
  'pool.create': 'owner',
  'pool.setGuidelines': 'owner',
  'pool.set': 'owner',
  'pool.progress': 'annotator',
  'annotator.list': 'annotator',
  'annotate.query': 'annotator',
  'annotate.navigate': 'annotator',
  'annotate.queries': 'annotator',
  'label.set': 'annotator',
  'label.undo': 'annotator',
  'live.set': 'owner',
  'live.status': 'annotator',
  'eval.order': 'annotator',
  'live.retrain': 'owner',
  'eval.pool': 'annotator',
  'eval.query': 'annotator',
  'annotator.add': 'owner',
  'annotator.setRole': 'owner',
  'annotator.invite': 'owner',
  'annotator.revoke': 'owner',
  'annotator.team': 'owner',
  'pool.assign': 'owner',
  'pool.assignment': 'annotator',
  'pool.setAggregation': 'owner',
  'pool.aggregation': 'judge',
  'agreement.report': 'judge',
  'review.queue': 'judge',
  'review.pair': 'judge',
  'review.settle': 'judge',
  'eval.compare': 'judge',
  'export.preview': 'judge',
  'export.write': 'judge',
  'export.downloads': 'judge',
  'questions.search': 'annotator',
  'question.show': 'annotator',
  'models.list': 'judge',
  'models.train': 'judge',
  'models.score': 'judge',
  'models.delete': 'owner',
} as const satisfies Record<string, CallerRole>;

/**
 * Roles of label sources that are not people: `gold` (imported gold labels; the name "gold" always
 * has it) and `system` (a reference system's labels). They cannot sign in (no tokens) and a
 * person's role never becomes one of them, nor does theirs change (src/main/gold/store.ts).
 */
export const RESERVED_ROLES = ['gold', 'system'] as const;
export type ReservedRole = (typeof RESERVED_ROLES)[number];

/** True for the reserved roles gold and system. */
export function isReservedRole(role: string): role is ReservedRole {
  return (RESERVED_ROLES as readonly string[]).includes(role);
}

/** The roles a person may be given (in Team, Team access, `qpairs annotators role`): the caller roles. */
export const PERSON_ROLES = CALLER_ROLES;
