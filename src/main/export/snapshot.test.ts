/**
 * An export reads the workspace many times (labels, texts, the datasheet's tables); serve mode, or
 * another process, may commit labels meanwhile. The export must come from one snapshot: files and
 * datasheet agree with each other.
 */
import { describe, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { buildExport } from './index';
import { useOneQueryPool } from './test-pool';

const pool = useOneQueryPool('qpairs-export-snapshot-');

describe('an export while labels are being given elsewhere', () => {
  it('its file and datasheet come from one snapshot (the datasheet counted labels committed after the file was read)', () => {
    const ws = pool.ws;
    ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'alice', value: '1', origin: 'test' });
    ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c2', annotator: 'alice', value: '0', origin: 'test' });
    // Another connection (serve mode labeling, as another process would) commits while the export reads:
    // here when the export asks for the notes, after it has read the labels it writes.
    const other = Workspace.open(ws.path);
    const labelNotes = ws.labelNotes.bind(ws);
    let given = false;
    ws.labelNotes = ((...args: Parameters<typeof labelNotes>) => {
      if (!given) {
        given = true;
        other.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c3', annotator: 'alice', value: '1', origin: 'serve' });
        other.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'carol', value: '1', origin: 'serve' });
      }
      return labelNotes(...args);
    }) as typeof ws.labelNotes;
    try {
      const built = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { annotator: 'alice' });
      expect(given).toBe(true);
      const rows = built.files[0]!.content.trim().split('\n').map((l) => JSON.parse(l) as { candidate_id: string; label: string });
      expect(rows.map((r) => [r.candidate_id, r.label])).toEqual([['c1', '1'], ['c2', '0'], ['c3', '?']]);
      const sheet = built.datasheet.content;
      // The annotators' table: alice with her 2 labels and 2 events, and no carol (she labeled after the snapshot).
      expect(sheet).toMatch(/\| alice \| annotator \| \w+ \| 2 \| 2 \|/);
      expect(sheet).not.toContain('| carol |');
    } finally {
      other.close();
    }
    // The labels given meanwhile are in the next export.
    const next = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { annotator: 'alice' }).datasheet.content;
    expect(next).toMatch(/\| alice \| annotator \| \w+ \| 3 \| 3 \|/);
    expect(next).toContain('| carol |');
  });
});
