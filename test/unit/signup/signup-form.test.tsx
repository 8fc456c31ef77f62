// @vitest-environment happy-dom
import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const navigate = vi.hoisted(() => vi.fn());
vi.mock('../../../islands/boot', () => ({ navigate }));

import SignupForm, { type SignupFormProps } from '../../../islands/SignupForm';
import { $signup } from '../../../islands/stores/signup';

beforeAll(() => useTestStorageEngine());
afterEach(() => {
  cleanup();
  cleanTestStorage();
  navigate.mockReset();
});

const props: SignupFormProps = {
  action: '/signup?gclid=1',
  next: '/checkout_v3_tr?gclid=1',
  production: true,
  text: {
    label: 'Your email',
    placeholder: 'name@example.com',
    shortcuts: 'Email domain suggestions',
    submit: 'Continue',
    invalid: 'Please enter a valid email address',
    empty: 'Please enter your email address',
  },
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

  it('refuses an empty field with the empty message', async () => {
    const user = userEvent.setup();
    render(<SignupForm {...props} />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Please enter your email address')).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('keeps a valid address in the signup slice and moves to the next screen', async () => {
    const user = userEvent.setup();
    render(<SignupForm {...props} />);
    await user.type(screen.getByLabelText('Your email'), ' anna@example.com {Enter}');
    expect($signup.get()).toMatchObject({ email: 'anna@example.com', emailValidity: true });
    expect(navigate).toHaveBeenCalledWith('/checkout_v3_tr?gclid=1');
  });

  it('offers reserved test domains outside production', () => {
    render(<SignupForm {...props} production={false} />);
    expect(screen.getByRole('button', { name: /example\.com/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /gmail\.com/ })).toBeNull();
  });
});
