/**
 * The cost curves of `npm run bench:scale` as one SVG: a grid of log-log panels (corpus size on x,
 * one cost on y each), several series per panel (QPairs, Lucene, a slope-1 guide), one legend for
 * all panels, a title and caption lines (the machine). A pure function of its input: no I/O, no
 * clock, the same chart gives the same bytes.
 *
 * Each series is drawn as `<g class="series" data-series="NAME">` holding its polyline and one
 * `<circle>` per point (a `<title>` with the values, for a tooltip); axis ticks are
 * `<line class="tick major|minor" data-value="V">` — major ticks at the powers of ten. The legend
 * lists every series name once, in order of first appearance, guides (no markers) last.
 */

export interface ChartSeries {
  name: string;
  /** [x, y] pairs; points with a non-positive or non-finite coordinate are left out (log axes). */
  points: ReadonlyArray<readonly [number, number]>;
  color: string;
  /** SVG stroke-dasharray, e.g. '6 4'; solid when absent. */
  dash?: string;
  /** Draw the points as circles (default true). */
  markers?: boolean;
}

export interface ChartPanel {
  title: string;
  yLabel: string;
  series: ChartSeries[];
}

export interface ScaleChart {
  title: string;
  xLabel: string;
  panels: ChartPanel[];
  /** Lines under the chart (the machine, the commit, how it was measured). */
  caption: string[];
}

export interface SvgLayout {
  columns: number;
  panelWidth: number;
  panelHeight: number;
}

const DEFAULT_LAYOUT: SvgLayout = { columns: 2, panelWidth: 440, panelHeight: 300 };
const MARGIN = { left: 64, right: 26, top: 30, bottom: 44 };

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** 1, 10, 100 …; 1K, 10K …; 1M, 10M … (and 300K, 3M for in-between values). */
export function formatCount(v: number): string {
  const trim = (x: number) => String(Number(x.toPrecision(3)));
  if (v >= 1e9) return `${trim(v / 1e9)}G`;
  if (v >= 1e6) return `${trim(v / 1e6)}M`;
  if (v >= 1e3) return `${trim(v / 1e3)}K`;
  return trim(v);
}

/** A plain number for a cost axis: 0.01, 0.5, 3, 1,000, 20,000. */
export function formatValue(v: number): string {
  if (v >= 1000) return Math.round(v).toLocaleString('en-US');
  return String(Number(v.toPrecision(3)));
}

/**
 * The decade range [lo, hi] (exponents of ten) covering every value in `values` (positive, finite
 * ones only); at least one decade wide. [0, 1] when there are none.
 */
export function decadeRange(values: readonly number[]): [number, number] {
  const ok = values.filter((v) => Number.isFinite(v) && v > 0);
  if (ok.length === 0) return [0, 1];
  // Round away float noise (log10(1000) = 2.9999999999999996) before floor/ceil.
  const l = (v: number) => Math.round(Math.log10(v) * 1e9) / 1e9;
  let lo = Math.floor(Math.min(...ok.map(l)));
  let hi = Math.ceil(Math.max(...ok.map(l)));
  if (hi === lo) hi = lo + 1;
  return [lo, hi];
}

/** Tick values of a log axis over decades lo..hi: the powers of ten (major) and 2–9 × them (minor). */
export function logTicks(lo: number, hi: number): { major: number[]; minor: number[] } {
  const major: number[] = [];
  const minor: number[] = [];
  for (let e = lo; e <= hi; e++) {
    const p = Number(`1e${e}`);
    major.push(p);
    if (e < hi) for (let m = 2; m <= 9; m++) minor.push(Number((m * p).toPrecision(12)));
  }
  return { major, minor };
}

const usable = (p: readonly [number, number]) => Number.isFinite(p[0]) && Number.isFinite(p[1]) && p[0] > 0 && p[1] > 0;
const num = (x: number) => (Math.round(x * 100) / 100).toString();

