import type { ReactNode } from 'react';

/** The always-visible key legend: the scheme's label keys, then the navigation keys (muted). */
export function KeyLegend({ labels, nav, testId }: { labels: ReadonlyArray<{ key: string; label: string }>; nav: ReadonlyArray<readonly [string, string]>; testId: string }): ReactNode {
  return (
    <div className="legend" data-testid={testId}>
      {labels.map((k) => (
        <span key={k.key} className="legend-item">
          <kbd>{k.key}</kbd> {k.label}
        </span>
      ))}
      <span className="legend-sep" />
      {nav.map(([k, what]) => (
        <span key={k} className="legend-item muted">
          <kbd>{k}</kbd> {what}
        </span>
      ))}
    </div>
  );
}
