// @vitest-environment happy-dom
import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const navigate = vi.hoisted(() => vi.fn());
vi.mock('../../../islands/boot', () => ({ navigate }));

import SignupForm, { type SignupFormProps } from '../../../islands/SignupForm';
import { $error } from '../../../islands/stores/error';
import { $signup } from '../../../islands/stores/signup';

beforeAll(() => useTestStorageEngine());
afterEach(() => {
  cleanup();
  cleanTestStorage();
  navigate.mockReset();
  vi.unstubAllGlobals();
  $error.set({ show: false, message: '' });
});

const props: SignupFormProps = {
  action: '/signup?gclid=1',
  next: '/checkout_v3_tr?gclid=1',
  production: true,
  userUuid: '8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b',
  landingType: 'split_default',
  text: {
    label: 'Your email',
    placeholder: 'name@example.com',
    shortcuts: 'Email domain suggestions',
    submit: 'Continue',
    busy: 'Please wait…',
    creating: 'Creating your account…',
    invalid: 'Please enter a valid email address',
    empty: 'Please enter your email address',
    takenNext:
      'This email already has an account: log in to the app with it, or use another email.',
    useAnother: 'Use another email',
  },
  stores: [
    { name: 'App Store', href: 'https://apps.example/geozilla' },
    { name: 'Google Play', href: 'https://play.example/geozilla' },
  ],
  errors: {
    email_exists: 'Diese E-Mail-Adresse wird bereits verwendet',
    signup_failed: 'Failed to create an account',
    rate_limited: 'Too many attempts. Please wait a few minutes and try again.',
  },
};

