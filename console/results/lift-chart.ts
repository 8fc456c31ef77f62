import type { LiftPoint } from '../../shared/console-api/results';
import { dayText, percentText } from '../kit/result-texts';

/**
 * The geometry of the lift-over-days chart (results/LiftChart.tsx), pure so it can be tested
 * without drawing: one variant's cumulative relative lift per day as a line, its always-valid
 * interval as a band around it, and the zero line. In the SVG's own units (viewBox).
 */

export const CHART_WIDTH = 320;
export const CHART_HEIGHT = 160;
const LEFT = 44;
const RIGHT = 8;
const TOP = 8;
const BOTTOM = 22;

/**
 * Early intervals are very wide (few visitors, and always-valid): the axis stops at ±100% unless
 * a lift itself lies beyond, and the band is cut at the plot's edge (the text table has them all).
 */
const AXIS_LIMIT = 1;

export interface LiftChartGeometry {
  /** The plot's box, for the band's clip. */
  plot: { x: number; y: number; width: number; height: number };
  /** The lift, "M x y L x y …", a new "M" after each day without a lift. */
  line: string;
  /** The interval, one closed shape per run of days that have one. */
  band: string;
  /** Each day's lift as a dot (a single day draws no line). */
  dots: { x: number; y: number }[];
  zeroY: number;
  yLabels: { y: number; text: string }[];
  xLabels: { x: number; text: string; anchor: 'start' | 'middle' | 'end' }[];
}

const round = (value: number) => Math.round(value * 10) / 10;

/** One day of the interval band, in the SVG's units. */
interface BandDay {
  x: number;
  upper: number;
  lower: number;
}

/** One run of days that have an interval as a closed shape; nothing for no days. */
function runShape(run: readonly BandDay[]): string {
  if (run.length === 0) return '';
  // A run of one day is a thin bar rather than nothing.
  const edge = run.length === 1 ? [run[0]!.x - 2, run[0]!.x + 2] : null;
  const top = edge
    ? [`${edge[0]} ${run[0]!.upper}`, `${edge[1]} ${run[0]!.upper}`]
    : run.map((p) => `${p.x} ${p.upper}`);
  const bottom = edge
    ? [`${edge[1]} ${run[0]!.lower}`, `${edge[0]} ${run[0]!.lower}`]
    : run.map((p) => `${p.x} ${p.lower}`).reverse();
  return `M${[...top, ...bottom].join(' L')} Z`;
}

/** The days under the chart: the first and last, and the middle one of more than four. */
function xLabelsOf(
  sorted: readonly LiftPoint[],
  xOf: (index: number) => number,
): LiftChartGeometry['xLabels'] {
  const last = sorted.length - 1;
  return sorted.length === 1
    ? [{ x: xOf(0), text: dayText(sorted[0]!.day), anchor: 'middle' }]
    : [
        { x: xOf(0), text: dayText(sorted[0]!.day), anchor: 'start' },
        ...(sorted.length > 4
          ? [
              {
                x: xOf(Math.round(last / 2)),
                text: dayText(sorted[Math.round(last / 2)]!.day),
                anchor: 'middle' as const,
              },
            ]
          : []),
        { x: xOf(last), text: dayText(sorted[last]!.day), anchor: 'end' },
      ];
}

/** The chart of `points` (one variant's, any order); null when no day has a lift yet. */
export function liftChartGeometry(points: readonly LiftPoint[]): LiftChartGeometry | null {
  const sorted = [...points].sort((a, b) => a.day.localeCompare(b.day));
  const lifts = sorted.flatMap((point) =>
    point.relativeLift === null ? [] : [point.relativeLift],
  );
  if (lifts.length === 0) return null;
  const bounds = sorted.flatMap((point) =>
    point.relativeInterval ? [point.relativeInterval.lower, point.relativeInterval.upper] : [],
  );
  const low = Math.min(0, ...lifts, ...bounds.map((b) => Math.max(b, -AXIS_LIMIT)));
  const high = Math.max(0, ...lifts, ...bounds.map((b) => Math.min(b, AXIS_LIMIT)));
  // A flat line at 0 still gets an axis of its own.
  const span = high - low || 0.1;
  const plot = {
    x: LEFT,
    y: TOP,
    width: CHART_WIDTH - LEFT - RIGHT,
    height: CHART_HEIGHT - TOP - BOTTOM,
  };
  const yOf = (value: number) => round(plot.y + ((high - value) / span) * plot.height);
  const xOf = (index: number) =>
    round(
      sorted.length === 1
        ? plot.x + plot.width / 2
        : plot.x + (index / (sorted.length - 1)) * plot.width,
    );

  let line = '';
  let band = '';
  let run: BandDay[] = [];
  const closeRun = () => {
    band += runShape(run);
    run = [];
  };
  let drawing = false;
  const dots: LiftChartGeometry['dots'] = [];
  sorted.forEach((point, index) => {
    const x = xOf(index);
    if (point.relativeLift === null) {
      drawing = false;
    } else {
      const y = yOf(point.relativeLift);
      line += `${drawing ? ' L' : `${line ? ' ' : ''}M`}${x} ${y}`;
      drawing = true;
      dots.push({ x, y });
    }
    if (point.relativeInterval) {
      run.push({
        x,
        upper: yOf(point.relativeInterval.upper),
        lower: yOf(point.relativeInterval.lower),
      });
    } else {
      closeRun();
    }
  });
  closeRun();

  const xLabels = xLabelsOf(sorted, xOf);
  const zeroY = yOf(0);
  // The ends of the axis, unless one would sit on the zero line's label.
  const yLabels = [high, 0, low]
    .filter((value) => value === 0 || Math.abs(yOf(value) - zeroY) >= 12)
    .map((value) => ({ y: yOf(value), text: percentText(value, true) }));
  return { plot, line, band, dots, zeroY, yLabels, xLabels };
}
