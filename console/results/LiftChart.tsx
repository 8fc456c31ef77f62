import { useId } from 'react';
import type { LiftPoint, ResultMetric } from '../../shared/console-api/results';
import { dayText, intervalText, METRIC_NAMES, percentText } from '../kit/result-texts';
import { CHART_HEIGHT, CHART_WIDTH, liftChartGeometry } from './lift-chart';

/**
 * The primary metric's lift of one variant over the days of the phase (each day cumulative up to
 * it), with its always-valid interval as a band and the zero line: drawn by hand in SVG (no chart
 * library in the console's bundle). The same numbers are in a table for screen readers.
 */
export function LiftChart(props: {
  variant: string;
  control: string;
  metric: ResultMetric;
  points: readonly LiftPoint[];
}) {
  const { variant, control, metric } = props;
  const points = [...props.points].sort((a, b) => a.day.localeCompare(b.day));
  const clipId = `lift-clip${useId().replace(/[^\w-]/g, '')}`;
  const geometry = liftChartGeometry(points);
  const title = `${METRIC_NAMES[metric]}: lift of ${variant} against ${control}, day by day`;
  return (
    <figure className="lift-chart">
      <figcaption>{title}</figcaption>
      {geometry ? (
        <svg
          className="lift-chart__svg"
          viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
          aria-hidden="true"
          focusable="false"
        >
          <defs>
            <clipPath id={clipId}>
              <rect {...geometry.plot} />
            </clipPath>
          </defs>
          <path className="lift-chart__band" d={geometry.band} clipPath={`url(#${clipId})`} />
          <line
            className="lift-chart__zero"
            x1={geometry.plot.x}
            x2={geometry.plot.x + geometry.plot.width}
            y1={geometry.zeroY}
            y2={geometry.zeroY}
          />
          <path className="lift-chart__line" d={geometry.line} />
          {geometry.dots.map((dot) => (
            <circle key={dot.x} className="lift-chart__dot" cx={dot.x} cy={dot.y} r={2.5} />
          ))}
          {geometry.yLabels.map((label) => (
            <text
              key={label.text}
              x={geometry.plot.x - 4}
              y={label.y}
              textAnchor="end"
              dominantBaseline="middle"
            >
              {label.text}
            </text>
          ))}
          {geometry.xLabels.map((label) => (
            <text key={label.x} x={label.x} y={CHART_HEIGHT - 6} textAnchor={label.anchor}>
              {label.text}
            </text>
          ))}
        </svg>
      ) : (
        <p className="muted">No lift to draw yet.</p>
      )}
      {points.length > 0 ? <LiftTable title={title} points={points} /> : null}
    </figure>
  );
}

/** The chart's numbers as a table, for screen readers. */
function LiftTable({ title, points }: { title: string; points: readonly LiftPoint[] }) {
  return (
    // Wrapped: a table itself takes no width or overflow from .visually-hidden.
    <div className="visually-hidden">
      <table>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Lift</th>
            <th scope="col">95% interval</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.day}>
              <th scope="row">{dayText(point.day)}</th>
              <td>
                {point.relativeLift === null ? 'none yet' : percentText(point.relativeLift, true)}
              </td>
              <td>{point.relativeInterval ? intervalText(point.relativeInterval) : 'none yet'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
