// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { History } from '../../../console/history/History';
import { $history } from '../../../console/kit/stores/history';
import { VERSIONS_SHOWN } from '../../../console/kit/VersionCard';
import type { VersionsAnswer } from '../../../shared/console-api/versions';

/**
 * The History page's list (console/kit/VersionCard.tsx VersionList): the newest versions first,
 * a page's worth at a time however long the history, the older ones on request; and a version's
 * own page listing that version alone.
 */

function versions(count: number): VersionsAnswer['versions'] {
  return Array.from({ length: count }, (_, index) => {
    const seq = count - index;
    return {
      seq,
      id: `v${seq}`,
      at: '2026-11-22T08:06:37.840Z',
      author: 'anna@example.com',
      note: `publish ${seq}`,
      base: seq === 1 ? null : seq - 1,
      source: 'console' as const,
      phase: 1,
      diff: [],
    };
  });
}

const listed = () =>
  within(screen.getByRole('region', { name: 'History' }))
    .getAllByRole('article')
    // The id alone: the live one's heading also says "live".
    .map((card) => card.querySelector('h3')?.textContent?.trim().split(' ')[0]);

afterEach(() => {
  cleanup();
  $history.set({ kind: 'loading' });
});

describe('the History page', () => {
  it('lists the newest versions a page at a time, the older ones on request', async () => {
    $history.set({ kind: 'ready', versions: versions(23) });
    render(<History />);
    expect(listed()).toHaveLength(VERSIONS_SHOWN);
    expect(listed()[0]).toBe('v23');

    await userEvent.click(
      screen.getByRole('button', { name: 'Show 10 older versions (13 in all)' }),
    );
    expect(listed()).toHaveLength(20);
    await userEvent.click(screen.getByRole('button', { name: 'Show 3 older versions (3 in all)' }));
    expect(listed()).toHaveLength(23);
    expect(listed().at(-1)).toBe('v1');
    expect(screen.queryByRole('button', { name: /^Show \d+ older/ })).toBeNull();
  });

  it('lists one version alone on its own page, however old, and says when there is none', () => {
    $history.set({ kind: 'ready', versions: versions(23) });
    render(<History only="v2" />);
    expect(listed()).toEqual(['v2']);
    expect(screen.getByRole('link', { name: 'All versions' }).getAttribute('href')).toBe(
      '/console/history',
    );
    cleanup();
    render(<History only="v99" />);
    expect(screen.getByText('No version v99 in the history.')).toBeTruthy();
  });
});
