import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  CIRCULAR_PROGRESS_SIZE,
  CircularProgress,
  clampPercent,
} from '../../../islands/kit/CircularProgress';

const render = (value: number, size?: number) =>
  renderToString(<CircularProgress value={value} label="Search progress" size={size} />);

describe('CircularProgress (SPEC.md §2, §5, §9)', () => {
  it('is a named progress bar from 0 to 100 reporting its value', () => {
    const html = render(42);
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-label="Search progress"');
    expect(html).toContain('aria-valuemin="0"');
    expect(html).toContain('aria-valuemax="100"');
    expect(html).toContain('aria-valuenow="42"');
    expect(html).toContain('42<!-- -->%');
  });

  it('is 174 pixels unless told otherwise', () => {
    expect(CIRCULAR_PROGRESS_SIZE).toBe(174);
    expect(render(10)).toContain('width:174px;height:174px');
    expect(render(10, 112)).toContain('width:112px;height:112px');
  });

  it('keeps the value within 0 to 100', () => {
    expect(clampPercent(-5)).toBe(0);
    expect(clampPercent(140)).toBe(100);
    expect(clampPercent(Number.NaN)).toBe(0);
    expect(clampPercent(33.6)).toBe(34);
    expect(render(250)).toContain('aria-valuenow="100"');
  });

  it('fills the ring in proportion to the value', () => {
    const offset = (html: string) => Number(html.match(/stroke-dashoffset="([\d.]+)"/)?.[1]);
    const dash = (html: string) => Number(html.match(/stroke-dasharray="([\d.]+)"/)?.[1]);
    const quarter = render(25);
    expect(offset(quarter) / dash(quarter)).toBeCloseTo(0.75, 5);
    expect(offset(render(100))).toBe(0);
  });

  it('shows the small ring below 100, and a check mark instead at 100', () => {
    expect(render(99)).toContain('circular-progress__small-ring');
    expect(render(99)).not.toContain('circular-progress__check');
    const done = render(100);
    expect(done).not.toContain('circular-progress__small-ring');
    expect(done).toContain('circular-progress__check');
    expect(done).toContain('circular-progress--complete');
  });
});
