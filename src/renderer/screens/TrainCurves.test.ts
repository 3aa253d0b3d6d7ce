/**
 * The dev curve of a model plots dev MRR and MAP in percent on a 0–100 axis, as Evaluate's curves
 * and the figures beside it (dev MRR 82.33). It plotted fractions (a tooltip said 0.823); percent
 * points on the chart's default [0, 1] axis would all sit clipped at its top.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { historySeries } from '../lib/models';
import { TrainCurves } from './TrainCurves';

describe('a model\'s dev curve', () => {
  it('plots dev MRR and MAP in percent, each epoch at its own height, on a 0–100 axis', () => {
    const charts = historySeries([
      { epoch: 1, loss: 0.7, devMRR: 0.5, devMAP: 0.4, seconds: 1 },
      { epoch: 2, loss: 0.5, devMRR: 0.8233, devMAP: 0.7345, seconds: 1 },
    ]);
    const html = renderToStaticMarkup(createElement(TrainCurves, { charts, devExpected: true, testPrefix: 'm' }));
    const dev = html.slice(html.indexOf('data-testid="m-dev-chart"'));
    expect(dev).toContain('dev metric (%)');
    expect(dev).toContain('<title>dev MRR: 82.330 after 2</title>');
    expect(dev).toContain('<title>dev MAP: 40.000 after 1</title>');
    const mrr = dev.slice(dev.indexOf('data-testid="curve-dev MRR"'), dev.indexOf('data-testid="curve-dev MAP"'));
    const cy = [...mrr.matchAll(/<circle [^>]*cy="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(cy).toHaveLength(2);
    // 82.33 sits higher (a smaller y) than 50, and neither at the top of the axis (100).
    const ticks = [...dev.matchAll(/class="tick">(\d+)</g)].map((m) => m[1]);
    expect(ticks).toContain('100');
    expect(cy[1]!).toBeLessThan(cy[0]!);
  });
});
