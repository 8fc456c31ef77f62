// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadingOverlay } from '../../../islands/kit/LoadingOverlay';
import LoadingOverlayIsland from '../../../islands/LoadingOverlay';
import { $loader, setLoading } from '../../../islands/stores/loader';
import { serverThenHydrate } from './hydrate';
import { applyPageCss } from './page-css';

beforeEach(() => $loader.set({ enabled: false, message: '' }));
afterEach(cleanup);

describe('LoadingOverlay (SPEC.md §2 loading overlay)', () => {
  it('renders nothing while not enabled', () => {
    const { container } = render(<LoadingOverlay enabled={false} label="Loading…" />);
    expect(container.innerHTML).toBe('');
  });

  it('when enabled is a busy status that names the wait', () => {
    render(<LoadingOverlay enabled label="Loading…" />);
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-busy')).toBe('true');
    expect(status.textContent).toBe('Loading…');
  });

  it('shows the optional message instead of the generic label', () => {
    render(<LoadingOverlay enabled message="Creating your account…" label="Loading…" />);
    expect(screen.getByRole('status').textContent).toBe('Creating your account…');
    expect(screen.getByText('Creating your account…').className).toBe('loading-overlay__message');
  });

  it('sits fixed above the page and takes the clicks (Chromium proves the covering)', () => {
    const removeCss = applyPageCss();
    render(<LoadingOverlay enabled label="Loading…" />);
    const style = getComputedStyle(screen.getByRole('status'));
    expect(style.position).toBe('fixed');
    expect(style.pointerEvents).toBe('auto');
    expect(Number(style.zIndex)).toBeGreaterThan(5);
    removeCss();
  });
});

describe('the page-wide LoadingOverlay island', () => {
  it('follows setLoading: on with a message, then off', () => {
    render(<LoadingOverlayIsland label="Loading…" />);
    expect(screen.queryByRole('status')).toBeNull();
    act(() => setLoading(true, 'Checking the payment…'));
    expect(screen.getByRole('status').textContent).toBe('Checking the payment…');
    act(() => setLoading(false));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('hydrates the server HTML without a mismatch', async () => {
    const { problems, container } = await serverThenHydrate(<LoadingOverlayIsland label="L" />);
    expect(problems).toEqual([]);
    container.remove();
  });
});