export function renderScaleSvg(chart: ScaleChart, layout: Partial<SvgLayout> = {}): string {
  const { columns, panelWidth, panelHeight } = { ...DEFAULT_LAYOUT, ...layout };
  const rows = Math.max(1, Math.ceil(chart.panels.length / columns));
  const legend = legendEntries(chart.panels);
  const legendRows = Math.ceil(legend.length / 4);
  const headerH = 34 + legendRows * 20 + 6;
  const captionH = chart.caption.length * 16 + 12;
  const width = columns * panelWidth;
  const height = headerH + rows * panelHeight + captionH;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${width / 2}" y="22" text-anchor="middle" font-size="16" font-weight="bold">${escapeXml(chart.title)}</text>`);
  // Legend: every distinct series name once, four to a row.
  const colW = width / 4;
  legend.forEach((s, i) => {
    const x = 16 + (i % 4) * colW;
    const y = 34 + Math.floor(i / 4) * 20 + 10;
    out.push(`<g class="legend-entry" data-series="${escapeXml(s.name)}">`);
    out.push(`<line x1="${num(x)}" y1="${y}" x2="${num(x + 28)}" y2="${y}" stroke="${escapeXml(s.color)}" stroke-width="2"${s.dash ? ` stroke-dasharray="${escapeXml(s.dash)}"` : ''}/>`);
    if (s.markers !== false) out.push(`<circle cx="${num(x + 14)}" cy="${y}" r="3" fill="${escapeXml(s.color)}"/>`);
    out.push(`<text x="${num(x + 34)}" y="${y + 4}">${escapeXml(s.name)}</text>`);
    out.push(`</g>`);
  });
  chart.panels.forEach((panel, i) => {
    const ox = (i % columns) * panelWidth;
    const oy = headerH + Math.floor(i / columns) * panelHeight;
    out.push(renderPanel(panel, chart.xLabel, ox, oy, panelWidth, panelHeight));
  });
  chart.caption.forEach((line, i) => {
    out.push(`<text class="caption" x="16" y="${headerH + rows * panelHeight + 16 + i * 16}" fill="#333333">${escapeXml(line)}</text>`);
  });
  out.push(`</svg>`);
  return out.join('\n') + '\n';
}

function legendEntries(panels: readonly ChartPanel[]): ChartSeries[] {
  const seen = new Map<string, ChartSeries>();
  for (const p of panels) for (const s of p.series) if (!seen.has(s.name)) seen.set(s.name, s);
  // Guides (series without markers) after the data.
  return [...seen.values()].sort((a, b) => Number(a.markers === false) - Number(b.markers === false));
}

