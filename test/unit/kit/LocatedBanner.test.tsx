// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocatedBanner } from '../../../islands/kit/LocatedBanner';
import LocatedBannerIsland from '../../../islands/LocatedBanner';
import { $map } from '../../../islands/stores/map';
import { serverThenHydrate } from './hydrate';

const PROPS = { title: 'Number located', phoneLabel: 'Phone number' };

beforeEach(() => {
  localStorage.clear();
  $map.set({ phone: '', phoneDisplay: '', numberData: null, initCoords: null });
});

/** What the phone form stores for a number: E.164 and the form people write. */
const enter = (phone: string, phoneDisplay: string) =>
  $map.set({ ...$map.get(), phone, phoneDisplay });
afterEach(cleanup);

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
    enter('+14155550123', '+1 415 555 0123');
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
    act(() => enter('+447911123456', '+44 7911 123456'));
    expect(screen.getByText('+44 7911 123456')).toBeTruthy();
    act(() => enter('', ''));
    expect(screen.queryByText(/\+44/)).toBeNull();
  });

  it('shows a number stored before its display form was kept as it is stored', () => {
    render(<LocatedBannerIsland {...PROPS} />);
    act(() => enter('+447911123456', ''));
    expect(screen.getByText('+447911123456')).toBeTruthy();
  });
});
