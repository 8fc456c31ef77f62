// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CARD_FIELDS_DEADLINE_MS } from '../../../islands/payments/card-fields-deadline';
import { $duePaid } from '../../../islands/stores/due-paid';
import UpdateCard, { type UpdateCardProps } from '../../../islands/UpdateCard';
import { fakeProvider } from './fakes';

/**
 * A manage link's Update card (islands/UpdateCard.tsx, docs/payments.md "Update the card"): the
 * form opens in place with focus on it, the new card replaces the row's with focus on the
 * result, and a refusal is said in the page's words. The card provider is a fake; the card
 * post's own rules are ./pay-due.test.ts's.
 */

const provider = fakeProvider();
vi.mock('../../../islands/payments/providers', () => ({
  chooseProvider: () => 'test',
  loadCardProvider: async () => provider,
}));

const PROPS: UpdateCardProps = {
  cardPath: '/subscription/manage.x/card',
  payPath: '/subscription/manage.x/pay-due',
  card: 'Visa •••• 4242',
  language: 'en',
  settings: { paymentProvider: 'test', stripe: null, btToken: '', threeDS: 1 },
  copy: {
    paidWith: 'Paid with',
    open: 'Update card',
    title: 'Update your card',
    save: 'Save card',
    updatedTitle: 'Card updated',
    notAvailable: 'Updating the card is not available here; write to support@example.com.',
    ended: 'This subscription has ended.',
    dueLead: 'Your last renewal is still due.',
    payNow: 'Pay {{amount}} now with this card',
    nothingDue: 'Nothing is due any more.',
    cardTitle: 'Card details',
    fields: { number: 'Card number', expiry: 'Expiry date', cvv: 'CVV', name: 'Name on card' },
    namePlaceholder: '',
    loading: 'Loading…',
    hintsLabel: 'Try:',
    advice: {
      insufficient_funds: { lead: 'Your card has insufficient funds.', hints: [] },
    } as unknown as UpdateCardProps['copy']['advice'],
    noAnswer: 'An error has occurred (look at console)',
    refusals: {
      payment_rate_limited: 'Too many declined payments. For your security, please wait an hour.',
    },
    problems: {
      card_form_unavailable: 'The card form could not load.',
      card_form_not_ready: 'Not ready.',
      payment_not_authenticated: 'Not authenticated.',
      payment_error: 'Payment error',
    },
    gateway: {} as UpdateCardProps['copy']['gateway'],
    messages: {},
  },
};

function worker(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(body, { status })),
  );
}

/** The worker, answering each post in turn; the posts it got, with their paths. */
function workerInTurn(...answers: [number, unknown][]) {
  const posts: { path: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      posts.push({ path, body: JSON.parse(String(init.body)) });
      const [status, body] = answers.shift() ?? [503, { error: 'unavailable' }];
      return Response.json(body, { status });
    }),
  );
  return posts;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  $duePaid.set(null);
});

async function openAndSave() {
  const user = userEvent.setup();
  render(<UpdateCard {...PROPS} />);
  await user.click(await screen.findByRole('button', { name: 'Update card' }));
  expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Update your card' }));
  const save = screen.getByRole('button', { name: 'Save card' });
  await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false));
  await user.click(save);
}

describe('Update card', () => {
  it('shows the new card in the row and moves focus to the result', async () => {
    worker(200, { status: 'updated', card: 'Visa •••• 3184' });
    await openAndSave();
    const done = await screen.findByRole('status');
    expect(done.textContent).toBe('Card updated');
    expect(document.activeElement).toBe(done);
    expect(screen.getByText('Visa •••• 3184')).toBeTruthy();
    expect(screen.queryByText('Visa •••• 4242')).toBeNull();
  });

  it('nothing due: no offer to pay', async () => {
    worker(200, { status: 'updated', card: 'Visa •••• 3184', due: null });
    await openAndSave();
    await screen.findByRole('status');
    expect(screen.queryByRole('button', { name: /Pay/ })).toBeNull();
  });

  it('something due: offers to pay it with the card just saved, on file, and notes it paid', async () => {
    const posts = workerInTurn(
      [200, { status: 'updated', card: 'Visa •••• 3184', due: '$39.99' }],
      [200, { status: 'requires_action', payment_intent_secret: 'pi_9_secret_x' }],
      [
        200,
        {
          status: 'paid',
          amount: '$39.99',
          card: 'Visa •••• 3184',
          renews: 'December 28, 2026, $39.99',
        },
      ],
    );
    await openAndSave();
    expect(await screen.findByText('Your last renewal is still due.')).toBeTruthy();
    const pay = screen.getByRole('button', { name: 'Pay $39.99 now with this card' });
    await userEvent.setup().click(pay);
    await waitFor(() => expect($duePaid.get()).not.toBeNull());
    expect($duePaid.get()).toEqual({
      amount: '$39.99',
      card: 'Visa •••• 3184',
      renews: 'December 28, 2026, $39.99',
    });
    // The bank's challenge ran with the provider that saved the card, then the same post again.
    expect(provider.confirmCardPayment).toHaveBeenCalledWith('pi_9_secret_x');
    expect(posts.slice(1)).toEqual([
      { path: PROPS.payPath, body: { gateway: 'test', card_on_file: true } },
      {
        path: PROPS.payPath,
        body: { gateway: 'test', card_on_file: true, payment_intent_id: 'pi_3ds' },
      },
    ]);
    expect(screen.queryByRole('button', { name: /Pay \$39\.99 now/ })).toBeNull();
  });

  it('the card on file declined: the advice in words, the offer kept', async () => {
    workerInTurn(
      [200, { status: 'updated', card: 'Visa •••• 0002', due: '$39.99' }],
      [
        402,
        {
          status: 'declined',
          decline_code: 'insufficient_funds',
          decline_class: 'insufficient_funds',
        },
      ],
    );
    await openAndSave();
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Pay $39.99 now with this card' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Your card has insufficient funds.'),
    );
    expect(screen.getByRole('button', { name: 'Pay $39.99 now with this card' })).toBeTruthy();
    expect($duePaid.get()).toBeNull();
  });

  it('a product API without the call, or a canceled subscription: said in words, the card kept', async () => {
    for (const [status, error, text] of [
      [501, 'not_available', PROPS.copy.notAvailable],
      [409, 'subscription_ended', PROPS.copy.ended],
    ] as const) {
      worker(status, { error });
      await openAndSave();
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text));
      expect(screen.getByText('Visa •••• 4242')).toBeTruthy();
      cleanup();
    }
  });

  it('a card form whose provider never arrives says it could not load after the deadline, once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let arrive: () => void = () => {};
    vi.mocked(provider.mount).mockImplementationOnce(
      () => new Promise<void>((done) => (arrive = done)),
    );
    try {
      render(<UpdateCard {...PROPS} />);
      fireEvent.click(screen.getByRole('button', { name: 'Update card' }));
      expect(screen.getByRole('status').textContent).toBe('Loading…');
      await act(() => vi.advanceTimersByTimeAsync(CARD_FIELDS_DEADLINE_MS - 1_000));
      expect(screen.getByRole('status').textContent).toBe('Loading…');
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(screen.getByRole('status').textContent).toBe(
        PROPS.copy.problems.card_form_unavailable,
      );
      expect(
        (screen.getByRole('button', { name: 'Save card' }) as HTMLButtonElement).disabled,
      ).toBe(true);
      // Fields arriving late are taken out again: the form stays as it said.
      arrive();
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(provider.unmount).toHaveBeenCalled();
      expect(screen.getByRole('status').textContent).toBe(
        PROPS.copy.problems.card_form_unavailable,
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
