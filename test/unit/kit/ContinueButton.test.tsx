// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContinueButton } from '../../../islands/kit/ContinueButton';
import { ContinueForm } from '../../../screens/layout/ContinueForm';
import { THEMES } from '../../../shared/theme';
import { applyPageCss } from './page-css';
import { englishT } from './translate';

afterEach(cleanup);

describe('ContinueButton (SPEC.md §2 shared building blocks)', () => {
  it('is a submit button with the id continue-button and the label it is given', () => {
    render(<ContinueButton label="Continue" />);
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' });
    expect(button.id).toBe('continue-button');
    expect(button.type).toBe('submit');
  });

  it('takes another id and type when a screen needs them', () => {
    render(<ContinueButton label="Try again" id="retry-button" type="button" />);
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Try again' });
    expect(button.id).toBe('retry-button');
    expect(button.type).toBe('button');
  });

  it('reports a press', async () => {
    const onClick = vi.fn();
    render(<ContinueButton label="Continue" type="button" onClick={onClick} />);
    await userEvent.click(screen.getByRole('button'));
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('while busy is announced, stays focusable and ignores presses and submits', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    const onSubmit = vi.fn((event: SubmitEvent) => event.preventDefault());
    const { container } = render(
      <form>
        <ContinueButton label="Continue" busy onClick={onClick} />
      </form>,
    );
    container.querySelector('form')!.addEventListener('submit', onSubmit);
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.disabled).toBe(false);
    await user.tab();
    expect(document.activeElement).toBe(button);
    await user.click(button);
    await user.keyboard('{Enter}');
    expect(onClick).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(button.querySelector('.button__spinner')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('while busy says so in its busy label, and says Continue again when done', () => {
    const { rerender } = render(<ContinueButton label="Continue" busy busyLabel="Please wait…" />);
    expect(screen.getByRole('button').textContent).toBe('Please wait…');
    rerender(<ContinueButton label="Continue" busyLabel="Please wait…" />);
    expect(screen.getByRole('button').textContent).toBe('Continue');
    expect(screen.getByRole('button').getAttribute('aria-busy')).toBeNull();
  });

  it('when disabled cannot be pressed', async () => {
    const onClick = vi.fn();
    render(<ContinueButton label="Continue" disabled onClick={onClick} />);
    const button = screen.getByRole<HTMLButtonElement>('button');
    expect(button.disabled).toBe(true);
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });
});

describe('ContinueForm (SPEC.md §2: default label from the key `continue`)', () => {
  it('says the translation of `continue` unless the screen names another label', () => {
    const t = englishT();
    const { rerender } = render(<ContinueForm action="/features" next="/checkout_v3_tr" t={t} />);
    const button = () => document.getElementById('continue-button') as HTMLButtonElement;
    expect(button().textContent).toBe(t('continue'));
    expect(button().textContent).toBe('Continue');
    expect(button().type).toBe('submit');
    rerender(<ContinueForm action="/features" next="/checkout_v3_tr" t={t} label="Try again" />);
    expect(button().textContent).toBe('Try again');
  });
});

describe('ContinueButton and the server ContinueForm look the same (SPEC.md §9)', () => {
  const LOOK = [
    'height',
    'width',
    'borderTopLeftRadius',
    'borderBottomRightRadius',
    'backgroundColor',
    'color',
    'fontSize',
    'fontWeight',
    'display',
  ] as const;

  it.each(THEMES)('in the %s theme: 56px high, radius 12, brand colours', (theme) => {
    const removeCss = applyPageCss(theme);
    render(
      <>
        <ContinueForm action="/signup" next="/checkout_v3_tr" t={englishT()} />
        <div>
          <ContinueButton label="Continue" id="island-continue" />
        </div>
      </>,
    );
    const server = getComputedStyle(document.getElementById('continue-button')!);
    const island = getComputedStyle(document.getElementById('island-continue')!);
    expect(server.height).toBe('56px');
    expect(server.borderTopLeftRadius).toBe('12px');
    for (const property of LOOK)
      expect([property, island[property]]).toEqual([property, server[property]]);
    removeCss();
  });
});