/** The worker's /api: sign-up answers `signup`, the calls after it succeed. */
function stubApi(signup: { status: number; body: unknown }) {
  const fetch = vi.fn(async (url: string, _init?: RequestInit) => {
    const answers: Record<string, { status: number; body: unknown }> = {
      '/api/signup': signup,
      '/api/users/me/payments-settings': {
        status: 200,
        body: {
          stripe_publishable_key: 'pk_test_1',
          stripe_account_name: 'Geozilla',
          braintree_client_token: null,
          payment_gateway: 'stripe',
          request_three_d_secure: false,
        },
      },
      '/api/cf-country': { status: 200, body: { country_code: 'US' } },
    };
    const answer = answers[url] ?? { status: 500, body: { errors: { messages: [] } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const ACCOUNT = {
  status: 200,
  body: { data: { deeplink_token: 'dl', entity: { external_user_id: 'user-7' } } },
};

describe('SignupForm', () => {
  it('refuses an invalid address in place and does not move on', async () => {
    const user = userEvent.setup();
    render(<SignupForm {...props} />);
    await user.type(screen.getByLabelText('Your email'), 'anna@gmail');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
    expect($signup.get().email).toBe('');
  });

  it('keeps a valid typed address in the signup store, for a way out to the real browser', async () => {
    const user = userEvent.setup();
    render(<SignupForm {...props} />);
    await user.type(screen.getByLabelText('Your email'), 'anna@gmail.com');
    expect($signup.get()).toMatchObject({ email: 'anna@gmail.com', emailValidity: true });
  });

  it('starts from the address kept in the store, as after a resume link', async () => {
    $signup.setKey('email', 'kept@example.com');
    render(<SignupForm {...props} />);
    await vi.waitFor(() =>
      expect((screen.getByLabelText('Your email') as HTMLInputElement).value).toBe(
        'kept@example.com',
      ),
    );
  });

  it('refuses an empty field with the empty message', async () => {
    const user = userEvent.setup();
    render(<SignupForm {...props} />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Please enter your email address')).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('creates the account with a valid address, then moves to the next screen', async () => {
    const fetch = stubApi(ACCOUNT);
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const user = userEvent.setup();
    render(<SignupForm {...props} />);
    await user.type(screen.getByLabelText('Your email'), ' anna@example.com {Enter}');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/checkout_v3_tr?gclid=1'));
    expect(fetch.mock.calls[0]![0]).toBe('/api/signup');
    expect($signup.get()).toMatchObject({
      email: 'anna@example.com',
      emailValidity: true,
      isSuccess: true,
      userId: 'user-7',
    });
    // On its way to the next screen: the button stays busy so it is not pressed twice.
    expect(screen.getByRole('button', { name: 'Please wait…' }).getAttribute('aria-busy')).toBe(
      'true',
    );
  });

  it('on failure says why, keeps the typed address and can be sent again', async () => {
    const fetch = stubApi({ status: 500, body: { errors: { messages: [] } } });
    const user = userEvent.setup();
    render(<SignupForm {...props} />);
    const field = screen.getByLabelText<HTMLInputElement>('Your email');
    await user.type(field, 'anna@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() =>
      expect($error.get()).toEqual({ show: true, message: props.errors.signup_failed }),
    );
    expect(field.value).toBe('anna@example.com');
    const button = await screen.findByRole('button', { name: 'Continue' });
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    await user.click(button);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
  });

  it('says beside the field that an address is taken, with where to log in, until it is edited', async () => {
    stubApi({ status: 422, body: { errors: { messages: ['The email has already been taken.'] } } });
    const user = userEvent.setup();
    render(<SignupForm {...props} />);
    const field = screen.getByLabelText<HTMLInputElement>('Your email');
    await user.type(field, 'anna@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    // Not the toast that goes after 3 s: the field's own description.
    expect($error.get().show).toBe(false);
    const said = document.getElementById(field.getAttribute('aria-describedby') ?? '');
    expect(said?.textContent).toBe(
      `${props.errors.email_exists} ${props.text.takenNext} App StoreGoogle PlayUse another email`,
    );
    expect(screen.getByRole('link', { name: 'App Store' }).getAttribute('href')).toBe(
      'https://apps.example/geozilla',
    );
    await user.click(screen.getByRole('link', { name: 'Use another email' }));
    expect(field.value).toBe('');
    expect(document.activeElement).toBe(field);
    expect(field.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText(props.errors.email_exists)).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('ignores a second press while the account is being created', async () => {
    let answer: (response: Response) => void = () => {};
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    render(<SignupForm {...props} />);
    await user.type(screen.getByLabelText('Your email'), 'anna@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const busy = await screen.findByRole('button', { name: 'Please wait…' });
    await user.click(busy);
    await user.keyboard('{Enter}');
    expect(fetch).toHaveBeenCalledTimes(1);
    answer(new Response('{}', { status: 500 }));
    await waitFor(() => expect($error.get().message).toBe(props.errors.signup_failed));
  });

  it('shows the worker’s refusal of a post made before it hydrated, until the address is edited', async () => {
    const fetch = stubApi(ACCOUNT);
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const user = userEvent.setup();
    render(
      <SignupForm
        {...props}
        refused={{ value: 'taken@example.com', message: props.errors.email_exists }}
      />,
    );
    const field = screen.getByLabelText<HTMLInputElement>('Your email');
    expect(field.value).toBe('taken@example.com');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    // Said with the field, as a screen reader reads its description.
    const describedBy = field.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(props.errors.email_exists);
    await user.clear(field);
    await user.type(field, 'other@example.com');
    expect(screen.queryByText(props.errors.email_exists)).toBeNull();
    expect(field.getAttribute('aria-invalid')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/checkout_v3_tr?gclid=1'));
    expect(JSON.parse(String(fetch.mock.calls[0]![1]?.body))).toMatchObject({
      email: 'other@example.com',
    });
  });

  it('offers reserved test domains outside production', () => {
    render(<SignupForm {...props} production={false} />);
    expect(screen.getByRole('button', { name: /example\.com/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /gmail\.com/ })).toBeNull();
  });
});
