import type { ReactNode } from 'react';

/** Shows a job report (an object of counts, lists and notes) readably, whatever its shape. */
export function ReportView({ report }: { report: unknown }): ReactNode {
  if (report == null) return null;
  if (typeof report !== 'object') return <p>{String(report)}</p>;
  const entries = Object.entries(report as Record<string, unknown>);
  return (
    <dl className="report">
      {entries.map(([k, v]) => (
        <div key={k} className="report-row">
          <dt>{k}</dt>
          <dd>{renderValue(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

function renderValue(v: unknown): ReactNode {
  if (v == null) return '—';
  if (typeof v === 'number') return v.toLocaleString('en-US');
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return 'none';
    const shown = v.slice(0, 20);
    return (
      <ul className="report-list">
        {shown.map((x, i) => (
          <li key={i}>{typeof x === 'object' ? JSON.stringify(x) : String(x)}</li>
        ))}
        {v.length > shown.length && <li className="muted">… and {v.length - shown.length} more</li>}
      </ul>
    );
  }
  const o = v as Record<string, unknown>;
  const flat = Object.entries(o).every(([, x]) => x == null || typeof x !== 'object');
  if (flat)
    return Object.entries(o)
      .map(([k, x]) => `${k}: ${typeof x === 'number' ? x.toLocaleString('en-US') : String(x)}`)
      .join(' · ');
  return <ReportView report={o} />;
}
