// @vitest-environment happy-dom
import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const navigate = vi.hoisted(() => vi.fn());
vi.mock('../../../islands/boot', () => ({ navigate }));

import ErrorToast from '../../../islands/ErrorToast';
import SignupForm from '../../../islands/SignupForm';
import { $error } from '../../../islands/stores/error';
import { $signup } from '../../../islands/stores/signup';
import { signupFormProps } from '../../../screens/signup/SignupPieces';
import type { PaymentSettingsResponse } from '../../../shared/api/contract';
import { shippedTranslator } from '../../../worker/i18n';
import { FAULT_ANSWERS, type WorkerAnswer } from '../../fixtures/portal-fault-answers';
import { renderScreenProps } from '../plans/render-screen';

/**
 * The email sign-up when the product API fails: the worker's answer for each portal fault
 * (test/fixtures/portal-fault-answers.ts, proved in test/worker/api/portal-fault-answers.test.ts)
 * is 'Failed to create an account' in the toast (SPEC.md §8), the address stays and the form can
 * be sent again; once the portal is back, the same form creates the account and moves on.
 */

beforeAll(() => useTestStorageEngine());
afterEach(() => {
  cleanup();
  cleanTestStorage();
  navigate.mockReset();
  vi.unstubAllGlobals();
  $error.set({ show: false, message: '' });
});

/** The form's props as the worker renders the signup screen in English. */
const props = signupFormProps(renderScreenProps(shippedTranslator('en'), 'signup'));

const SETTINGS: PaymentSettingsResponse = {
  stripe_publishable_key: 'pk_test_fake_portal',
  stripe_account_name: 'Fake portal',
  braintree_client_token: null,
  payment_gateway: 'stripe',
  request_three_d_secure: false,
};

const ACCOUNT = {
  status: 200,
  body: { data: { deeplink_token: 'dl', entity: { external_user_id: 'user-7' } } },
};

/** The worker's /api: the sign-up answers `signup`, the calls after it succeed. */
function stubApi(signup: WorkerAnswer | typeof ACCOUNT) {
  const answers: Record<string, { status: number; body: unknown }> = {
    '/api/signup': signup,
    '/api/users/me/payments-settings': { status: 200, body: SETTINGS },
    '/api/cf-country': { status: 200, body: { country_code: 'GB' } },
  };
  const fetch = vi.fn(async (url: string) => {
    const answer = answers[url] ?? { status: 404, body: { errors: { messages: [] } } };
    return Response.json(answer.body, { status: answer.status });
  });
  vi.stubGlobal('fetch', fetch);
}

describe.each(FAULT_ANSWERS)('the portal $fault', ({ signup }) => {
  it('the sign-up reads "Failed to create an account", and the same form then succeeds', async () => {
    stubApi(signup);
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const user = userEvent.setup();
    const { container } = render(
      <>
        <SignupForm {...props} />
        <ErrorToast closeLabel="Close" />
      </>,
    );
    const field = screen.getByLabelText<HTMLInputElement>(props.text.label);
    await user.type(field, 'fault@example.com');
    await user.click(screen.getByRole('button', { name: props.text.submit }));
    await waitFor(() =>
      expect(container.querySelector('.toast__message')?.textContent).toBe(
        'Failed to create an account',
      ),
    );
    expect(field.value).toBe('fault@example.com');
    const button = await screen.findByRole('button', { name: props.text.submit });
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
    expect($signup.get().isSuccess).not.toBe(true);

    stubApi(ACCOUNT);
    await user.click(button);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(props.next));
    expect($signup.get()).toMatchObject({
      isSuccess: true,
      paymentProvider: 'stripe',
      stripe: { key: 'pk_test_fake_portal', name: 'Fake portal' },
    });
  });
});
