/**
 * A small SVG line chart (no chart library): one line per series over a shared x axis,
 * y fixed to [0, 1] by default (IR metrics). Points are drawn when a series is short.
 */
import type { ReactNode } from 'react';

export interface Series {
  name: string;
  points: Array<[number, number]>;
}

export const PALETTE = ['#3b6ea5', '#c07a2c', '#4f8a5b', '#8a5a9e', '#6b6b6b', '#a2554f', '#3f8f8f', '#8c7a3a'];

/**
 * About `count` round axis ticks (multiples of 1, 2, 2.5 or 5 × 10^k) within [min, max]; [min] when the
 * range is empty. Each tick is its own multiple of the step (not a running sum), and there are never
 * more than 2·count + 2 of them: a range too narrow for its magnitude (a step below the spacing of
 * floating-point numbers there, e.g. [1e9, 1e9 + 1e-7]) could otherwise repeat one value forever.
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min)) return [];
  if (!Number.isFinite(max) || !(max > min)) return [min];
  const span = max - min;
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => span / s <= count) ?? 10 * mag;
  const out: number[] = [];
  const first = Math.ceil(min / step);
  for (let i = 0; i <= 2 * count + 1; i++) {
    const v = Number(((first + i) * step).toFixed(10));
    if (v > max + step * 1e-9) break;
    if (out.length === 0 || v > out[out.length - 1]!) out.push(v);
  }
  return out;
}

export function LineChart({
  series,
  xLabel,
  yLabel,
  yMin = 0,
  yMax = 1,
  width = 640,
  height = 260,
  testId,
  yDigits = 1,
}: {
  series: Series[];
  xLabel: string;
  yLabel: string;
  yMin?: number;
  yMax?: number;
  width?: number;
  height?: number;
  testId?: string;
  /** Decimals of the y tick labels (1 by default; more for small ranges such as a loss). */
  yDigits?: number;
}): ReactNode {
  const m = { top: 12, right: 16, bottom: 40, left: 48 };
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const xMin = xs.length ? Math.min(...xs) : 0;
  const xMax = xs.length ? Math.max(...xs) : 1;
  const xSpan = xMax > xMin ? xMax - xMin : 1;
  const sx = (x: number): number => m.left + ((x - xMin) / xSpan) * w;
  const sy = (y: number): number => m.top + h - ((Math.max(yMin, Math.min(yMax, y)) - yMin) / (yMax - yMin)) * h;
  const xTicks = niceTicks(xMin, xMax, 6).filter((t) => Number.isInteger(t));
  const yTicks = niceTicks(yMin, yMax, 5);
  return (
    <figure className="chart" data-testid={testId}>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${yLabel} against ${xLabel}`}>
        {yTicks.map((t) => (
          <g key={`y${t}`}>
            <line x1={m.left} x2={m.left + w} y1={sy(t)} y2={sy(t)} className="grid" />
            <text x={m.left - 6} y={sy(t)} dy="0.32em" textAnchor="end" className="tick">
              {t.toFixed(yDigits)}
            </text>
          </g>
        ))}
        {xTicks.map((t) => (
          <text key={`x${t}`} x={sx(t)} y={m.top + h + 16} textAnchor="middle" className="tick">
            {t}
          </text>
        ))}
        <line x1={m.left} x2={m.left + w} y1={m.top + h} y2={m.top + h} className="axis" />
        <line x1={m.left} x2={m.left} y1={m.top} y2={m.top + h} className="axis" />
        <text x={m.left + w / 2} y={height - 6} textAnchor="middle" className="axis-label">
          {xLabel}
        </text>
        <text transform={`translate(12 ${m.top + h / 2}) rotate(-90)`} textAnchor="middle" className="axis-label">
          {yLabel}
        </text>
        {series.map((s, i) => {
          const color = PALETTE[i % PALETTE.length]!;
          const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join(' ');
          return (
            <g key={s.name} data-testid={`curve-${s.name}`} data-points={s.points.length}>
              {s.points.length > 1 && <path d={d} fill="none" stroke={color} strokeWidth={2} />}
              {s.points.length <= 40 &&
                s.points.map((p, j) => <circle key={j} cx={sx(p[0])} cy={sy(p[1])} r={2.5} fill={color}><title>{`${s.name}: ${p[1].toFixed(3)} after ${p[0]}`}</title></circle>)}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend-line">
        {series.map((s, i) => (
          <span key={s.name} className="legend-item">
            <svg width="18" height="10" aria-hidden="true">
              <line x1="0" x2="18" y1="5" y2="5" stroke={PALETTE[i % PALETTE.length]} strokeWidth="3" />
            </svg>
            {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
