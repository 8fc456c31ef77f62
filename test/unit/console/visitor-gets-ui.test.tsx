// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServedFunnel, screenText, useVisitorGets } from '../../../console/kit/visitor-gets';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { VisitorGetsAnswer } from '../../../shared/console-api/routes';
import { visitorGetsAnswer } from './fixtures';

/**
 * What a visitor gets, as a page of the console asks it (console/kit/visitor-gets.tsx): opened
 * again in the same visit, the page shows the last answer at once, so nothing under it moves while
 * the question is asked again, and the new answer replaces the kept one.
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The worker answering each question with the next of `answers` (a number: that HTTP status). */
function worker(answers: (VisitorGetsAnswer | number)[]) {
  const asked = vi.fn(async (url: string) => {
    expect(url).toBe(CONSOLE_API.visitorGets);
    const next = answers.shift() ?? 500;
    return typeof next === 'number'
      ? new Response(JSON.stringify({ ok: false, error: 'unavailable' }), { status: next })
      : new Response(JSON.stringify(next), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', asked);
  return asked;
}

/** A route's line as the Traffic page draws it, for the live version `version`. */
function RouteLine({ version }: { version: string }) {
  const gets = useVisitorGets({ route: 'default', country: null, platform: 'other' }, version);
  return (
    <ServedFunnel
      gets={gets}
      label="Screens route default shows"
      statement={(answer) => <>Its visitors open with the landing {screenText(answer.landing)}.</>}
    />
  );
}

describe('what a visitor gets, asked again as a page opens again', () => {
  it('shows the last answer at once, then the new one; another version is asked afresh', async () => {
    // A version of this file's own: the answers kept are the visit's, which this file shares.
    const asked = worker([
      visitorGetsAnswer('default', ['one_pager', 'signup']),
      visitorGetsAnswer('default', ['one_pager_ai', 'signup']),
    ]);
    const first = render(<RouteLine version="kept-1" />);
    expect(screen.getByText('Reading what its visitors get…')).toBeTruthy();
    await screen.findByText('Its visitors open with the landing one_pager.');
    first.unmount();

    render(<RouteLine version="kept-1" />);
    // Drawn from the kept answer before any reply: no "Reading" line to grow from.
    expect(screen.queryByText('Reading what its visitors get…')).toBeNull();
    expect(screen.getByText('Its visitors open with the landing one_pager.')).toBeTruthy();
    await screen.findByText('Its visitors open with the landing one_pager_ai.');
    expect(asked).toHaveBeenCalledTimes(2);
    cleanup();

    worker([visitorGetsAnswer('default', ['one_pager', 'signup'])]);
    render(<RouteLine version="kept-2" />);
    expect(screen.getByText('Reading what its visitors get…')).toBeTruthy();
    await screen.findByText('Its visitors open with the landing one_pager.');
  });

  it('says a failed question’s reason, and keeps no answer the worker no longer gives', async () => {
    worker([visitorGetsAnswer('default', ['one_pager', 'signup']), 503]);
    const first = render(<RouteLine version="kept-3" />);
    await screen.findByText('Its visitors open with the landing one_pager.');
    first.unmount();

    const second = render(<RouteLine version="kept-3" />);
    await screen.findByText(/^What its visitors get could not be read: /);
    second.unmount();

    worker([visitorGetsAnswer('default', ['one_pager_ai', 'signup'])]);
    render(<RouteLine version="kept-3" />);
    expect(screen.getByText('Reading what its visitors get…')).toBeTruthy();
    await screen.findByText('Its visitors open with the landing one_pager_ai.');
  });
});
