// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LinearProgress } from '../../../islands/kit/LinearProgress';
import { applyPageCss } from './page-css';

afterEach(cleanup);

function bar() {
  const progress = screen.getByRole('progressbar', { name: 'Progress' });
  const segments = [...progress.querySelectorAll('.linear-progress__segment')];
  return {
    progress,
    total: segments.length,
    done: segments.filter((s) => s.classList.contains('linear-progress__segment--done')).length,
  };
}

describe('LinearProgress (SPEC.md §2 linear progress bar)', () => {
  it('is a named progress bar saying how far along it is', () => {
    render(<LinearProgress segments={4} current={2} label="Progress" valueText="Step 2 of 4" />);
    const { progress } = bar();
    expect(progress.getAttribute('aria-valuemin')).toBe('0');
    expect(progress.getAttribute('aria-valuemax')).toBe('4');
    expect(progress.getAttribute('aria-valuenow')).toBe('2');
    expect(progress.getAttribute('aria-valuetext')).toBe('Step 2 of 4');
  });

  it('draws one segment per step and fills the steps done', () => {
    render(<LinearProgress segments={5} current={3} label="Progress" />);
    expect(bar()).toMatchObject({ total: 5, done: 3 });
  });

  it.each([
    [-1, 0],
    [9, 4],
    [2.7, 2],
  ])('keeps a current step of %s within the bar (%s filled)', (current, done) => {
    render(<LinearProgress segments={4} current={current} label="Progress" />);
    expect(bar()).toMatchObject({ total: 4, done });
    expect(bar().progress.getAttribute('aria-valuenow')).toBe(String(done));
  });

  it('has at least one segment', () => {
    render(<LinearProgress segments={0} current={0} label="Progress" />);
    expect(bar().total).toBe(1);
  });

  it('separates its segments by 5px (SPEC.md §9)', () => {
    const removeCss = applyPageCss();
    render(<LinearProgress segments={3} current={1} label="Progress" />);
    expect(getComputedStyle(bar().progress).gap).toBe('5px');
    removeCss();
  });
});
