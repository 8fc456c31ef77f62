// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatPhoneForDisplay } from '../../../islands/kit/format-phone';
import { LocatedBanner } from '../../../islands/kit/LocatedBanner';
import LocatedBannerIsland from '../../../islands/LocatedBanner';
import { $map } from '../../../islands/stores/map';
import { serverThenHydrate } from './hydrate';

const PROPS = { title: 'Number located', phoneLabel: 'Phone number' };

beforeEach(() => {
  localStorage.clear();
  $map.setKey('phone', '');
});
afterEach(cleanup);

describe('formatPhoneForDisplay', () => {
  it.each([
    ['+14155550123', '+1 415 555 0123'],
    ['+447911123456', '+44 7911 123456'],
  ])('shows %s as %s', (stored, shown) => {
    expect(formatPhoneForDisplay(stored)).toBe(shown);
  });

  it('shows a value it cannot read as stored, and nothing for nothing', () => {
    expect(formatPhoneForDisplay('12')).toBe('12');
    expect(formatPhoneForDisplay('  ')).toBe('');
  });
});

describe('LocatedBanner (SPEC.md §2 number located banner)', () => {
  it('shows the title and the number, the number read left to right', () => {
    render(<LocatedBanner {...PROPS} phone="+1 415 555 0123" />);
    expect(screen.getByText('Number located')).toBeTruthy();
    const phone = screen.getByText('+1 415 555 0123');
    expect(phone.tagName).toBe('BDI');
    expect(phone.getAttribute('dir')).toBe('ltr');
    expect(phone.parentElement?.textContent).toBe('Phone number +1 415 555 0123');
  });

  it('shows the title alone when there is no number', () => {
    const { container } = render(<LocatedBanner {...PROPS} phone="" />);
    expect(container.textContent).toBe('Number located');
  });
});

describe('the LocatedBanner island', () => {
  it('renders no number on the server, even when the browser has one stored', async () => {
    $map.setKey('phone', '+14155550123');
    const { serverHtml, container, problems } = await serverThenHydrate(
      <LocatedBannerIsland {...PROPS} />,
    );
    container.remove();
    expect(serverHtml).not.toContain('415');
    expect(problems).toEqual([]);
    expect(container.textContent).toContain('+1 415 555 0123');
  });

  it('shows the number entered later, and none once it is cleared', () => {
    render(<LocatedBannerIsland {...PROPS} />);
    expect(screen.queryByText(/\+44/)).toBeNull();
    act(() => $map.setKey('phone', '+447911123456'));
    expect(screen.getByText('+44 7911 123456')).toBeTruthy();
    act(() => $map.setKey('phone', ''));
    expect(screen.queryByText(/\+44/)).toBeNull();
  });
});
