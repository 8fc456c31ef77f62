// @vitest-environment happy-dom
import { cleanStores, STORE_UNMOUNT_DELAY } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deeplinkImageFailed, deeplinkQrStore } from '../../../islands/stores/deeplink-qr';
import { $signup } from '../../../islands/stores/signup';

const extras = vi.hoisted(() => ({ loadDeeplink: vi.fn() }));
vi.mock('../../../islands/signup/account-extras', () => extras);
const qr = vi.hoisted(() => ({ qrCodeDataUrl: vi.fn() }));
vi.mock('../../../shared/qr-code', () => qr);

const LINK = 'https://app.example/open/abc';
const GIVEN = 'https://qr.product-api.example/codes/abc.png';
const DRAWN = 'data:image/png;base64,drawn';

/** The success screen after a sign-up: the link, and the product API's image if it gave one. */
function signedUp(deeplinkUrl: string, deeplinkQR = '') {
  $signup.set({ ...$signup.get(), isSuccess: true, deeplinkUrl, deeplinkQR });
}

beforeEach(() => {
  localStorage.clear();
  cleanStores($signup);
  extras.loadDeeplink.mockReset();
  extras.loadDeeplink.mockResolvedValue(undefined);
  qr.qrCodeDataUrl.mockReset();
  qr.qrCodeDataUrl.mockResolvedValue(DRAWN);
});
afterEach(() => vi.useRealTimers());

describe('the deeplink QR store (SPEC.md §2 success screen, §9 QR code)', () => {
  it('shows nothing and asks for nothing before the island listens', () => {
    signedUp('');
    const $qr = deeplinkQrStore();
    expect($qr.value?.src).toBe('');
    expect(extras.loadDeeplink).not.toHaveBeenCalled();
  });

  it('shows the product API image with the link, drawing nothing', () => {
    signedUp(LINK, GIVEN);
    const $qr = deeplinkQrStore();
    $qr.listen(() => {});
    expect($qr.value?.src).toBe(GIVEN);
    expect(qr.qrCodeDataUrl).not.toHaveBeenCalled();
    expect(extras.loadDeeplink).not.toHaveBeenCalled();
  });

  it('draws the code from the link when the product API gave no image', async () => {
    signedUp(LINK);
    const $qr = deeplinkQrStore();
    $qr.listen(() => {});
    await vi.waitFor(() => expect($qr.value?.src).toBe(DRAWN));
    expect(qr.qrCodeDataUrl).toHaveBeenCalledWith(LINK);
  });

  it('draws the code from the link once the given image fails to show', async () => {
    signedUp(LINK, GIVEN);
    const $qr = deeplinkQrStore();
    $qr.listen(() => {});
    deeplinkImageFailed($qr);
    await vi.waitFor(() => expect($qr.value?.src).toBe(DRAWN));
  });

  it('asks again for a link the sign-up did not get, and shows it when it comes', async () => {
    signedUp('');
    extras.loadDeeplink.mockImplementation(async () => signedUp(LINK, GIVEN));
    const $qr = deeplinkQrStore();
    $qr.listen(() => {});
    expect(extras.loadDeeplink).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect($qr.value?.src).toBe(GIVEN));
  });

  it('writes nothing once the island has gone, even a code drawn meanwhile', async () => {
    vi.useFakeTimers();
    signedUp(LINK);
    let draw: (src: string) => void = () => {};
    qr.qrCodeDataUrl.mockReturnValue(new Promise((resolve) => (draw = resolve)));
    const $qr = deeplinkQrStore();
    const unlisten = $qr.listen(() => {});
    await vi.waitFor(() => expect(qr.qrCodeDataUrl).toHaveBeenCalled());
    unlisten();
    vi.advanceTimersByTime(STORE_UNMOUNT_DELAY);
    draw(DRAWN);
    await vi.advanceTimersByTimeAsync(0);
    signedUp('https://app.example/open/other', GIVEN);
    expect($qr.value?.src).toBe('');
  });
});
