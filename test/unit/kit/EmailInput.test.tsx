// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmailInput, type EmailInputProps } from '../../../islands/kit/EmailInput';
import { EMAIL_DOMAINS_DEV } from '../../../islands/kit/email-domains';
import { isValidEmail } from '../../../shared/email-validity';
import { serverThenHydrate } from './hydrate';

afterEach(cleanup);

const MESSAGES = {
  invalid: 'Please enter a valid email address',
  empty: 'Please enter your email',
};

/** The way the signup island will use it: its own state, validity from isValidEmail. */
function SignupLike({ initial = '', ...props }: Partial<EmailInputProps> & { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <EmailInput
      value={value}
      onChange={setValue}
      valid={isValidEmail(value)}
      label="Your email"
      errorMessages={MESSAGES}
      shortcutsLabel="Email domain suggestions"
      {...props}
    />
  );
}

const field = () => screen.getByLabelText<HTMLInputElement>('Your email');
const shortcutButtons = () =>
  screen
    .queryAllByRole('button')
    .filter((button) => button.closest('.email-input__shortcuts'))
    .map((button) => button.textContent);

function errorText(input: HTMLInputElement): string | null {
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

describe('EmailInput field (SPEC.md §4, §5)', () => {
  it('is a labelled email field the phone keyboard and autofill understand', () => {
    render(<SignupLike />);
    const input = field();
    expect(input.type).toBe('email');
    expect(input.getAttribute('autocomplete')).toBe('email');
    expect(input.getAttribute('inputmode')).toBe('email');
    expect(input.name).toBe('email');
  });

  it('shows the invalid error on blur when the value is non-empty and invalid', async () => {
    const user = userEvent.setup();
    render(
      <>
        <SignupLike />
        <button type="button">Elsewhere</button>
      </>,
    );
    await user.type(field(), 'anna@gmail');
    expect(field().getAttribute('aria-invalid')).toBeNull();
    await user.click(screen.getByText('Elsewhere'));
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(errorText(field())).toBe(MESSAGES.invalid);
  });

  it('shows no error on blur when the field is empty or valid', async () => {
    const user = userEvent.setup();
    render(
      <>
        <SignupLike />
        <button type="button">Elsewhere</button>
      </>,
    );
    await user.click(field());
    await user.click(screen.getByText('Elsewhere'));
    expect(field().getAttribute('aria-invalid')).toBeNull();
    await user.type(field(), 'anna@gmail.com');
    await user.click(screen.getByText('Elsewhere'));
    expect(field().getAttribute('aria-invalid')).toBeNull();
    expect(field().getAttribute('aria-describedby')).toBeNull();
  });

  it('shows no error when focus leaves for a domain shortcut', async () => {
    const user = userEvent.setup();
    render(<SignupLike />);
    await user.type(field(), 'anna');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('@gmail.com');
    expect(field().getAttribute('aria-invalid')).toBeNull();
  });

  it('clears the error as soon as the visitor types', async () => {
    const user = userEvent.setup();
    render(<SignupLike initial="anna@" />);
    await user.click(field());
    await user.tab({ shift: true });
    expect(field().getAttribute('aria-invalid')).toBe('true');
    await user.type(field(), 'x');
    expect(field().getAttribute('aria-invalid')).toBeNull();
    expect(errorText(field())).toBeNull();
  });

  it('submits on Enter in a valid field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<SignupLike onSubmit={onSubmit} />);
    await user.type(field(), 'anna@gmail.com{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('does not submit on Enter in an invalid field, and says why', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<SignupLike onSubmit={onSubmit} />);
    await user.type(field(), 'anna@gmail{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(errorText(field())).toBe(MESSAGES.invalid);
  });

  it('says the field is empty when Enter is pressed in an empty field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<SignupLike onSubmit={onSubmit} />);
    await user.type(field(), '{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(errorText(field())).toBe(MESSAGES.empty);
  });

  it('with the error option off shows the red state but no error text', async () => {
    const user = userEvent.setup();
    render(<SignupLike showErrorMessage={false} />);
    await user.type(field(), 'anna@{Enter}');
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(field().getAttribute('aria-describedby')).toBeNull();
    expect(screen.queryByText(MESSAGES.invalid)).toBeNull();
  });
});

describe('EmailInput inside a form (the Continue form of a screen)', () => {
  function submitOutcome(): { prevented: boolean | null } {
    const seen = { prevented: null as boolean | null };
    // Where islands/boot.ts listens: on the document, bubbling.
    document.addEventListener(
      'submit',
      (event) => {
        seen.prevented = event.defaultPrevented;
        event.preventDefault();
      },
      { once: true },
    );
    return seen;
  }

  it('cancels the submission of an invalid value and shows the error', async () => {
    const user = userEvent.setup();
    render(
      <form>
        <SignupLike initial="anna@gmail" />
        <button type="submit">Continue</button>
      </form>,
    );
    const seen = submitOutcome();
    await user.click(screen.getByText('Continue'));
    expect(seen.prevented).toBe(true);
    expect(errorText(field())).toBe(MESSAGES.invalid);
    expect(document.activeElement).toBe(field());
  });

  it('cancels the submission of an empty field with the empty message', async () => {
    const user = userEvent.setup();
    render(
      <form>
        <SignupLike />
        <button type="submit">Continue</button>
      </form>,
    );
    const seen = submitOutcome();
    await user.click(screen.getByText('Continue'));
    expect(seen.prevented).toBe(true);
    expect(errorText(field())).toBe(MESSAGES.empty);
  });

  it('lets a valid value through to the page script', async () => {
    const user = userEvent.setup();
    render(
      <form>
        <SignupLike initial="anna@gmail.com" />
        <button type="submit">Continue</button>
      </form>,
    );
    const seen = submitOutcome();
    await user.click(screen.getByText('Continue'));
    expect(seen.prevented).toBe(false);
    expect(field().getAttribute('aria-invalid')).toBeNull();
  });
});

describe('EmailInput domain shortcuts (SPEC.md §5)', () => {
  it('offers gmail, yahoo and hotmail by default, as named buttons in a named group', () => {
    render(<SignupLike />);
    expect(screen.getByRole('group', { name: 'Email domain suggestions' })).toBeTruthy();
    expect(shortcutButtons()).toEqual(['@gmail.com', '@yahoo.com', '@hotmail.com']);
    expect(screen.getByRole('button', { name: '@yahoo.com' })).toBeTruthy();
  });

  it('are not shown when disabled', () => {
    render(<SignupLike showShortcuts={false} />);
    expect(shortcutButtons()).toEqual([]);
    expect(screen.queryByRole('group')).toBeNull();
  });

  it('offer the set they are given (the dev set outside production)', () => {
    render(<SignupLike domains={EMAIL_DOMAINS_DEV} />);
    expect(shortcutButtons()).toEqual(EMAIL_DOMAINS_DEV.map((domain) => `@${domain}`));
  });

  it('narrow to the one the typed domain already matches', async () => {
    const user = userEvent.setup();
    render(<SignupLike />);
    await user.type(field(), 'anna@hotmail.com');
    expect(shortcutButtons()).toEqual(['@hotmail.com']);
    await user.type(field(), '{Backspace}');
    expect(shortcutButtons()).toEqual(['@gmail.com', '@yahoo.com', '@hotmail.com']);
  });

  it('replace the domain part of the typed value and keep focus in the field', async () => {
    const user = userEvent.setup();
    render(<SignupLike />);
    await user.type(field(), 'anna@yah');
    await user.click(screen.getByRole('button', { name: '@gmail.com' }));
    expect(field().value).toBe('anna@gmail.com');
    expect(document.activeElement).toBe(field());
    expect(field().getAttribute('aria-invalid')).toBeNull();
  });

  it('never take focus from the field when pressed (the phone keyboard stays open)', async () => {
    const user = userEvent.setup();
    render(<SignupLike />);
    await user.type(field(), 'anna');
    await user.pointer({ keys: '[MouseLeft>]', target: screen.getByText('@gmail.com') });
    expect(document.activeElement).toBe(field());
    await user.pointer({ keys: '[/MouseLeft]' });
    expect(field().value).toBe('anna@gmail.com');
  });

  it('complete a bare name', async () => {
    const user = userEvent.setup();
    render(<SignupLike />);
    await user.type(field(), 'anna');
    await user.click(screen.getByRole('button', { name: '@yahoo.com' }));
    expect(field().value).toBe('anna@yahoo.com');
  });

  it('do nothing while the field is empty', async () => {
    const user = userEvent.setup();
    render(<SignupLike />);
    const gmail = screen.getByRole('button', { name: '@gmail.com' });
    expect(gmail.getAttribute('aria-disabled')).toBe('true');
    await user.click(gmail);
    expect(field().value).toBe('');
  });

  it('work from the keyboard', async () => {
    const user = userEvent.setup();
    render(<SignupLike />);
    await user.type(field(), 'anna');
    await user.tab();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(field().value).toBe('anna@yahoo.com');
    expect(document.activeElement).toBe(field());
  });
});

describe('EmailInput as part of an island', () => {
  it('hydrates the server HTML without a mismatch, with the error text wired by id', async () => {
    const { container, problems } = await serverThenHydrate(<SignupLike initial="anna@" />);
    expect(problems).toEqual([]);
    const user = userEvent.setup();
    const input = container.querySelector('input')!;
    expect(container.querySelector('label')?.htmlFor).toBe(input.id);
    expect(input.id.startsWith('_i1-')).toBe(true);
    await user.type(input, '{Enter}');
    const describedBy = input.getAttribute('aria-describedby')!;
    expect(describedBy.startsWith('_i1-')).toBe(true);
    expect(document.getElementById(describedBy)?.textContent).toBe(MESSAGES.invalid);
    container.remove();
  });
});
