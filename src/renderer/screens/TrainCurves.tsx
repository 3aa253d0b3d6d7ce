/** A model's training curves: loss per epoch, dev MRR/MAP per epoch, and pre-training loss. */
import type { ReactNode } from 'react';
import { LineChart } from '../components/LineChart';
import { lossYMax, tickDigits, type TrainCharts } from '../lib/models';

/** The loss plot and the dev MRR/MAP plot side by side (and the pre-training loss, if any). */
export function TrainCurves({ charts, devExpected, testPrefix, width = 520 }: { charts: TrainCharts; devExpected: boolean; testPrefix: string; width?: number }): ReactNode {
  const yMax = lossYMax(charts.loss);
  const preMax = lossYMax(charts.pretrain);
  return (
    <div className="train-charts">
      <LineChart testId={`${testPrefix}-loss-chart`} series={charts.loss} xLabel="epoch" yLabel="training loss" yMin={0} yMax={yMax} yDigits={tickDigits(yMax)} width={width} height={220} />
      {charts.dev.length > 0 ? (
        <LineChart testId={`${testPrefix}-dev-chart`} series={charts.dev} xLabel="epoch" yLabel="dev metric (%)" yMin={0} yMax={100} yDigits={0} width={width} height={220} />
      ) : (
        <p className="muted small chart-note" data-testid={`${testPrefix}-dev-note`}>
          {devExpected ? 'Dev MRR and MAP appear after the first epoch.' : 'No dev pool: the last epoch is kept and there are no dev metrics to plot.'}
        </p>
      )}
      {charts.pretrain.length > 0 && (
        <LineChart
          testId={`${testPrefix}-pretrain-chart`}
          series={charts.pretrain}
          xLabel="pre-training epoch"
          yLabel="pre-training loss"
          yMin={0}
          yMax={preMax}
          yDigits={tickDigits(preMax)}
          width={width}
          height={220}
        />
      )}
    </div>
  );
}
