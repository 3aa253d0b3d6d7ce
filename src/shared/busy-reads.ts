/**
 * The commands a page sends again, on its own, when serve mode refused them as busy (429: the caller
 * had too many requests in flight or computing commands waiting — often a page just reloaded, whose
 * predecessor's requests the server still counted). A 429 is given before the engine runs anything, so
 * sending again is always safe; only reads are sent again, so that nothing changes the workspace
 * seconds after the person acted (labels have their own outbox, src/renderer/annotate/labelQueue.ts).
 * No imports of values: the renderer uses it without bundling zod.
 */
import type { commandRoles } from './roles';

type Command = keyof typeof commandRoles;

export const BUSY_RETRIED_READS: ReadonlySet<string> = new Set<Command>([
  'app.info',
  'workspace.stats',
  'import.undoable',
  'job.status',
  'pool.list',
  'pool.progress',
  'pool.assignment',
  'pool.aggregation',
  'annotator.list',
  'annotator.team',
  'annotate.query',
  'annotate.queries',
  'live.status',
  'eval.order',
  'eval.pool',
  'eval.query',
  'eval.compare',
  'agreement.report',
  'review.queue',
  'review.pair',
  'export.preview',
  'export.downloads',
  'questions.search',
  'question.show',
  'models.list',
]);
