// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Alerts } from '../../../console/alerts/Alerts';
import { newAlertsText } from '../../../console/alerts/alert-text';
import {
  $acknowledgement,
  $alerts,
  $check,
  loadAlerts,
} from '../../../console/alerts/stores/alerts';
import { Console } from '../../../console/page/Console';
import {
  type AlertsAnswer,
  CONSOLE_ALERTS_ACKNOWLEDGE_PATH,
  CONSOLE_ALERTS_PATH,
  CONSOLE_GUARDRAILS_CHECK_PATH,
  type InboxAlert,
} from '../../../shared/console-api/alerts';

/**
 * The console's Alerts area (console/alerts/Alerts.tsx) as it draws GET /console/api/alerts:
 * each alert's words, when and where it went, in words for every delivery state; acknowledged by
 * keyboard, the focus then on who did it, the count of new ones down, in the header's menu too; a
 * refusal said where it was pressed; none yet.
 */

const AT = '2026-03-02T10:00:00.000Z';

function alert(overrides: Partial<InboxAlert> = {}): InboxAlert {
  return {
    key: 'pw-us|2|srm',
    kind: 'srm',
    headline: 'Sample ratio mismatch',
    text: 'Experiment "US paywall" (pw-us, phase 2): its visitors are not split as its weights say.',
    experiment: 'pw-us',
    phase: 2,
    variant: null,
    at: AT,
    delivery: { state: 'inbox', attempts: 0, sentAt: null, lastStatus: null, lastError: null },
    acknowledged: null,
    ...overrides,
  };
}

const RAMP = alert({
  key: 'ai-landing|1|ramp|b|rollback',
  kind: 'ramp',
  headline: 'Guarded ramp',
  text: 'rolled back: broken: declines (63.00% against 0.00%)',
  experiment: 'ai-landing',
  phase: 1,
  variant: 'b',
  delivery: { state: 'given_up', attempts: 6, sentAt: null, lastStatus: 410, lastError: 'gone' },
});

/** The worker: the inbox on GET, and each acknowledgement answered with the next of `acks`. */
function stubWorker(answer: AlertsAnswer, ...acks: (InboxAlert | 404)[]) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === CONSOLE_ALERTS_PATH) return Response.json(answer);
    if (url === CONSOLE_GUARDRAILS_CHECK_PATH) {
      return Response.json({ rampMoves: 0, raised: 1, sent: 0 });
    }
    expect(url).toBe(CONSOLE_ALERTS_ACKNOWLEDGE_PATH);
    expect(init?.method).toBe('POST');
    const ack = acks.shift();
    if (ack === 404 || ack === undefined) {
      return Response.json({ ok: false, error: 'unknown_alert' }, { status: 404 });
    }
    return Response.json({ alert: ack });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

async function drawn(answer: AlertsAnswer, ...acks: (InboxAlert | 404)[]) {
  return drawnWith(false, answer, ...acks);
}

async function drawnWith(rehearsal: boolean, answer: AlertsAnswer, ...acks: (InboxAlert | 404)[]) {
  const fetch = stubWorker(answer, ...acks);
  await loadAlerts();
  render(<Alerts rehearsal={rehearsal} simulation={false} />);
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  $acknowledgement.set(null);
  $alerts.set({ kind: 'loading' });
  $check.set(null);
});

describe('the Alerts area', () => {
  it('shows each alert in its words, when, and where it went', async () => {
    await drawn({ alerts: [RAMP, alert()], unacknowledged: 2 });
    const list = screen.getByRole('list', { name: 'Alerts, newest first' });
    const [ramp, srm] = within(list).getAllByRole('listitem');
    expect(within(ramp!).getByRole('heading', { name: /Guarded ramp/ })).toBeTruthy();
    expect(ramp!.textContent).toContain('rolled back: broken: declines (63.00% against 0.00%)');
    expect(ramp!.textContent).toContain('ai-landing · variant b');
    expect(ramp!.textContent).toContain(
      'The webhook never took it (6 attempts, last answer HTTP 410): only this inbox has it.',
    );
    expect(srm!.textContent).toContain(
      'No webhook was set when it was raised: only this inbox has it.',
    );
    expect(screen.getByText('2 not acknowledged yet.')).toBeTruthy();
  });

  it('is acknowledged by keyboard; the focus goes to who did it, the count drops', async () => {
    const done = alert({ acknowledged: { by: 'ada@example.com', at: AT } });
    const fetch = await drawn({ alerts: [alert()], unacknowledged: 1 }, done);
    const button = screen.getByRole('button', { name: 'Acknowledge' });
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    button.focus();
    await userEvent.keyboard('{Enter}');
    const line = await screen.findByText(/^Acknowledged by ada@example\.com on /);
    expect(document.activeElement).toBe(line);
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(screen.getByText('Every alert is acknowledged.')).toBeTruthy();
    expect(JSON.parse(String(fetch.mock.calls[1]?.[1]?.body))).toEqual({ key: 'pw-us|2|srm' });
  });

  it('counts the new in the header’s menu, and no longer once acknowledged', async () => {
    const done = { ...RAMP, acknowledged: { by: 'ada@example.com', at: AT } };
    await drawn({ alerts: [RAMP], unacknowledged: 1 }, done);
    // The page's header (its areas wait for the live config, which this test leaves loading).
    render(<Console />);
    const menu = within(screen.getByRole('navigation', { name: 'Sections' }));
    const link = menu.getByRole('link', { name: /^Alerts/ });
    expect(link.textContent).toBe('Alerts (1 new)');
    screen.getByRole('button', { name: 'Acknowledge' }).focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByText(/^Acknowledged by ada@example\.com on /);
    expect(link.textContent).toBe('Alerts');
  });

  it('says where it was pressed when the worker refuses, and keeps the button', async () => {
    await drawn({ alerts: [alert()], unacknowledged: 1 }, 404);
    await userEvent.click(screen.getByRole('button', { name: 'Acknowledge' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That alert does not exist. Refresh the alerts to see them as they are.',
    );
    expect(screen.getByRole('button', { name: 'Acknowledge' })).toBeTruthy();
  });

  it('says when there is none yet, and the menu counts only the new', async () => {
    await drawn({ alerts: [], unacknowledged: 0 });
    expect(screen.getByText('No alert so far.')).toBeTruthy();
    expect(newAlertsText(0)).toBe('');
    expect(newAlertsText(3)).toBe(' (3 new)');
  });

  it('offers the check now only where the deployment rehearses, and says what it did', async () => {
    await drawn({ alerts: [], unacknowledged: 0 });
    expect(screen.queryByRole('button', { name: 'Check the guardrails now' })).toBeNull();
    cleanup();
    const fetch = await drawnWith(true, { alerts: [], unacknowledged: 0 });
    const check = screen.getByRole('button', { name: 'Check the guardrails now' });
    check.focus();
    await userEvent.keyboard('{Enter}');
    expect((await screen.findByText(/^Checked just now/)).textContent).toBe(
      'Checked just now: 0 guarded ramps moved, 1 new alert, 0 sent to the webhook.',
    );
    expect(document.activeElement).toBe(check);
    const posted = fetch.mock.calls.find(([url]) => url === CONSOLE_GUARDRAILS_CHECK_PATH);
    expect(posted?.[1]?.method).toBe('POST');
    // The inbox is read again after the check.
    expect(fetch.mock.calls.filter(([url]) => url === CONSOLE_ALERTS_PATH)).toHaveLength(2);
  });
});
