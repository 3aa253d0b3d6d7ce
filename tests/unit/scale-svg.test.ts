import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { decadeRange, escapeXml, formatCount, logTicks, renderScaleSvg, type ScaleChart } from '../../scripts/bench/scale-svg';

interface El {
  name: string;
  attrs: Record<string, string>;
  text: string;
  parent: El | null;
  children: El[];
}

/** Parses with a conforming XML parser (throws on any well-formedness error) into a small tree. */
function parse(xml: string): El {
  const p = new SaxesParser({ xmlns: true });
  const top: El = { name: '#doc', attrs: {}, text: '', parent: null, children: [] };
  let cur = top;
  p.on('opentag', (t) => {
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(t.attributes)) attrs[k] = typeof v === 'string' ? v : v.value;
    const el: El = { name: t.local ?? t.name, attrs, text: '', parent: cur, children: [] };
    cur.children.push(el);
    cur = el;
  });
  p.on('text', (t) => {
    cur.text += t;
  });
  p.on('closetag', () => {
    cur = cur.parent!;
  });
  p.write(xml).close();
  expect(top.children).toHaveLength(1);
  return top.children[0]!;
}

function all(el: El, pred: (e: El) => boolean, out: El[] = []): El[] {
  if (pred(el)) out.push(el);
  for (const c of el.children) all(c, pred, out);
  return out;
}
const textOf = (el: El): string => el.text + el.children.map(textOf).join('');

const sizes = [100_000, 300_000, 1_000_000, 3_000_000];

function chart(): ScaleChart {
  return {
    title: 'Cost by corpus size',
    xLabel: 'questions',
    caption: ['2 cores, 23.4 GB RAM, Some CPU @ 2.0GHz', 'commit abc'],
    panels: [
      {
        title: 'import, seconds',
        yLabel: 's',
        series: [
          { name: 'QPairs', color: '#1f77b4', points: sizes.map((n) => [n, n / 20_000] as const) },
          { name: 'Lucene 8', color: '#ff7f0e', dash: '6 4', points: sizes.map((n) => [n, n / 27_000] as const) },
        ],
      },
      {
        title: 'top-20 median, ms',
        yLabel: 'ms',
        // Rising, then a non-positive value that a log axis cannot show.
        series: [{ name: 'QPairs', color: '#1f77b4', points: [[100_000, 1.2], [300_000, 3.1], [1_000_000, 9], [3_000_000, 0]] }],
      },
    ],
  };
}

