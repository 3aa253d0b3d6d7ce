/**
 * The Annotate screen's top bar: the pool, the annotator's name (applied on Enter or on leaving
 * the field), the blind-pool badge, the pool's labeling order (when not its own order; with why an
 * adaptive order draws at random for now) and the outbox's save status.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { PoolInfo } from '../../shared/contract';
import { orderAtRandomReason, orderLabel, QUERY_ORDER_HELP } from '../../shared/label-order';
import { SaveStatus } from '../components/SaveStatus';
import { PoolSelect } from '../components/PoolSelect';

export interface AnnotateBarProps {
  pools: PoolInfo[];
  pool: string;
  setPool: (pool: string) => void;
  annotator: string;
  setAnnotator: (name: string) => void;
  /** The annotator's name when the session fixes it (the field is then disabled). */
  lockedAnnotator: string | null;
  /** The pool on screen is blind. */
  blind: boolean;
  counts: { unsaved: number; failed: number; retrying: number; busy?: number; unanswered?: number };
  onRetry: () => void;
}

export function AnnotateBar({ pools, pool, setPool, annotator, setAnnotator, lockedAnnotator, blind, counts, onRetry }: AnnotateBarProps): ReactNode {
  const [nameDraft, setNameDraft] = useState(annotator);
  const info = pools.find((p) => p.name === pool);
  useEffect(() => setNameDraft(annotator), [annotator]);
  return (
    <div className="annotate-bar">
      {/* Issue 24: after a choice (mouse or keyboard) the keys go back to the candidate list, not the select (AnnotateScreen focuses it once shown). */}
      <PoolSelect
        testId="annotate-pool"
        pools={pools}
        value={pool}
        onChange={setPool}
        emptyText="(no pools)"
        blurOnChange
      />
      <label className="inline">
        Annotator
        <input
          data-testid="annotator-input"
          value={lockedAnnotator ?? nameDraft}
          disabled={lockedAnnotator !== null}
          placeholder="your name"
          size={14}
          onChange={(e) => setNameDraft(e.target.value)}
          onBlur={() => nameDraft.trim() && setAnnotator(nameDraft.trim())}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              if (nameDraft.trim()) setAnnotator(nameDraft.trim());
              (e.target as HTMLInputElement).blur();
            }
          }}
        />
      </label>
      {blind && (
        <span
          className="blind-badge"
          data-testid="blind-badge"
          title="This pool is blind: you see its candidates in your own order, no rankers' scores and no one else's labels, so your labels stay independent. The pool's owner sets this."
        >
          blind pool
        </span>
      )}
      {info?.label_order && info.label_order !== 'pool' && (
        <span className="small muted" data-testid="annotate-query-order" title={orderAtRandomReason(info.label_order, info.runs ?? 0) ?? QUERY_ORDER_HELP[info.label_order]}>
          next query: {orderLabel(info.label_order, info.runs ?? 0)}
          {orderAtRandomReason(info.label_order, info.runs ?? 0) && <span className="visually-hidden">: {orderAtRandomReason(info.label_order, info.runs ?? 0)}</span>}
        </span>
      )}
      <span className="spacer" />
      <SaveStatus counts={counts} onRetry={onRetry} />
    </div>
  );
}
