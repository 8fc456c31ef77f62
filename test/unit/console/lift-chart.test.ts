import { describe, expect, it } from 'vitest';
import { CHART_HEIGHT, liftChartGeometry } from '../../../console/results/lift-chart';
import type { LiftPoint } from '../../../shared/console-api/results';

const point = (day: string, lift: number | null, lower?: number, upper?: number): LiftPoint => ({
  day,
  variant: 'lp17',
  relativeLift: lift,
  relativeInterval: lower === undefined || upper === undefined ? null : { lower, upper },
});

describe('the lift-over-days chart', () => {
  it('draws nothing while no day has a lift', () => {
    expect(liftChartGeometry([])).toBeNull();
    expect(liftChartGeometry([point('2026-11-20', null)])).toBeNull();
  });

  it('draws the days in order, the lift inside its band, and the zero line between', () => {
    const chart = liftChartGeometry([
      point('2026-11-22', 0.1, 0.02, 0.2),
      point('2026-11-20', -0.1, -0.3, 0.1),
      point('2026-11-21', 0, -0.15, 0.15),
    ])!;
    const xs = chart.dots.map((dot) => dot.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    // Higher lift is higher up (smaller y): the last day's lift is above zero, the first below.
    expect(chart.dots[2]!.y).toBeLessThan(chart.zeroY);
    expect(chart.dots[0]!.y).toBeGreaterThan(chart.zeroY);
    // The axis reaches the widest bounds: +20% at the top of the plot, −30% at its bottom.
    expect(chart.yLabels.map((label) => label.text)).toEqual(['+20%', '0%', '−30%']);
    expect(chart.yLabels[0]!.y).toBe(chart.plot.y);
    expect(chart.yLabels[2]!.y).toBe(chart.plot.y + chart.plot.height);
    expect(chart.line.match(/M/g)).toHaveLength(1);
    expect(chart.band.match(/Z/g)).toHaveLength(1);
    expect(chart.xLabels.map((label) => label.text)).toEqual(['20 Nov', '22 Nov']);
    expect(chart.xLabels.every((label) => label.x >= 0 && label.x <= 320)).toBe(true);
  });

  it('leaves a gap for a day without a lift rather than joining across it', () => {
    const chart = liftChartGeometry([
      point('2026-11-20', 0.1, 0, 0.2),
      point('2026-11-21', null),
      point('2026-11-22', 0.2, 0.1, 0.3),
      point('2026-11-23', 0.15, 0.05, 0.25),
    ])!;
    expect(chart.line.match(/M/g)).toHaveLength(2);
    expect(chart.band.match(/Z/g)).toHaveLength(2);
    expect(chart.dots).toHaveLength(3);
  });

  it('stops the axis at ±100% for a wide early interval, unless the lift itself is beyond', () => {
    const early = liftChartGeometry([point('2026-11-20', 0.3, -4, 6)])!;
    expect(early.yLabels.map((label) => label.text)).toEqual(['+100%', '0%', '−100%']);
    // A single day is drawn in the middle, its band a thin bar rather than nothing.
    expect(early.dots[0]!.x).toBe(early.xLabels[0]!.x);
    expect(early.band).toMatch(/^M.+Z$/);
    const huge = liftChartGeometry([point('2026-11-20', 2.5, -4, 6)])!;
    expect(huge.yLabels[0]!.text).toBe('+250%');
    expect(huge.dots[0]!.y).toBe(huge.plot.y);
    expect(huge.yLabels.every((label) => label.y <= CHART_HEIGHT)).toBe(true);
  });
});