describe('renderScaleSvg', () => {
  it('writes well-formed SVG', () => {
    const root = parse(renderScaleSvg(chart()));
    expect(root.name).toBe('svg');
    expect(root.attrs.xmlns).toBe('http://www.w3.org/2000/svg');
    expect(Number(root.attrs.width)).toBeGreaterThan(0);
    expect(Number(root.attrs.height)).toBeGreaterThan(0);
  });

  it('places the points of monotone data monotonically: right as size grows, up as cost grows', () => {
    const root = parse(renderScaleSvg(chart()));
    const groups = all(root, (e) => e.name === 'g' && e.attrs.class === 'series');
    // QPairs and Lucene in the first panel, QPairs in the second.
    expect(groups.map((g) => g.attrs['data-series'])).toEqual(['QPairs', 'Lucene 8', 'QPairs']);
    for (const g of groups) {
      const c = g.children.filter((e) => e.name === 'circle').map((e) => [Number(e.attrs.cx), Number(e.attrs.cy)]);
      expect(c.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < c.length; i++) {
        expect(c[i]![0]).toBeGreaterThan(c[i - 1]![0]!);
        expect(c[i]![1]).toBeLessThan(c[i - 1]![1]!); // SVG y grows downwards
      }
    }
    // The zero cost is left out, not drawn at -Infinity.
    expect(groups[2]!.children.filter((e) => e.name === 'circle')).toHaveLength(3);
    expect(renderScaleSvg(chart())).not.toMatch(/NaN|Infinity/);
  });

  it('is log-log: equal ratios of size are equal distances, and a slope-1 line keeps slope 1', () => {
    const root = parse(renderScaleSvg(chart()));
    const g = all(root, (e) => e.name === 'g' && e.attrs.class === 'series')[0]!;
    const c = g.children.filter((e) => e.name === 'circle').map((e) => [Number(e.attrs.cx), Number(e.attrs.cy)] as const);
    // 100K→1M and 300K→3M are both ×10: the same horizontal distance.
    expect(c[2]![0] - c[0]![0]).toBeCloseTo(c[3]![0] - c[1]![0], 1);
    // Cost ∝ size: dy/dx in pixels is the same between every pair of points.
    const slope = (a: readonly [number, number], b: readonly [number, number]) => (b[1] - a[1]) / (b[0] - a[0]);
    expect(slope(c[0]!, c[1]!)).toBeCloseTo(slope(c[1]!, c[3]!), 1);
  });

  it('puts the major ticks at the powers of ten around the data, labelled 100K, 1M, 10M', () => {
    const root = parse(renderScaleSvg(chart()));
    const panel = all(root, (e) => e.name === 'g' && e.attrs.class === 'panel')[0]!;
    const xMajor = all(panel, (e) => e.name === 'line' && e.attrs.class === 'tick major x').map((e) => Number(e.attrs['data-value']));
    expect(xMajor).toEqual([1e5, 1e6, 1e7]);
    const yMajor = all(panel, (e) => e.name === 'line' && e.attrs.class === 'tick major y').map((e) => Number(e.attrs['data-value']));
    for (const v of yMajor) expect(Math.log10(v)).toBeCloseTo(Math.round(Math.log10(v)), 9);
    // The y data run from 100K/27K = 3.7 s to 150 s: decades 1 … 1000.
    expect(yMajor).toEqual([1, 10, 100, 1000]);
    const labels = all(panel, (e) => e.name === 'text').map(textOf);
    for (const l of ['100K', '1M', '10M']) expect(labels).toContain(l);
    // Ticks lie inside the plot: the first x major tick at the left edge of the frame.
    const frame = panel.children.find((e) => e.name === 'rect')!;
    const first = all(panel, (e) => e.name === 'line' && e.attrs.class === 'tick major x')[0]!;
    expect(Number(first.attrs.x1)).toBeCloseTo(Number(frame.attrs.x), 1);
  });

  it('escapes text: titles, series names and the caption come out as they were given', () => {
    const c = chart();
    c.title = 'A <b>&</b> "quoted" \'title\'';
    c.panels[0]!.series[0]!.name = 'QPairs <new> & "fast"';
    c.caption = ['Intel(R) Xeon(R) <2 cores> & 24 GB'];
    const svg = renderScaleSvg(c);
    expect(svg).not.toContain('<b>');
    expect(svg).not.toContain('<new>');
    const root = parse(svg);
    const texts = all(root, (e) => e.name === 'text').map(textOf);
    expect(texts).toContain('A <b>&</b> "quoted" \'title\'');
    expect(texts).toContain('QPairs <new> & "fast"');
    expect(texts).toContain('Intel(R) Xeon(R) <2 cores> & 24 GB');
    expect(all(root, (e) => e.name === 'g' && e.attrs['data-series'] === 'QPairs <new> & "fast"').length).toBeGreaterThan(0);
  });

  it('has one legend entry per distinct series name', () => {
    const root = parse(renderScaleSvg(chart()));
    const entries = all(root, (e) => e.name === 'g' && e.attrs.class === 'legend-entry').map((e) => e.attrs['data-series']);
    expect(entries).toEqual(['QPairs', 'Lucene 8']);
  });

  it('is deterministic and survives an empty chart', () => {
    expect(renderScaleSvg(chart())).toBe(renderScaleSvg(chart()));
    const empty = renderScaleSvg({ title: 't', xLabel: 'x', caption: [], panels: [{ title: 'p', yLabel: 'y', series: [{ name: 's', color: '#000', points: [] }] }] });
    parse(empty);
    expect(empty).not.toMatch(/NaN|Infinity/);
  });
});

describe('axis helpers', () => {
  it('decadeRange covers the data with whole decades, at least one wide', () => {
    expect(decadeRange([100_000, 3_000_000])).toEqual([5, 7]);
    expect(decadeRange([1000, 1000])).toEqual([3, 4]);
    expect(decadeRange([0.5, 20])).toEqual([-1, 2]);
    expect(decadeRange([0, -1, NaN])).toEqual([0, 1]);
  });
  it('logTicks: powers of ten major, 2–9 × minor', () => {
    const t = logTicks(5, 6);
    expect(t.major).toEqual([1e5, 1e6]);
    expect(t.minor).toEqual([2e5, 3e5, 4e5, 5e5, 6e5, 7e5, 8e5, 9e5]);
  });
  it('formats counts and escapes XML', () => {
    expect([1e5, 3e5, 1e6, 3e6, 1e7, 50].map(formatCount)).toEqual(['100K', '300K', '1M', '3M', '10M', '50']);
    expect(escapeXml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
  });
});
