/**
 * The Review specs' served workspace: one pool built from the questions and two annotators' labels
 * a spec gives (imported by the CLI), and the judge judy, served on the spec's port.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { qpairs } from './small-pool';
import { useServedWorkspace, type ServedWorkspace } from './served-workspace';

/** `build` gives the questions (JSONL lines) and the labels (`query,candidate,annotator,label` lines) of pool `pool`. */
export function useServedReviewPool(name: string, portOffset: number, pool: string, build: () => { questions: string[]; labels: string[] }): ServedWorkspace {
  return useServedWorkspace(name, portOffset, {
    prepare: ({ dir, workspace }) => {
      const ws = workspace!;
      const { questions, labels } = build();
      writeFileSync(path.join(dir, 'q.jsonl'), questions.join('\n') + '\n');
      writeFileSync(path.join(dir, 'labels.csv'), ['query_id,candidate_id,annotator,label', ...labels].join('\n') + '\n');
      qpairs('init', ws);
      qpairs('import', ws, '--format', 'questions-jsonl', path.join(dir, 'q.jsonl'));
      qpairs('import', ws, '--format', 'labels-csv', path.join(dir, 'labels.csv'), '--pool', pool);
      qpairs('annotators', 'add', ws, 'judy', '--role', 'judge');
    },
  });
}
