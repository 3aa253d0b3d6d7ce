import type { ReactNode } from 'react';
import { DataTable } from '../components/DataTable';
import { fixedDecimals } from '../../shared/decimals';

type Row = { feature: string; importance: number };

/** An importance (a MAP drop, a fraction) in points with two decimals; one that rounds to zero reads 0.00, never -0.00. */
export function importancePoints(x: number): string {
  return fixedDecimals(100 * x, 2);
}

/**
 * A fused model's features by within-query permutation importance: how much MAP on the training
 * lists drops when the feature is shuffled among each query's candidates (how much the fitted model
 * relies on it — measured on its training data, so not a held-out estimate).
 */
export function FeatureImportance({ model, importance }: { model: string; importance: readonly Row[] }): ReactNode {
  return (
    <div className="feature-importance" data-testid={`model-importance-${model}`}>
      <h3>Feature importance</h3>
      <p className="small muted">MAP drop on the training lists when the feature is shuffled among each query&apos;s candidates (in-sample: what the model relies on).</p>
      <DataTable<Row>
        rows={[...importance]}
        rowId={(r) => r.feature}
        initialSort={{ id: 'importance', desc: true }}
        caption={`feature importance of ${model}`}
        rowTestId={(r) => `model-importance-row-${r.feature}`}
        columns={[
          { id: 'feature', header: 'Feature', cell: (r) => <code>{r.feature}</code>, sortValue: (r) => r.feature },
          { id: 'importance', header: 'MAP drop (points)', className: 'num', cell: (r) => importancePoints(r.importance), sortValue: (r) => r.importance },
        ]}
      />
    </div>
  );
}