function renderPanel(panel: ChartPanel, xLabel: string, ox: number, oy: number, w: number, h: number): string {
  const px0 = ox + MARGIN.left;
  const px1 = ox + w - MARGIN.right;
  const py0 = oy + MARGIN.top;
  const py1 = oy + h - MARGIN.bottom;
  const pts = panel.series.flatMap((s) => s.points.filter(usable));
  const [xlo, xhi] = decadeRange(pts.map((p) => p[0]));
  const [ylo, yhi] = decadeRange(pts.map((p) => p[1]));
  const sx = (v: number) => px0 + ((Math.log10(v) - xlo) / (xhi - xlo)) * (px1 - px0);
  const sy = (v: number) => py1 - ((Math.log10(v) - ylo) / (yhi - ylo)) * (py1 - py0);
  const out: string[] = [`<g class="panel" data-title="${escapeXml(panel.title)}">`];
  out.push(`<text x="${num(ox + w / 2)}" y="${num(oy + 18)}" text-anchor="middle" font-size="13" font-weight="bold">${escapeXml(panel.title)}</text>`);
  out.push(`<rect x="${num(px0)}" y="${num(py0)}" width="${num(px1 - px0)}" height="${num(py1 - py0)}" fill="none" stroke="#888888"/>`);
  const xt = logTicks(xlo, xhi);
  const yt = logTicks(ylo, yhi);
  // A one- or two-decade y axis labels 2 and 5 as well, so it has more than two or three numbers.
  const ySparse = yhi - ylo <= 2;
  for (const v of xt.minor) {
    out.push(`<line class="tick minor x" data-value="${v}" x1="${num(sx(v))}" y1="${num(py0)}" x2="${num(sx(v))}" y2="${num(py1)}" stroke="#eeeeee"/>`);
    // The sizes of a 1-3-10 ladder (300K, 3M) get a label too.
    if (Math.round(v / Number(`1e${Math.floor(Math.log10(v) + 1e-9)}`)) === 3)
      out.push(`<text x="${num(sx(v))}" y="${num(py1 + 17)}" text-anchor="middle" fill="#777777" font-size="10">${escapeXml(formatCount(v))}</text>`);
  }
  for (const v of yt.minor) {
    out.push(`<line class="tick minor y" data-value="${v}" x1="${num(px0)}" y1="${num(sy(v))}" x2="${num(px1)}" y2="${num(sy(v))}" stroke="#eeeeee"/>`);
    const m = Math.round(v / Number(`1e${Math.floor(Math.log10(v) + 1e-9)}`));
    if (ySparse && (m === 2 || m === 5))
      out.push(`<text x="${num(px0 - 6)}" y="${num(sy(v) + 4)}" text-anchor="end" fill="#777777" font-size="10">${escapeXml(formatValue(v))}</text>`);
  }
  for (const v of xt.major) {
    out.push(`<line class="tick major x" data-value="${v}" x1="${num(sx(v))}" y1="${num(py0)}" x2="${num(sx(v))}" y2="${num(py1 + 4)}" stroke="#cccccc"/>`);
    out.push(`<text x="${num(sx(v))}" y="${num(py1 + 17)}" text-anchor="middle">${escapeXml(formatCount(v))}</text>`);
  }
  for (const v of yt.major) {
    out.push(`<line class="tick major y" data-value="${v}" x1="${num(px0 - 4)}" y1="${num(sy(v))}" x2="${num(px1)}" y2="${num(sy(v))}" stroke="#cccccc"/>`);
    out.push(`<text x="${num(px0 - 6)}" y="${num(sy(v) + 4)}" text-anchor="end">${escapeXml(formatValue(v))}</text>`);
  }
  out.push(`<text x="${num((px0 + px1) / 2)}" y="${num(py1 + 34)}" text-anchor="middle" fill="#333333">${escapeXml(xLabel)}</text>`);
  out.push(
    `<text x="${num(ox + 14)}" y="${num((py0 + py1) / 2)}" text-anchor="middle" fill="#333333" transform="rotate(-90 ${num(ox + 14)} ${num((py0 + py1) / 2)})">${escapeXml(panel.yLabel)}</text>`,
  );
  for (const s of panel.series) {
    const p = s.points.filter(usable).slice().sort((a, b) => a[0] - b[0]);
    if (p.length === 0) continue;
    const color = escapeXml(s.color);
    out.push(`<g class="series" data-series="${escapeXml(s.name)}">`);
    if (p.length > 1)
      out.push(
        `<polyline fill="none" stroke="${color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${escapeXml(s.dash)}"` : ''} points="${p.map(([x, y]) => `${num(sx(x))},${num(sy(y))}`).join(' ')}"/>`,
      );
    if (s.markers !== false)
      for (const [x, y] of p)
        out.push(
          `<circle cx="${num(sx(x))}" cy="${num(sy(y))}" r="3.5" fill="${color}"><title>${escapeXml(`${s.name}: ${formatCount(x)} questions, ${formatValue(y)} ${panel.yLabel}`)}</title></circle>`,
        );
    out.push(`</g>`);
  }
  out.push(`</g>`);
  return out.join('\n');
}
