// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OptionButtons } from '../../../islands/kit/OptionButtons';

afterEach(cleanup);

const OPTIONS = [
  { value: 'partner', label: 'My partner' },
  { value: 'child', label: 'My child' },
  { value: 'parent', label: 'My parent' },
];

const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name });
const selected = () => screen.getAllByRole<HTMLInputElement>('radio').filter((r) => r.checked);

describe('OptionButtons (SPEC.md §2 selectable option buttons)', () => {
  it('is a named group of radios, one per option, none chosen at first', () => {
    render(<OptionButtons legend="Who do you want to locate?" options={OPTIONS} />);
    expect(screen.getByRole('group', { name: 'Who do you want to locate?' })).toBeTruthy();
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual([
      'partner',
      'child',
      'parent',
    ]);
    expect(selected()).toEqual([]);
  });

  it('marks the chosen option and reports its value', async () => {
    const onChange = vi.fn();
    render(<OptionButtons legend="Who?" options={OPTIONS} onChange={onChange} />);
    await userEvent.click(screen.getByText('My child'));
    expect(onChange).toHaveBeenLastCalledWith('child');
    expect(selected()).toEqual([radio('My child')]);
    expect(radio('My child').closest('label')?.className).toContain(
      'option-buttons__option--selected',
    );
    expect(radio('My partner').closest('label')?.className).not.toContain('--selected');
  });

  it('moves the choice with the arrow keys', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <OptionButtons legend="Who?" options={OPTIONS} defaultValue="partner" onChange={onChange} />,
    );
    await user.tab();
    expect(document.activeElement).toBe(radio('My partner'));
    await user.keyboard('{ArrowDown}');
    expect(selected()).toEqual([radio('My child')]);
    expect(onChange).toHaveBeenLastCalledWith('child');
    await user.keyboard('{ArrowUp}');
    expect(onChange).toHaveBeenLastCalledWith('partner');
  });

  it('follows a value kept by the caller', async () => {
    function Kept() {
      const [value, setValue] = useState<string | null>('parent');
      return (
        <>
          <OptionButtons legend="Who?" options={OPTIONS} value={value} onChange={setValue} />
          <button type="button" onClick={() => setValue(null)}>
            Reset
          </button>
        </>
      );
    }
    render(<Kept />);
    expect(selected()).toEqual([radio('My parent')]);
    await userEvent.click(screen.getByText('Reset'));
    expect(selected()).toEqual([]);
  });

  it('posts with a server form before any script runs: named radios carrying the values', () => {
    const html = renderToString(
      <OptionButtons legend="Who?" options={OPTIONS} name="relation" defaultValue="child" />,
    );
    const form = document.createElement('form');
    form.innerHTML = html;
    expect(form.querySelectorAll('input[type=radio][name=relation]')).toHaveLength(3);
    expect(new FormData(form).get('relation')).toBe('child');
  });

  it('can keep its question for screen readers only', () => {
    render(<OptionButtons legend="Who?" options={OPTIONS} showLegend={false} />);
    expect(screen.getByRole('group', { name: 'Who?' })).toBeTruthy();
    expect(screen.getByText('Who?').className).toBe('visually-hidden');
  });

  it('options that move on are marked for analytics as option__redirect (SPEC.md §4)', () => {
    render(<OptionButtons legend="Who?" options={OPTIONS} redirects />);
    const marks = screen.getAllByRole('radio').map((r) => r.getAttribute('data-event'));
    expect(marks).toEqual(['option__redirect', 'option__redirect', 'option__redirect']);
    cleanup();
    render(<OptionButtons legend="Who?" options={OPTIONS} />);
    expect(screen.getAllByRole('radio').every((r) => !r.hasAttribute('data-event'))).toBe(true);
  });
});
